// The holder's memory watch reads the process through processMemory() (a kept /proc/self/statm
// and V8's heap statistics) instead of process.memoryUsage() around every run: the figures must
// agree with Node's, follow an allocation, and a run that keeps growing must still end as
// MEMORY_LIMIT with the session reset.
import { describe, expect, it } from 'vitest';
import { processMemory } from '../../../src/runtime/holder/processMemory.js';
import { createSandbox } from '../../../src/index.js';

const MB = 1048576;

describe('processMemory', () => {
  it("reads the same RSS as Node's process.memoryUsage (within a few MB)", () => {
    const a = process.memoryUsage.rss();
    const m = processMemory();
    const b = process.memoryUsage.rss();
    expect(m.rss).toBeGreaterThan(Math.min(a, b) - 8 * MB);
    expect(m.rss).toBeLessThan(Math.max(a, b) + 8 * MB);
    const usage = process.memoryUsage();
    // own = heap in use + external memory, which counts every ArrayBuffer
    expect(m.own).toBeGreaterThanOrEqual(usage.arrayBuffers);
  });

  it('follows 64 MB of buffers allocated and touched: own and RSS grow', () => {
    const before = processMemory();
    const buf = Buffer.alloc(64 * MB, 1);
    const after = processMemory();
    // own is heap in use + external: a GC between the two reads may free some heap or an old
    // buffer, so the growth is the 64 MB less what was collected meanwhile (CI once saw 63.76 MB)
    expect(after.own - before.own).toBeGreaterThan(56 * MB);
    expect(after.rss - before.rss).toBeGreaterThan(48 * MB);
    expect(buf[buf.length - 1]).toBe(1);
  });
});

describe('the memory limit with the cheaper watch', () => {
  it('a run that keeps growing ends as MEMORY_LIMIT; the next run finds the session reset', async () => {
    await using box = await createSandbox({ awardData: false, memoryLimitMb: 64, timeoutMs: 30_000 });
    expect((await box.run('const keep = 1; keep')).value).toBe(1);
    const r = await box.run('const a = []; while (true) a.push(new Array(1e5).fill(1.5))');
    expect(r.error?.type, JSON.stringify(r.error)).toBe('MEMORY_LIMIT');
    const next = await box.run('typeof keep');
    expect(next.sessionReset).toBe(true);
    expect(next.value).toBe('undefined');
  }, 60_000);
});
