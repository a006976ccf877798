// Series apply(fn) / map(fn) over a number column (prelude/series/fastElementwise.ts applyNumbers:
// one loop compiled per source text of the function, the column's own Float64Array and presence
// bytes) on both engines: each program runs on award_data (host columns: the typed path) and on a
// copy of it made of plain arrays (the per-value path, Series.mapValues), in one session, and the
// exact dumps must agree: the results (-0, NaN, null and undefined told apart), the values the
// function was called with and in what order, what it threw and after how many calls, and the
// reductions of the result (which read the result's packed values).
import { afterAll, describe, expect, it } from 'vitest';
import { createSandbox, shutdown } from '../../../src/index.js';
import { expectBothAgree } from '../../helpers/bothAgree.js';

afterAll(() => shutdown());

const SETUP = `var __ser = (v) => v === undefined ? 'u' : v === null ? 'n' : typeof v === 'number' ? (Object.is(v, -0) ? '-0' : String(v))
  : v instanceof Date ? 'D' + v.getTime() : Array.isArray(v) ? '[' + v.map(__ser).join(',') + ']' : typeof v + ':' + JSON.stringify(v);
var __dump = (x) => x && typeof x.tolist === 'function' && x.dtype !== undefined
  ? JSON.stringify({ v: x.tolist().map(__ser), n: x.name })
  : Array.isArray(x) ? '[' + x.map(__dump).join(',') + ']' : __ser(x);
var __plain = aq.table(Object.fromEntries(award_data.columnNames().map((c) => [c, award_data.array(c)])));
var __both = (f) => {
  const run = (X) => { try { return __dump(f(X)); } catch (e) { return 'ERR ' + e.name + ': ' + e.message; } };
  const [a, b] = [run(award_data), run(__plain)];
  let at = 0;
  while (at < a.length && a[at] === b[at]) at++;
  return [a.slice(0, 4), a.slice(Math.max(0, at - 200), at + 100), b.slice(Math.max(0, at - 200), at + 100), a.length === b.length];
};
1`;

// the calls a function saw, dumped with the result: count, order and each argument (null, NaN, -0)
const SEEN =
  '(X, col, make) => { const seen = []; let r; try { r = make(seen, X[col]); } catch (e) { r = "ERR " + e.name + ": " + e.message; } return [r, seen.length, seen]; }';

const PROGRAMS = [
  // number results: the typed result, then its reductions (sum and mean read its packed values)
  "(X) => { const r = X['Award Amount'].apply((x) => x * 2); return [r, r.sum(), r.mean(), r.median(), r.min(), r.max(), r.count()]; }",
  "(X) => { const r = X['Award Amount'].map((x) => x / 1000); return [r, r.sum(), r.mean(), r.std()]; }",
  "(X) => [X['Award Year'].apply((y) => y - 2000), X['Number Employees'].apply((e) => e + 1).sum()]",
  // missing values reach the function as null, and its numbers come back as numbers
  "(X) => [X['Number Employees'].apply((e) => (e === null ? -1 : e)), X['Number Employees'].apply((e) => e).sum()]",
  // NaN and -0 among the results: kept as they are; the reductions skip NaN
  "(X) => { const r = X['Award Amount'].apply((x) => (x === null || x > 5e5 ? NaN : x)); return [r, r.sum(), r.mean(), r.count(), r.median()]; }",
  "(X) => { const r = X['Award Amount'].apply((x) => (x === null ? -0 : x * -0)); return [r, r.sum(), r.min()]; }",
  "(X) => X['Award Amount'].apply(() => NaN).sum()",
  // a result that is not a number, first or mid-way: every result as it came, no call repeated
  `(X) => (${SEEN})(X, 'Award Amount', (seen, s) => s.apply((x) => { seen.push(x); return x > 1e6 ? 'big' : x; }).tolist().map(__ser))`,
  `(X) => (${SEEN})(X, 'Award Amount', (seen, s) => s.apply((x) => { seen.push(x); return seen.length === 1 ? undefined : x; }).tolist().map(__ser))`,
  "(X) => [X['Award Amount'].apply((x) => x > 1e6), X['Award Amount'].apply((x) => (x === null ? null : x)), X['Award Year'].map((y) => String(y))]",
  // the function throws mid-way: the same error after the same calls
  `(X) => (${SEEN})(X, 'Award Amount', (seen, s) => s.apply((x) => { seen.push(x); if (seen.length === 7) throw new RangeError('stop at ' + x); return x; }).sum())`,
  `(X) => (${SEEN})(X, 'Number Employees', (seen, s) => s.map((x) => { seen.push(x); return x.toFixed(1); }).tolist())`,
  // side effects: called once per value in order, free variables read and written as written
  `(X) => (${SEEN})(X, 'Award Amount', (seen, s) => { let k = 1; const r = s.apply((x) => { seen.push(k); k = -k; return x * k; }); return [r.sum(), k]; })`,
  "(X) => [2, 3, -0.5].map((k) => X['Award Amount'].apply((x) => x * k).sum())",
  // the receiver: a plain call, as the per-value path makes it
  "(X) => X['Award Year'].apply(function (y) { return typeof this === 'undefined' ? y : -y; }).sum()",
  // a function that is not an arrow or a closure: a method, a bound function, a builtin
  "(X) => [X['Award Amount'].apply(Math.abs).sum(), X['Award Year'].apply(Math.sqrt.bind(Math)).sum(), X['Award Amount'].map(Number).sum()]",
  // a run that replaced Function.prototype.toString and .call: the prelude reads neither
  "(X) => { const FP = Object.getPrototypeOf(() => 0); const { toString, call } = FP; FP.toString = () => { throw new Error('read'); }; FP.call = () => 0; try { return X['Award Amount'].apply((x) => x + 1).sum(); } finally { Object.assign(FP, { toString, call }); } }",
  "(X) => X['Award Amount'].apply(new Proxy((x) => x * 3, {})).sum()",
  // a filtered and an ordered table's Series (a row map: the values gathered first)
  "(X) => { const F = X.filter((d) => d.Phase === 'Phase II'); const r = F['Award Amount'].apply((x) => x * 2); return [r, r.sum()]; }",
  "(X) => X.orderby(aq.desc('Award Year'))['Number Employees'].apply((e) => (e === null ? 0.5 : e)).tolist().slice(0, 50)",
  // an apply inside the function of another apply
  "(X) => { const s = X['Award Year']; return s.apply((y) => s.head(3).apply((z) => z + y).sum()).sum(); }",
];

describe.each(['isolated-vm', 'quickjs'] as const)('Series apply/map with a function on %s', (engine) => {
  it('gives what the per-value path gives, call for call', async () => {
    await using box = await createSandbox({ engine });
    expect((await box.run(SETUP)).ok).toBe(true);
    await expectBothAgree(box, PROGRAMS);
  });

  it('calls each run its own closure when runs share a source text, past the kept loops', async () => {
    await using box = await createSandbox({ engine });
    expect((await box.run(SETUP)).ok).toBe(true);
    // one text, a different captured value per run: the loop kept for that text calls each closure
    for (const k of [2, 3, -1]) {
      const r = await box.run(`const k = ${k}; __both((X) => X['Award Amount'].apply((x) => x * k).sum())`);
      const [, fast, plain] = r.value as [string, string, string];
      expect(fast).toEqual(plain);
    }
    // more source texts than the loops kept (64), then a text longer than a key (1,024 chars)
    for (let i = 0; i < 70; i += 10) {
      const texts = Array.from({ length: 10 }, (_, j) => `(X) => X['Award Year'].apply((y) => y + ${i + j}).sum()`);
      const r = await box.run(`[${texts.map((t) => `__both(${t})`).join(',')}]`);
      for (const [, fast, plain] of r.value as [string, string, string][]) expect(fast).toEqual(plain);
    }
    const long = `(y) => /* ${'x'.repeat(1100)} */ y * 3`;
    const r = await box.run(
      `[__both((X) => X['Award Year'].apply(${long}).sum()), __both((X) => X['Award Year'].map(${long.replace('y * 3', 'y * 4')}).sum())]`,
    );
    for (const [, fast, plain] of r.value as [string, string, string][]) expect(fast).toEqual(plain);
  });
});
