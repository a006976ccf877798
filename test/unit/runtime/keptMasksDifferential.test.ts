// Masks of host columns kept for the session (prelude/series/maskKept.ts: a comparison of a whole host
// column, or of pending arithmetic with numbers on one, with a literal; and/or/xor/not of kept masks;
// `t[mask]`'s words and index) on both engines. Each step runs in one session on award_data (host
// columns: the kept masks) and on a plain-array copy (the per-value paths), and the exact dumps
// (errors included) must agree at every step. The steps ask the same mask again, with other literals
// of the same text, other operators, other columns under the same names, other tables sharing the
// columns, and after a run wrote into what the kept path handed out or replaced its view.
import { afterAll, describe, expect, it } from 'vitest';
import { createSandbox, shutdown } from '../../../src/index.js';
import { PLAIN_DUMP_SETUP } from '../../helpers/bothAgree.js';

afterAll(() => shutdown());

const SETUP = `${PLAIN_DUMP_SETUP}var __out = (x) => x && typeof x.tolist === 'function' && typeof x.dtype !== 'undefined'
  ? 'S' + x.length + ':' + x.name + ':' + x.sum() + ':' + [0, 1, 2, 7, 1000, x.length - 1].map((i) => __ser(x.get(i))).join(',')
  : Array.isArray(x) ? '[' + x.map(__out).join(',') + ']' : __dump(x);
var __pair = (f) => {
  const run = (X) => { try { return __out(f(X)); } catch (e) { return 'ERR ' + e.name + ': ' + e.message; } };
  return [run(award_data), run(__plain)];
};
1`;

const A = "X['Award Amount']";
const DOD = "X.Agency.eq('Department of Defense')";

// each program runs twice in a row, and the list twice: every kept mask is read at least three times
const MASKS = [
  // each operator, numbers and strings, the literal's type keyed apart ('2020' is not 2020)
  `(X) => [${A}.gt(1e6), ${A}.ge(1e6), ${A}.lt(1e6), ${A}.le(1e6), ${A}.eq(1e6), ${A}.ne(1e6)]`,
  "(X) => [X['Award Year'].eq(2020).sum(), X['Award Year'].eq('2020').sum(), X['Award Year'].ne('2020').sum(), X['Award Year'].ge('2015').sum()]",
  "(X) => [X.Phase.eq('Phase II'), X.Phase.ne('Phase II'), X.Phase.gt('Phase I'), X.Phase.le('Phase I'), X.Phase.eq(2)]",
  // -0 and 0, NaN (not kept), the infinities, a missing value's comparison
  `(X) => [${A}.eq(0).sum(), ${A}.eq(-0).sum(), ${A}.gt(-0).sum(), ${A}.ne(NaN).sum(), ${A}.gt(NaN).sum(), ${A}.lt(Infinity).sum(), ${A}.gt(-Infinity).sum()]`,
  "(X) => [X['Number Employees'].gt(10).mean(), X['Number Employees'].ne(10).sum(), X.Abstract.eq('N/A').sum(), X.Abstract.ne('N/A').sum()]",
  // and/or/xor/not of kept masks, a mask with itself, chains of three
  `(X) => [${DOD}.and(X['Award Year'].ge(2015)), ${DOD}.or(${A}.gt(1e6)).sum(), ${DOD}.xor(X.Phase.eq('Phase II')).sum()]`,
  `(X) => [${DOD}.not(), ${DOD}.not().not().sum(), ${DOD}.and(${DOD}).sum(), ${DOD}.and(X.Phase.eq('Phase II')).and(${A}.gt(1e6)).sum()]`,
  `(X) => ${DOD}.and(X['Award Year'].ge(2015)).not().and(${A}.le(5e5)).mean()`,
  // t[mask], loc, filter, then a column and its reductions
  `(X) => { const t = X; return t[t.Agency.eq('National Aeronautics and Space Administration').and(t['Award Year'].ge(2020))]['Award Amount'].mean(); }`,
  `(X) => { const s = X[${DOD}.and(X.Phase.eq('Phase II')).and(${A}.gt(1e6))]['Award Amount']; return [s.count(), s.sum(), s.min(), s.max()]; }`,
  `(X) => [X[X['HUBZone Owned'].eq('Y')]['Award Amount'].sum(), X.loc(${A}.gt(1e6)).numRows(), X.filter(${A}.gt(1e6)).array('Award Year').slice(0, 5)]`,
  `(X) => X[${A}.gt(1e6)].select('Phase', 'Award Amount', 'Award Year', 'Agency')`,
  // arithmetic with numbers before the comparison (a pending chain), and its forms not kept
  `(X) => [${A}.div(1e6).gt(0.5).sum(), ${A}.div(1e6).gt(2).sum(), ${A}.mul(2).add(1).le(3e5).sum(), ${A}.sub(-0).eq(0).sum(), ${A}.div(0).gt(1).sum()]`,
  `(X) => [${A}.div(1e6).gt('0.5').sum(), ${A}.add(NaN).gt(1).sum(), ${A}.div(X['Number Employees']).gt(1e4).sum(), ${A}.rdiv(1e6).lt(1).sum()]`,
  `(X) => { const d = ${A}.div(1e6); d.view; return d.gt(0.5).sum(); }`,
  `(X) => { const d = ${A}.div(1e6); d.view = null; return d.gt(0.5).sum(); }`,
  // a run that sets a Series' length (a literal asked first here): the next run's mask is the column's
  `(X) => { const d = ${A}.div(1e6); d.length = 5; d.gt(0.25); const c = X.Phase; c.length = 5; c.eq('Phase I'); return 1; }`,
  `(X) => { const m = ${A}.div(1e6).gt(0.25); const p = X.Phase.eq('Phase I'); return [m.mean(), X[m].numRows(), p.mean(), X[p].numRows()]; }`,
  // the same names over other columns; other tables of the same length; filtered and ordered tables
  "(X) => X.select({ 'Award Year': 'Number Employees' })['Award Year'].eq(2020).sum()",
  "(X) => X.select({ 'Award Amount': 'Number Employees' })['Award Amount'].div(1e6).gt(0.5).sum()",
  `(X) => X.select('Phase', 'Award Year')[${A}.gt(1e6)].array('Award Year').slice(0, 5)`,
  `(X) => X.orderby('Award Year')[${A}.gt(1e6)]['Award Amount'].tolist().slice(0, 5)`,
  `(X) => X[X.Phase.eq('Phase I')]['Award Amount'].gt(1e6).sum()`,
  `(X) => X.filter((d) => d.Phase === 'Phase I')[${A}.gt(1e6)].numRows()`,
  "(X) => X['Proposal Award Date'].gt('2020-01-01').sum()",
  // isna/notna of a whole host column or pending arithmetic on one (kept the same way), and not of others
  "(X) => [X.Abstract.isna(), X.Abstract.notna().sum(), X['Number Employees'].isna().sum(), X['Number Employees'].notna(), X.Company.isna().sum(), X.Abstract.isna().and(X.Phase.eq('Phase II')).sum(), X[X.Abstract.notna()].numRows()]",
  `(X) => [${A}.div(0).isna().sum(), ${A}.div(1e6).notna().sum(), X.select({ Abstract: 'Company' }).Abstract.isna().sum(), X.orderby('Award Year').Abstract.isna().sum(), X[X.Phase.eq('Phase I')].Abstract.notna().sum()]`,
  '(X) => { const m = X.Abstract.isna(); const b = m.view.bits; b[0] = 1; b[1] = 1; return [X[m].numRows(), m.not().sum(), m.get(1), X.Abstract.isna().sum()]; }',
  // a run writes into what it was handed (the bytes, the filtered table's index and bitmap) or
  // replaces a mask's view: its own answers follow, and the next run gets the kept ones
  `(X) => { const m = ${A}.gt(1e6); const b = m.view.bits; b[0] = 1; b[1] = 1; return [X[m].numRows(), m.and(m).sum(), m.not().sum(), m.get(1)]; }`,
  `(X) => { const m = ${A}.gt(1e6); m.view = X.Phase.eq('Phase I').view; return [X[m].numRows(), m.and(${DOD}).sum()]; }`,
  `(X) => { const f = X[${A}.gt(1e6)]; f.indices()[0] = 2; f.indices()[1] = 2; return f.array('Award Year').slice(0, 3); }`,
  `(X) => { const f = X[${A}.gt(1e6)]; const k = f.mask(); k.set(0); k.set(1); return f.numRows(); }`,
  `(X) => { const f = X[${A}.gt(1e6)]; const k = f.mask(); const keys = Object.getOwnPropertyNames(k).join(); k.set(0); k.set(1); return [f.numRows(), k.count(), keys]; }`,
  `(X) => { const f = X[${A}.gt(1e6)]; f._index = f.indices().subarray(0, 2); return [f.numRows(), f.indices().length]; }`,
  "(X) => { const f = X.filter((d) => d['Award Amount'] > 1e6); f._index = null; return [f.numRows(), f.indices().length, f.array('Award Year').slice(0, 3)]; }",
  `(X) => [${A}.gt(1e6), X[${A}.gt(1e6)].array('Award Year').slice(0, 3), ${A}.gt(1e6).and(${DOD}).sum()]`,
];

// a run that replaces TypedArray.prototype.slice: a kept index must still never be the one handed out
const SLICED = [
  '(X) => { Object.getPrototypeOf(Object.getPrototypeOf(new Uint32Array(1))).slice = function () { return this; }; return 1; }',
  `(X) => { const f = X[${A}.gt(1e6)]; f.indices()[0] = 2; return f.array('Award Year').slice(0, 3); }`,
  `(X) => { const f = X.filter((d) => d['Award Amount'] > 1e6); f.indices()[0] = 2; return f.array('Award Year').slice(0, 3); }`,
  `(X) => [X[${A}.gt(1e6)].array('Award Year').slice(0, 3), X.filter((d) => d['Award Amount'] > 1e6).array('Award Year').slice(0, 3)]`,
];

describe.each(['isolated-vm', 'quickjs'] as const)('kept masks on %s', (engine) => {
  it('give what the per-value paths give, asked again and over other columns', async () => {
    await using box = await createSandbox({ engine });
    expect((await box.run(SETUP)).ok).toBe(true);
    for (let pass = 0; pass < 2; pass++) {
      for (const program of [...MASKS, ...(pass === 1 ? SLICED : [])]) {
        for (let round = 0; round < 2; round++) {
          const r = await box.run(`__pair(${program})`);
          expect(r.ok, program).toBe(true);
          const [fast, plain] = r.value as [string, string];
          expect(fast, `${program} (pass ${pass + 1}, run ${round + 1})`).toEqual(plain);
        }
      }
    }
  });
});
