// The QuickJS WASM engine keeps the result contract of isolated-vm: values, tables, errors with
// lines, limits as typed errors with a session reset, output caps, state between runs, and the
// result says which engine ran. Runs through the default holder process, as users do.
import { afterAll, describe, expect, it } from 'vitest';
import { createSandbox, run, shutdown } from '../../../src/index.js';
import { engineChoice } from '../../../src/sandbox/options.js';

afterAll(() => shutdown());

const Q = { engine: 'quickjs' } as const;

describe("engine: 'quickjs'", () => {
  it('answers a question over award_data with a table, and says which engine ran', async () => {
    const r = await run("print(award_data.numRows()); value_counts(award_data, 'Agency').head(3)", Q);
    expect(r.error).toBeUndefined();
    expect(r.ok).toBe(true);
    expect(r.engine).toEqual({ name: 'quickjs', version: expect.stringMatching(/^\d+\.\d+\.\d+$/) });
    expect(r.stdout.trim()).toBe(String(r.dataset?.rows));
    expect(r.table?.columns).toEqual(['Agency', 'count']);
    expect(r.table?.rows).toHaveLength(3);
  });

  it('gives the same answers as isolated-vm on the same questions', async () => {
    const code = `award_data.filter(d => d['Award Year'] >= 2015).groupby('Agency').rollup({ n: op.count(), total: op.sum('Award Amount') }).orderby('Agency').objects()`;
    const [q, v] = await Promise.all([run(code, Q), run(code, { engine: 'isolated-vm' })]);
    expect(q.error).toBeUndefined();
    expect(v.engine?.name).toBe('isolated-vm');
    expect(q.value).toEqual(v.value);
  });

  it('sessions restored from the prelude image share nothing: own globals, own Math.random draws', async () => {
    // every session is a copy of one booted instance (quickjsSnapshot.ts): nothing written in one
    // may show in another, and each must draw its own random numbers (the image has one state)
    await using a = await createSandbox(Q);
    await using b = await createSandbox(Q);
    const wrote = await a.run('var leak = 41; try { aq.leaked = 1 } catch {} try { Math.seen = 2 } catch {} leak + 1');
    expect(wrote.value, JSON.stringify(wrote.error)).toBe(42);
    const seen = await b.run('[typeof leak, typeof aq.leaked, typeof Math.seen, typeof aq.table]');
    expect(seen.value).toEqual(['undefined', 'undefined', 'undefined', 'function']);
    const draws = async (box: typeof a) =>
      (await box.run('Array.from({ length: 4 }, () => Math.random())')).value as number[];
    const [da, db] = [await draws(a), await draws(b)];
    expect(da).not.toEqual(db);
    for (const x of [...da, ...db]) expect(x >= 0 && x < 1).toBe(true);
    // the deterministic mode still gives the same draws for the same seed
    const det = { deterministic: { now: 0, seed: 7 } };
    expect((await a.run('Math.random()', det)).value).toBe((await b.run('Math.random()', det)).value);
  });

  it('reports a guest error with its name, line and column', async () => {
    const r = await run('const x = 1;\nnull.y', Q);
    expect(r.error).toMatchObject({ type: 'RUNTIME_ERROR', name: 'TypeError', line: 2 });
    expect(r.error?.snippet).toContain('null.y');
  });

  it('keeps state between runs of a session, and top-level await works', async () => {
    await using box = await createSandbox(Q);
    await box.run('const big = award_data.filter(d => d["Award Amount"] > 1000000)');
    const r = await box.run('const n = await Promise.resolve(big.numRows()); n >= 0');
    expect(r.error).toBeUndefined();
    expect(r.value).toBe(true);
  });

  it('ends a sync loop, a never-settling promise and a microtask flood at the deadline as TIMEOUT, and resets the session', async () => {
    // 3 s: the run after a reset reopens the session (a QuickJS boot) inside the host's deadline window
    await using box = await createSandbox({ ...Q, timeoutMs: 3000 });
    for (const code of [
      'while (true) {}',
      'await new Promise(() => {})',
      'const f = () => Promise.resolve().then(f); f(); 1',
    ]) {
      await box.run('const keep = 1');
      const r = await box.run(code);
      // a flood fills the memory before the deadline on a fast machine: QuickJS then drops jobs
      // it cannot allocate, which the host reads as the memory limit (never a finished run)
      if (code.startsWith('const f')) expect(['TIMEOUT', 'MEMORY_LIMIT'], code).toContain(r.error?.type);
      else expect(r.error?.type, code).toBe('TIMEOUT');
      const next = await box.run('typeof keep');
      expect(next.sessionReset, code).toBe(true);
      expect(next.value).toBe('undefined');
    }
  });

  it('ends memory growth at the memory limit as MEMORY_LIMIT (strings and buffers too)', async () => {
    for (const code of [
      "const a = []; while (true) a.push('x'.repeat(1000) + a.length)",
      'const a = []; while (true) a.push(new Float64Array(1 << 16))',
      'const m = new Map(); for (let i = 0; ; i++) m.set(i, { i })',
    ]) {
      const r = await run(code, { ...Q, memoryLimitMb: 32, timeoutMs: 20_000 });
      expect(r.error?.type, code).toBe('MEMORY_LIMIT');
    }
  });

  it('ends a Map grown forever as MEMORY_LIMIT at any limit, run after run (an allocator trap at a refused grow is the limit)', async () => {
    // QuickJS's allocator traps (an out-of-bounds access) instead of failing cleanly at some
    // points when its memory cannot grow; where it hits depends on the limit and the heap's layout
    for (const memoryLimitMb of [32, 48, 64]) {
      for (let i = 0; i < 2; i++) {
        const r = await run('const m = new Map(); for (let i = 0; ; i++) m.set(i, { i })', {
          ...Q,
          memoryLimitMb,
          timeoutMs: 20_000,
        });
        expect(r.error?.type, `${memoryLimitMb} MB, run ${i + 1}: ${r.error?.message}`).toBe('MEMORY_LIMIT');
      }
    }
    expect((await run('1 + 1', Q)).value).toBe(2);
  });

  it('deep recursion is a catchable error inside the guest, never a crash of the host', async () => {
    const r = await run('function f(n) { return f(n + 1) + 1 } f(0)', Q);
    expect(r.error?.type).toBe('RUNTIME_ERROR');
    expect(r.error?.message).toMatch(/stack overflow/);
    const caught = await run('let depth = 0; function g() { depth++; g() } try { g() } catch (e) { depth > 500 }', Q);
    expect(caught.value).toBe(true);
  });

  it('caps output and result like isolated-vm', async () => {
    const out = await run("for (let i = 0; i < 1e5; i++) print('line ' + i)", { ...Q, maxOutputBytes: 10_000 });
    expect(out.error?.type).toBe('OUTPUT_LIMIT');
    expect(out.truncated.stdout).toBe(true);
    const big = await run("'x'.repeat(100000)", { ...Q, maxResultBytes: 1000 });
    expect(big.truncated.value).toBe(true);
  });

  it('has no require, process, fetch or timers, and Function-built code sees the same hardened global', async () => {
    const r = await run(
      "var k = ['constr', 'uctor'].join(''); var G = (() => 0)[k]('return this')(); [typeof G.require, typeof G.process, typeof G.fetch, typeof G.setTimeout, typeof G.SharedArrayBuffer, typeof G[['__sbirtools', 'boot'].join('_')]]",
      Q,
    );
    expect(r.error).toBeUndefined();
    expect(r.value).toEqual(['undefined', 'undefined', 'undefined', 'undefined', 'undefined', 'undefined']);
  });

  it("'auto' resolves to an engine and reports it; a bad engine is a VALIDATION_ERROR that names the choices", async () => {
    const r = await run('1 + 1');
    expect(['isolated-vm', 'quickjs']).toContain(r.engine?.name);
    await expect(run('1', { engine: 'spidermonkey' as never })).rejects.toMatchObject({
      code: 'VALIDATION_ERROR',
      message: expect.stringContaining("'auto', 'isolated-vm' or 'quickjs'"),
    });
    expect(engineChoice(undefined, { SBIRTOOLS_ENGINE: 'quickjs' })).toBe('quickjs');
    expect(engineChoice('isolated-vm', { SBIRTOOLS_ENGINE: 'quickjs' })).toBe('isolated-vm');
    expect(() => engineChoice(undefined, { SBIRTOOLS_ENGINE: 'v8' })).toThrow(/SBIRTOOLS_ENGINE/);
  });

  it('runs inline without --no-node-snapshot (WASM needs no flag)', async () => {
    const r = await run('6 * 7', { ...Q, isolation: 'inline' });
    expect(r.value).toBe(42);
    expect(r.engine?.name).toBe('quickjs');
  });
});
