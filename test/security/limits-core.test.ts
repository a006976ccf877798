// The first security set of the core runtime: deadlines that cover async code, the memory limit,
// output floods, guest getters, and the constructor chain. Each asserts the host is healthy after.
import { describe, it, expect } from 'vitest';
import { run, createSandbox } from '../../src/index.js';
import { expectNoHang } from '../helpers/hangGuard.js';

const TIMEOUT = 1500;

async function healthy() {
  const r = await run('1 + 1');
  expect(r.value).toBe(2);
}

describe('deadline', () => {
  for (const [name, code] of [
    ['sync infinite loop', 'while (true) {}'],
    ['await loop', 'while (true) { await 0 }'],
    ['never-settling promise', 'await new Promise(() => {})'],
    ['microtask flood', 'const f = () => Promise.resolve().then(f); f(); await new Promise(() => {})'],
  ] as const) {
    it(`ends a ${name} as TIMEOUT within the deadline plus 1 s`, async () => {
      const t0 = performance.now();
      const r = await run(code, { timeoutMs: TIMEOUT });
      const elapsed = performance.now() - t0;
      expect(r.error?.type).toBe('TIMEOUT');
      expectNoHang(elapsed, TIMEOUT + 1500 /* process start of the one-shot sandbox */, 'the TIMEOUT answer');
      await healthy();
    });
  }

  it('resets a session after TIMEOUT and says so', async () => {
    const box = await createSandbox({ timeoutMs: TIMEOUT });
    await box.run('const keep = 1');
    expect((await box.run('while (true) {}')).error?.type).toBe('TIMEOUT');
    const next = await box.run('typeof keep');
    expect(next.sessionReset).toBe(true);
    expect(next.value).toBe('undefined');
    await box.close();
  });
});

describe('memory', () => {
  it('ends a memory bomb as MEMORY_LIMIT with the host alive', async () => {
    const before = process.memoryUsage.rss();
    const r = await run('const a = []; while (true) a.push(new Array(1e5).fill(1.5));', {
      memoryLimitMb: 64,
      timeoutMs: 20_000,
    });
    expect(r.error?.type).toBe('MEMORY_LIMIT');
    expect(process.memoryUsage.rss() - before).toBeLessThan(200 * 1048576);
    await healthy();
  });
});

describe('output', () => {
  it('truncates an output flood with a visible marker', async () => {
    const r = await run("for (let i = 0; i < 1e5; i++) console.log('x'.repeat(100)); 5", { maxOutputBytes: 10_000 });
    expect(r.truncated.stdout).toBe(true);
    expect(r.error?.type).toBe('OUTPUT_LIMIT');
    expect(Buffer.byteLength(r.stdout)).toBeLessThan(10_000 + 200);
    expect(r.stdout).toMatch(/output truncated/);
    expect(r.value).toBe(5);
  });
});

describe('values leave as copies', () => {
  it('never runs a guest getter in the host', async () => {
    const r = await run('({ a: 1, get b() { while (true) {} } })', { timeoutMs: TIMEOUT });
    expect(r.ok).toBe(true);
    expect((r.value as { a: number }).a).toBe(1);
    await healthy();
  });

  it('does not pollute host prototypes through an own __proto__ key', async () => {
    const r = await run('JSON.parse(\'{"__proto__": {"polluted": 1}}\')');
    expect(r.ok).toBe(true);
    expect(({} as { polluted?: number }).polluted).toBeUndefined();
  });
});

describe('realm escape', () => {
  it('finds nothing of the host through the constructor chain reached by runtime strings', async () => {
    const code =
      "const k = ['constr', 'uctor'].join(''); const F = (() => {})[k]; F('return [typeof process, typeof require, typeof globalThis.fetch]')()";
    const r = await run(code);
    expect(r.ok).toBe(true);
    expect(r.value).toEqual(['undefined', 'undefined', 'undefined']);
  });
});
