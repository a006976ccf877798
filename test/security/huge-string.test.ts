// Hazard: a 512 MB string and ~1 GB JSON.parse results went through raw isolated-vm under a 64 MB
// limit. Layers: V8's string length cap (RangeError); isolated-vm's heap limit and the holder's
// RSS watchdogs (MEMORY_LIMIT); the prelude's result and output caps (maxResultBytes,
// maxOutputBytes), applied inside the isolate before anything crosses; the host's own output cap
// (outputBuffer.ts).
import { describe, expect, it } from 'vitest';
import { createSandbox } from '../../src/index.js';
import { expectHealthy, expectWithinDeadline, holderPid, timed, watchHolder, withPool } from './helpers.js';

const LIMIT = 64;

describe('huge strings', () => {
  it("a 512 MB string: RangeError (past V8's string length cap)", async () => {
    await using box = await createSandbox({ memoryLimitMb: LIMIT, timeoutMs: 3000 });
    const r = await box.run("'x'.repeat(512 * 1024 * 1024).length");
    expect(r.error?.type).toBe('RUNTIME_ERROR');
    expect(r.error?.name).toBe('RangeError');
    expect(r.error?.message).toMatch(/Invalid string length/);
  });

  for (const [name, code] of [
    ['a flattened 256 MB string', "const s = 'x'.repeat(2 ** 28); s.indexOf('y')"],
    ['a 256 MB string returned as the value', "'x'.repeat(2 ** 28)"],
    ['a 256 MB string printed', "print('x'.repeat(2 ** 28)); 1"],
    ['a ~1 GB JSON.parse result', "const s = '[' + '1,'.repeat(5e7) + '1]'; JSON.parse(s).length"],
  ] as const) {
    it(`${name}: MEMORY_LIMIT, with the holder's RSS growth under 2.5x the limit`, async () => {
      await withPool(async (pool) => {
        // 15 s: a loaded machine must not let the deadline win the race against the memory limit
        await using box = await pool.createSandbox({ memoryLimitMb: LIMIT, timeoutMs: 15_000 });
        const watch = watchHolder(holderPid(pool));
        const { r, ms } = await timed(box, code);
        const { baselineMb, peakMb } = watch.stop();
        expect(r.error?.type).toBe('MEMORY_LIMIT');
        expectWithinDeadline(ms, 15_000);
        expect(peakMb - baselineMb, `peak ${peakMb} MB from ${baselineMb} MB`).toBeLessThan(2.5 * LIMIT);
        await expectHealthy(box);
      });
    });
  }

  it('under a large memory limit, a 100 MB value is capped to maxResultBytes and 100 MB of output to maxOutputBytes', async () => {
    await using box = await createSandbox({
      memoryLimitMb: 1024,
      timeoutMs: 10_000,
      maxResultBytes: 100_000,
      maxOutputBytes: 50_000,
    });
    const v = await box.run("'v'.repeat(100 * 1024 * 1024)");
    expect(v.truncated.value).toBe(true);
    expect(Buffer.byteLength(JSON.stringify(v))).toBeLessThan(300_000);
    const o = await box.run("print('o'.repeat(100 * 1024 * 1024)); 2");
    expect(o.error?.type).toBe('OUTPUT_LIMIT');
    expect(Buffer.byteLength(o.stdout)).toBeLessThan(50_000 + 200);
    expect(o.value).toBe(2);
    await expectHealthy(box);
  });
});
