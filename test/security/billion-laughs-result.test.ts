// Hazard: a small result with shared subtrees ("billion laughs") blew up to ~2 GB when the host
// serialized it. Layers: the prelude serializes inside the isolate against one byte budget
// (maxResultBytes, prelude/serialize/jsonOut.ts) and depth cap, so the expansion stops at the cap;
// the host only parses that bounded string.
import { describe, expect, it } from 'vitest';
import { createSandbox } from '../../src/index.js';
import { expectHealthy, timed } from './helpers.js';

const CAP = 100_000;

describe('billion laughs in a result', () => {
  for (const [name, code] of [
    ['nested arrays (2**30 leaves)', "let a = ['x'.repeat(100)]; for (let i = 0; i < 30; i++) a = [a, a]; a"],
    [
      'nested objects (2**40 leaves)',
      "let o = { s: 'x'.repeat(1000) }; for (let i = 0; i < 40; i++) o = { l: o, r: o }; o",
    ],
    [
      'a Map of shared arrays',
      "const big = Array.from({ length: 1e4 }, (_, i) => i); const m = new Map(); for (let i = 0; i < 1e4; i++) m.set('k' + i, big); m",
    ],
    [
      'a Set of shared objects',
      'const big = { rows: Array.from({ length: 1e4 }, (_, i) => ({ i })) }; new Set(Array.from({ length: 1e3 }, () => ({ big })))',
    ],
    [
      'a chart spec with shared data',
      'const rows = Array.from({ length: 1e4 }, (_, i) => ({ x: i, y: i })); let s = { data: { values: rows } }; for (let i = 0; i < 20; i++) s = { layer: [s, s] }; chart(s); 1',
    ],
  ] as const) {
    it(`${name}: capped at maxResultBytes, fast, the host untouched`, async () => {
      await using box = await createSandbox({ maxResultBytes: CAP, timeoutMs: 10_000, memoryLimitMb: 256 });
      const before = process.memoryUsage.rss();
      const { r } = await timed(box, code);
      expect(r.error).toBeUndefined();
      expect(Buffer.byteLength(JSON.stringify(r))).toBeLessThan(CAP + 20_000);
      expect(process.memoryUsage.rss() - before).toBeLessThan(100 * 1048576);
      await expectHealthy(box);
    });
  }

  it('the cut is flagged: truncated.value', async () => {
    await using box = await createSandbox({ maxResultBytes: CAP });
    const r = await box.run("let a = ['x'.repeat(100)]; for (let i = 0; i < 30; i++) a = [a, a]; a");
    expect(r.truncated.value).toBe(true);
  });

  it('printing it is bounded by the output cap', async () => {
    await using box = await createSandbox({ maxOutputBytes: 10_000, timeoutMs: 10_000 });
    const { r } = await timed(box, "let a = ['x'.repeat(100)]; for (let i = 0; i < 30; i++) a = [a, a]; print(a); 1");
    expect(r.value).toBe(1);
    expect(Buffer.byteLength(r.stdout)).toBeLessThan(10_000 + 200);
  });
});
