// Hazard: no output caps on raw isolated-vm: 50-100 MB of console output or return value went
// straight to the host. Layers: the prelude cuts stdout+stderr at maxOutputBytes inside the
// isolate and stops calling the host; the host's OutputBuffer (outputBuffer.ts) caps again; the
// value is capped at maxResultBytes by the in-isolate serializer (truncated.value).
import { describe, expect, it } from 'vitest';
import { createSandbox } from '../../src/index.js';
import { expectHealthy, expectWithinDeadline, timed } from './helpers.js';

const CAP = 10_000;
const MARKER = /… \[output truncated: limit of 10000 bytes reached\]/;

describe('output floods', () => {
  it('a print loop: OUTPUT_LIMIT, output cut with a marker, the value still returned', async () => {
    await using box = await createSandbox({ maxOutputBytes: CAP, timeoutMs: 10_000 });
    const { r } = await timed(box, "for (let i = 0; i < 1e6; i++) print('y'.repeat(100)); 5");
    expect(r.error?.type).toBe('OUTPUT_LIMIT');
    expect(r.truncated.stdout).toBe(true);
    expect(r.stdout).toMatch(MARKER);
    expect(Buffer.byteLength(r.stdout) + Buffer.byteLength(r.stderr)).toBeLessThan(CAP + 200);
    expect(r.value).toBe(5);
  });

  it('stderr and stdout share one cap', async () => {
    await using box = await createSandbox({ maxOutputBytes: CAP });
    const r = await box.run(
      "for (let i = 0; i < 1e4; i++) { console.log('a'.repeat(50)); console.error('b'.repeat(50)) } 1",
    );
    expect(r.error?.type).toBe('OUTPUT_LIMIT');
    expect(Buffer.byteLength(r.stdout) + Buffer.byteLength(r.stderr)).toBeLessThan(CAP + 200);
  });

  it('one 60 MB print is cut, not copied to the host', async () => {
    await using box = await createSandbox({ maxOutputBytes: CAP, memoryLimitMb: 512, timeoutMs: 10_000 });
    const r = await box.run("print('z'.repeat(60 * 1024 * 1024)); 3");
    expect(r.error?.type).toBe('OUTPUT_LIMIT');
    expect(Buffer.byteLength(r.stdout)).toBeLessThan(CAP + 200);
    expect(r.value).toBe(3);
  });

  it('a flood that never ends: TIMEOUT, with the output printed before the deadline kept and capped', async () => {
    await using box = await createSandbox({ maxOutputBytes: CAP, timeoutMs: 1500 });
    const { r, ms } = await timed(box, "print('first'); while (true) print('x'.repeat(1000))");
    expect(r.error?.type).toBe('TIMEOUT');
    expectWithinDeadline(ms, 1500);
    expect(r.stdout.startsWith('first\n')).toBe(true);
    expect(Buffer.byteLength(r.stdout)).toBeLessThan(CAP + 200);
    await expectHealthy(box);
  });

  it('a 50 MB return value is capped at maxResultBytes (truncated.value, not an error)', async () => {
    await using box = await createSandbox({ maxResultBytes: 50_000, memoryLimitMb: 512 });
    const r = await box.run("Array.from({ length: 1e6 }, (_, i) => 'row ' + i + ' ' + 'p'.repeat(40))");
    expect(r.ok).toBe(true);
    expect(r.truncated.value).toBe(true);
    expect(Buffer.byteLength(JSON.stringify(r.value)) + Buffer.byteLength(r.valueText ?? '')).toBeLessThan(50_000);
    await expectHealthy(box);
  });

  it('display() of a huge table and many displays stay within maxResultBytes', async () => {
    await using box = await createSandbox({ maxResultBytes: 50_000 });
    const r = await box.run('for (let i = 0; i < 200; i++) display(award_data); 1');
    expect(r.value).toBe(1);
    expect(Buffer.byteLength(JSON.stringify(r.displays ?? []))).toBeLessThan(60_000);
    expect(r.truncated.value).toBe(true);
  });
});
