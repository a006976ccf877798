// Hazard: cycles and very deep nesting in results, errors and code: a recursive copy or
// stringify on the host would loop or overflow its stack. Layers: the in-isolate serializer marks
// cycles "[Circular]" and stops at depth 32 ("[Object]"/"[Array]", truncated.value); the policy
// rejects code nested too deeply to check; stack overflows inside the isolate are RangeErrors.
import { describe, expect, it } from 'vitest';
import { createSandbox, run } from '../../src/index.js';
import { expectHealthy, expectPolicy, timed } from './helpers.js';

function depthOf(v: unknown): number {
  let d = 0;
  while (v && typeof v === 'object') {
    v = Array.isArray(v) ? v[0] : Object.values(v)[0];
    d++;
  }
  return d;
}

describe('cycles and deep nesting', () => {
  it('a cyclic value comes back with "[Circular]" markers', async () => {
    const r = await run('const o = { a: 1 }; o.self = o; o.list = [o, { back: o }]; o');
    expect(r.value).toEqual({ a: 1, self: '[Circular]', list: ['[Circular]', { back: '[Circular]' }] });
  });

  for (const [name, code] of [
    ['100k nested objects', 'let o = {}; for (let i = 0; i < 1e5; i++) o = { c: o }; o'],
    ['100k nested arrays', 'let a = []; for (let i = 0; i < 1e5; i++) a = [a]; a'],
    ['100k nested Maps', "let m = new Map(); for (let i = 0; i < 1e5; i++) m = new Map([['k', m]]); m"],
    ['a 100k-deep JSON.parse result', "JSON.parse('['.repeat(1e5) + ']'.repeat(1e5))"],
  ] as const) {
    it(`${name}: cut at depth 32, flagged truncated.value, fast`, async () => {
      await using box = await createSandbox({ timeoutMs: 5000 });
      const { r } = await timed(box, code);
      expect(r.error).toBeUndefined();
      expect(r.truncated.value).toBe(true);
      expect(depthOf(r.value)).toBeLessThanOrEqual(33);
      await expectHealthy(box);
    });
  }

  it('printing deep and cyclic values is bounded', async () => {
    const r = await run(
      'let o = {}; for (let i = 0; i < 1e5; i++) o = { c: o }; const c = { a: 1 }; c.c = c; print(o); print(c); 1',
    );
    expect(r.value).toBe(1);
    expect(r.stdout.length).toBeLessThan(2000);
    expect(r.stdout).toMatch(/Circular/);
  });

  it('a 100k-long error cause chain: a RUNTIME_ERROR with a bounded message', async () => {
    await using box = await createSandbox();
    const { r } = await timed(
      box,
      "let e = new Error('root'); for (let i = 0; i < 1e5; i++) e = new Error('e' + i, { cause: e }); throw e",
    );
    expect(r.error?.type).toBe('RUNTIME_ERROR');
    expect(JSON.stringify(r.error).length).toBeLessThan(20_000);
  });

  it('JSON.stringify of a 100k-deep value inside the guest: RangeError or the exact string, never a host overflow', async () => {
    const r = await run('let o = {}; for (let i = 0; i < 1e5; i++) o = { c: o }; JSON.stringify(o).length');
    if (r.error === undefined) {
      // V8 14 (Node 26, isolated-vm 7) serializes plain objects without recursion: the right
      // answer, '{"c":' x 1e5 + '{}' + '}' x 1e5 (docs/engines.md). Older V8 overflows its stack.
      expect(r.engine?.version.startsWith('7.'), `engine ${JSON.stringify(r.engine)}`).toBe(true);
      expect(r.value).toBe(600_002);
    } else {
      expect(r.error.type).toBe('RUNTIME_ERROR');
      expect(r.error.name).toBe('RangeError');
    }
    await expectHealthy();
  });

  it('JSON.stringify of a 100k-deep value with a replacer (the recursive path on every V8): RangeError', async () => {
    const r = await run(
      'let o = {}; for (let i = 0; i < 1e5; i++) o = { c: o }; JSON.stringify(o, (k, v) => v).length',
    );
    expect(r.error?.type).toBe('RUNTIME_ERROR');
    expect(r.error?.name).toBe('RangeError');
    await expectHealthy();
  });

  it('unbounded recursion: RangeError (Maximum call stack size exceeded)', async () => {
    const r = await run('function f(n) { return f(n + 1) + 1 } f(0)');
    expect(r.error?.name).toBe('RangeError');
    expect(r.error?.message).toMatch(/Maximum call stack size exceeded/);
  });

  it('code nested too deeply to check is refused before it runs', async () => {
    expectPolicy(await run('['.repeat(5000) + ']'.repeat(5000)), 'nesting-too-deep');
    expectPolicy(await run('1' + '+1'.repeat(60_000)), 'nesting-too-deep');
  });
});
