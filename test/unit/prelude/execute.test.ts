// The runtime <-> prelude contract: execute(code, opts) -> GuestOutcome JSON (docs/architecture.md).
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createHarness, type Harness } from './harness.js';

let h: Harness;
beforeAll(() => {
  h = createHarness();
});
afterAll(() => h.dispose());

const wrap = (code: string) => `(async () => {\n${code}\n})()`;

describe('values', () => {
  test('the completion value is the run value', async () => {
    expect(await h.run('1 + 1')).toMatchObject({
      ok: true,
      value: 2,
      valueText: '2',
      truncatedValue: false,
      truncatedOutput: false,
    });
  });
  test('undefined gives no value', async () => {
    const r = await h.run('let u1 = 1;');
    expect(r.ok).toBe(true);
    expect('value' in r).toBe(false);
  });
  test('top-level const persists between runs (global script semantics)', async () => {
    await h.run('const persisted = 41;');
    expect((await h.run('persisted + 1')).value).toBe(42);
  });
  test('resultName reads the global `result`', async () => {
    expect((await h.run('var result = { a: 1 }; 99', { resultName: true })).value).toEqual({ a: 1 });
  });
  test('a table value comes back as `table`', async () => {
    const r = await h.run("award_data.select('Agency').head(2)");
    expect(r.table).toMatchObject({
      columns: ['Agency'],
      dtypes: ['string'],
      rows: [['DOD'], ['NASA']],
      totalRows: 2,
      truncated: false,
    });
    expect(r.table!.markdown).toBe('| Agency |\n| --- |\n| DOD |\n| NASA |');
  });
});

describe('async', () => {
  test('a promise is awaited and its value returned', async () => {
    const r = await h.run(wrap('await null;\nreturn value_counts(award_data, "Phase").numRows();'), {
      async: true,
      lineOffset: 1,
    });
    expect(r).toMatchObject({ ok: true, value: 2 });
  });
  test('a rejection maps lines through lineOffset', async () => {
    const r = await h.run(wrap('await 1;\n  throw new RangeError("late");'), { async: true, lineOffset: 1 });
    expect(r.error).toMatchObject({ name: 'RangeError', message: 'late', line: 2, column: 9 });
  });
});

describe('deterministic', () => {
  test('freezes Date and seeds Math.random for the run only', async () => {
    const code =
      '[Date.now(), new Date().toISOString(), Math.random(), Math.random(), new Date(0).getTime(), new Date() instanceof Date]';
    const a = await h.run(code, { deterministic: { now: 1_700_000_000_000, seed: 7 } });
    const b = await h.run(code, { deterministic: { now: 1_700_000_000_000, seed: 7 } });
    expect(a.value).toEqual(b.value);
    expect((a.value as unknown[]).slice(0, 2)).toEqual([1_700_000_000_000, '2023-11-14T22:13:20.000Z']);
    expect((a.value as unknown[])[4]).toBe(0);
    expect((a.value as unknown[])[5]).toBe(true);
    const after = await h.run('Date.now()');
    expect(after.value).not.toBe(1_700_000_000_000);
  });
  test('time and randomness come back after a run that throws, an async run and a rejected one', async () => {
    const det = { deterministic: { now: 1_700_000_000_000, seed: 7 } };
    const seeded = (await h.run('Math.random()', det)).value;
    const real = async () => {
      const r = await h.run('[Date.now() > 1_700_000_000_000, Math.random() !== Math.random()]');
      expect(r.value).toEqual([true, true]);
    };
    await real();
    const threw = await h.run('throw new Error("x " + Date.now() + " " + Math.random())', det);
    expect(threw.error?.message).toBe(`x 1700000000000 ${String(seeded)}`);
    await real();
    const late = await h.run(wrap('await null;\n  return [Date.now(), Math.random()];'), { ...det, async: true });
    expect(late.value).toEqual([1_700_000_000_000, seeded]);
    await real();
    const rejected = await h.run(wrap('await null;\n  throw new RangeError("at " + Date.now());'), {
      ...det,
      async: true,
    });
    expect(rejected.error).toMatchObject({ name: 'RangeError', message: 'at 1700000000000' });
    await real();
  });
  test('Arquero sampling is seeded too', async () => {
    const code = "award_data.sample(3).array('Award Year')";
    const opts = { deterministic: { now: 0, seed: 3 } };
    expect((await h.run(code, opts)).value).toEqual((await h.run(code, opts)).value);
  });
});

describe('errors', () => {
  test('line and column point into the user code', async () => {
    const r = await h.run('const okLine = 1;\n\n  null.x;');
    expect(r.error).toMatchObject({ name: 'TypeError', line: 3, column: 8 });
    expect(r.error!.stack).toBe('    at analysis.js:3:8');
  });
  test('frames of user functions are kept, prelude frames dropped', async () => {
    const r = await h.run('function inner() { throw new Error("deep"); }\nfunction outer() { inner(); }\nouter();');
    expect(r.error!.stack).toBe(
      '    at inner (analysis.js:1:26)\n    at outer (analysis.js:2:20)\n    at analysis.js:3:1',
    );
    expect(r.error!.stack).not.toMatch(/prelude|bundle|node_modules/);
  });
  test('SyntaxErrors are located with acorn', async () => {
    expect((await h.run('let ok = 1;\nlet x = ;')).error).toMatchObject({ name: 'SyntaxError', line: 2, column: 9 });
  });
  test('thrown non-Errors are readable', async () => {
    expect((await h.run("throw 'plain'")).error).toMatchObject({ name: 'Error', message: 'plain' });
    expect((await h.run('throw { code: 42 }')).error).toMatchObject({
      name: 'Error',
      message: 'Uncaught { code: 42 }',
    });
    expect((await h.run('throw null')).error).toMatchObject({ name: 'Error', message: 'null' });
    expect((await h.run('throw undefined')).error!.hint).toMatch(/throw new Error/);
  });
  test('hostile error objects cannot break the outcome', async () => {
    const r = await h.run(
      "const bad = new Error('x'); Object.defineProperty(bad, 'message', { get() { throw new Error('no'); } }); Object.defineProperty(bad, 'name', { get() { throw 1; } }); throw bad;",
    );
    expect(r.error).toMatchObject({ name: 'Error', message: '(the error message could not be read)' });
  });
  test("QuickJS's out-of-memory error becomes the fixed out-of-memory outcome, built without allocating", async () => {
    // (V8 never throws it; QuickJS does at its allocation limit, and the host reads this outcome as
    // MEMORY_LIMIT: building the usual error outcome would need the memory there is none of)
    const r = await h.run("throw { name: 'InternalError', message: 'out of memory' }");
    expect(r.raw).toBe(
      '{"ok":false,"error":{"name":"InternalError","message":"out of memory"},"truncatedOutput":false}',
    );
    // anything else named InternalError is an ordinary error
    const other = await h.run("throw { name: 'InternalError', message: 'other' }");
    expect(other.raw).not.toMatch(/"message":"out of memory"/);
    expect(other.error?.message).toMatch(/other/);
  });
  test('hints for pandas habits', async () => {
    expect((await h.run("award_data['Award amount'].sum()")).error!.hint).toMatch(/t\.columns/);
    expect((await h.run('[1, 2].iloc(0)')).error!.hint).toMatch(/slice/);
    expect((await h.run('pd.read_csv("x")')).error!.hint).toMatch(/no pandas/);
    expect((await h.run('df.head()')).error!.hint).toMatch(/award_data/);
    expect((await h.run('award_data.columns()')).error!.hint).toMatch(/property/);
    expect((await h.run('value_count(award_data, "Agency")')).error!.hint).toBe('Did you mean `value_counts`?');
  });
});

describe('output', () => {
  test('stdout and stderr are captured in order, per run', async () => {
    const r = await h.run(
      "print('a', 1, { b: [2] }); console.warn('w'); console.log(award_data.shape); console.error('e')",
    );
    expect(r.stdout).toBe('a 1 { b: [ 2 ] }\n[ 8, 7 ]\n');
    expect(r.stderr).toBe('w\ne\n');
  });
  test('output is capped with one marker and a flag', async () => {
    const small = createHarness({ limits: { maxOutputBytes: 100 } });
    try {
      const r = await small.run("for (let i = 0; i < 1000; i++) print('line ' + i); 'done'");
      expect(r.truncatedOutput).toBe(true);
      expect(r.value).toBe('done');
      expect(r.stdout.split('…').length).toBe(2);
      expect(r.stdout.endsWith('… [output truncated: limit of 100 bytes reached]\n')).toBe(true);
      expect(Buffer.byteLength(r.stdout.split('\n…')[0])).toBeLessThanOrEqual(100);
      expect((await small.run("print('fresh')")).stdout).toBe('fresh\n');
    } finally {
      small.dispose();
    }
  });
});

describe('a polluted realm still yields a valid outcome', () => {
  test('JSON, Object.keys and prototype toJSON replaced', async () => {
    const p = createHarness();
    try {
      await p.run(
        "Object.prototype.toJSON = () => 'x'; Array.prototype.toJSON = () => 'y'; JSON.stringify = () => '{'; Object.keys = () => { throw new Error('no'); };",
      );
      expect((await p.run('({ a: [1, 2] })')).value).toEqual({ a: [1, 2] });
      expect((await p.run("throw new Error('still reported')")).error!.message).toBe('still reported');
    } finally {
      p.dispose();
    }
  });
  test('broken String/Array prototypes give an error outcome, not garbage', async () => {
    const p = createHarness();
    try {
      const r = await p.run(
        'String.prototype.slice = null; Array.prototype.map = null; Array.prototype.join = null; award_data.head(2)',
      );
      expect(typeof r.ok).toBe('boolean'); // the harness already validated the shape
    } finally {
      p.dispose();
    }
  });
});
