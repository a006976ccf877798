import { describe, it, expect, afterAll } from 'vitest';
import {
  run,
  createSandbox,
  SandboxClosedError,
  SbirtoolsValidationError,
  PRESETS,
  RunResultSchema,
} from '../../../src/index.js';

describe('run() one-shot', () => {
  it('answers the README example: prints the row count and returns the last expression', async () => {
    const r = await run('print(award_data.numRows()); 6 * 7');
    expect(r.ok).toBe(true);
    expect(r.value).toBe(42);
    expect(r.stdout).toMatch(/^\d+\n$/);
    expect(Number(r.stdout)).toBe(r.dataset!.rows);
    expect(r.dataset!.synthetic).toBe(true);
    expect(r.limits).toEqual(PRESETS.standard);
    expect(RunResultSchema.safeParse(r).success).toBe(true);
  });

  it('accepts top-level await and top-level return', async () => {
    expect((await run('const x = await Promise.resolve(20); x + 1')).value).toBe(21);
    expect((await run('const t = 3;\nif (t > 2) return t * 2;\nreturn 0;')).value).toBe(6);
  });

  it('uses an explicit result variable over the last expression', async () => {
    const r = await run('const result = { n: 1 }; 99');
    expect(r.value).toEqual({ n: 1 });
  });

  it('reports runtime errors with line and column in the user code and no host paths', async () => {
    const r = await run('const a = 1;\nconst b = null;\nb.foo;');
    expect(r.ok).toBe(false);
    expect(r.error).toMatchObject({ type: 'RUNTIME_ERROR', name: 'TypeError', line: 3 });
    expect(r.error!.snippet).toContain('b.foo');
    expect(JSON.stringify(r.error)).not.toMatch(/node_modules|\/work\/|dist\/|prelude/);
  });

  it('keeps line numbers right in async code', async () => {
    const r = await run('await 0;\nconst z = undefined;\nz.x');
    expect(r.error).toMatchObject({ type: 'RUNTIME_ERROR', line: 3 });
  });

  it('turns syntax errors and denylisted code into typed results before any isolate runs', async () => {
    const s = await run('const = 1');
    expect(s.error?.type).toBe('SYNTAX_ERROR');
    expect(s.error?.line).toBe(1);
    const p = await run("require('fs')");
    expect(p.error?.type).toBe('POLICY_VIOLATION');
    expect(p.error?.hint).toBeTruthy();
  });

  it('echoes explicit limits over the preset', async () => {
    const r = await run('1', { preset: 'strict', timeoutMs: 5000 });
    expect(r.limits).toEqual({ ...PRESETS.strict, timeoutMs: 5000 });
  });

  it('throws VALIDATION_ERROR for bad options, naming the option and the value', async () => {
    await expect(run('1', { timeoutMs: -1 })).rejects.toThrow(/`timeoutMs`.*-1/);
    await expect(run('1', { preset: 'huge' as never })).rejects.toThrow(SbirtoolsValidationError);
    await expect(run('1', { memoryLimitMb: Number.NaN })).rejects.toThrow(/memoryLimitMb/);
    await expect(run('1', { timeout: 5 } as never)).rejects.toThrow(/Unknown option `timeout`/);
    await expect(run(42 as never)).rejects.toThrow(/`code` to be a string/);
  });

  it('rejects code over maxCodeBytes as a typed result', async () => {
    const r = await run(`'${'x'.repeat(70_000)}'`, { preset: 'strict' });
    expect(r.error?.type).toBe('POLICY_VIOLATION');
  });

  it('runs empty code and code with a BOM', async () => {
    expect((await run('')).ok).toBe(true);
    expect((await run('\uFEFF1 + 1')).value).toBe(2);
  });
});

describe('sessions', () => {
  it('keeps state between runs, allows redeclaring a const, closes idempotently', async () => {
    const box = await createSandbox({ preset: 'standard' });
    await box.run("const big = award_data.filter(d => d['Award Amount'] > 1000000)");
    const r2 = await box.run('big.numRows()');
    expect(r2.ok).toBe(true);
    expect(typeof r2.value).toBe('number');
    expect((await box.run('const big = 5; big')).value).toBe(5);
    const a = await box.run('const q = await Promise.resolve(7)');
    expect(a.ok).toBe(true);
    expect((await box.run('q * 6')).value).toBe(42);
    await box.close();
    await box.close();
    await expect(box.run('1')).rejects.toBeInstanceOf(SandboxClosedError);
  });

  it('supports await using', async () => {
    let ref: { alive: boolean } | undefined;
    {
      await using box = await createSandbox();
      ref = box;
      expect((await box.run('1 + 1')).value).toBe(2);
    }
    expect(ref!.alive).toBe(false);
  });

  it('cancels a run with an AbortSignal and resets the session', async () => {
    const box = await createSandbox();
    await box.run('const keep = 1');
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 200);
    const r = await box.run('while (true) {}', { signal: ac.signal });
    expect(r.error?.type).toBe('ABORTED');
    expect(r.codeRan).toBeUndefined();
    const next = await box.run('typeof keep');
    expect(next.sessionReset).toBe(true);
    expect(next.value).toBe('undefined');
    await box.close();
  });

  it('a signal aborted before the run ends it as ABORTED with codeRan: false, the state kept', async () => {
    const box = await createSandbox();
    await box.run('const keep = 1');
    const ac = new AbortController();
    ac.abort();
    const r = await box.run('keep + 1', { signal: ac.signal });
    expect(r.error?.type).toBe('ABORTED');
    expect(r.codeRan).toBe(false);
    expect(r.error?.hint).toBe('Nothing to fix in the code; the session state is kept.');
    const next = await box.run('keep + 1');
    expect(next.sessionReset).toBeUndefined();
    expect(next.codeRan).toBeUndefined();
    expect(next.value).toBe(2);
    await box.close();
  });

  it('a run refused by its check says codeRan: false; one that threw in the guest does not', async () => {
    const box = await createSandbox();
    const syntax = await box.run('let = ;');
    expect(syntax.error?.type).toBe('SYNTAX_ERROR');
    expect(syntax.codeRan).toBe(false);
    const thrown = await box.run("throw new TypeError('no')");
    expect(thrown.error?.type).toBe('RUNTIME_ERROR');
    expect(thrown.codeRan).toBeUndefined();
    await box.close();
  });

  it('runs in-process with isolation: inline', async () => {
    const r = await run('award_data.numRows() > 0', { isolation: 'inline' });
    expect(r.value).toBe(true);
  });
});

afterAll(async () => {
  const { shutdown } = await import('../../../src/index.js');
  await shutdown();
});

describe('async last expressions', () => {
  it('returns a parenthesized object literal after top-level await', async () => {
    expect((await run('await 1; ({ a: 1 })')).value).toEqual({ a: 1 });
  });
});

describe.each(['isolated-vm', 'quickjs'] as const)('`result` assigned in an async run on %s', (engine) => {
  // `result` was read when the async function started, before its awaits: undefined on a fresh
  // session, and the previous run's `result` on a session (a stale answer)
  it('is the value it holds once the run settled, a promise in it awaited, never an earlier run’s', async () => {
    await using s = await createSandbox({ engine });
    const values = [];
    for (const code of [
      'result = await Promise.resolve(5)',
      'result = await Promise.resolve(6)',
      'const x = await Promise.resolve(7);\nresult = x * 2',
      'result = 1;\nawait null;\nresult = Promise.resolve(8)',
      'await null;\nresult = undefined',
      'result = 9',
    ])
      values.push((await s.run(code)).value);
    expect(values).toEqual([5, 6, 14, 8, undefined, 9]);
    const failed = await s.run('result = 1;\nawait null;\nresult = Promise.reject(new RangeError("late"))');
    expect(failed.ok).toBe(false);
    expect(failed.error?.message).toContain('late');
  });
});
