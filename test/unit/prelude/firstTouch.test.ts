// A column's first touch builds only what the question reads: a date is made when its row is read
// (a fresh Date per read, never one per row of the column up front), and a number column with
// nothing missing is reduced over its own storage (no packed copy). Each answer must equal the
// per-value reference computed in the guest from t.array(col) with plain loops.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createHarness, type Harness } from './harness.js';
import { columnar, dict, f64 } from './fixture.js';

const TOUCH = columnar('award_data', {
  Agency: dict(['NSF', 'DOD', null, 'DOD', 'NASA', 'DOD', 'NSF', null]),
  // nulls, a tie on the largest (the first one wins) and the smallest after a null
  Date: f64(['2020-05-01', null, '2023-01-31', '2019-02-03', null, '2023-01-31', '2019-02-03', '2021-07-04'], 'date'),
  // nothing missing: reductions read the column's own Float64Array
  Year: f64([2020, 2019, 2023, 2019, 2018, 2023, 2019, 2021], 'integer'),
  // nulls and a NaN that is present: both skipped by reductions
  Amount: f64([100, null, 250.5, Number.NaN, 75, null, 1e6, -3]),
  // missing from the first row on, a NaN last: the first sum packs the copy from its first value
  Gaps: f64([null, 2.5, 4, null, 8, 16, -1, Number.NaN]),
});
// read only by the row-read test: no other test reads its rows first
const READS = columnar('reads', { Paid: f64([null, -0, 250.5, Number.NaN, 75, null, 1e6, -3]) });
const PAID = [null, '-0', '250.5', 'NaN', '75', null, '1000000', '-3'];

let h: Harness;
beforeAll(() => {
  h = createHarness({ tables: [TOUCH, READS], memoryLimitMb: 256 });
});
afterAll(() => h.dispose());

const REF_EXTREMES = `(c) => {
  const a = award_data.array(c);
  let lo = -1, hi = -1;
  for (let i = 0; i < a.length; i++) {
    const v = a[i];
    if (v === null || (typeof v === 'number' && v !== v)) continue;
    if (lo < 0 || +v < +a[lo]) lo = i;
    if (hi < 0 || +v > +a[hi]) hi = i;
  }
  return { min: lo < 0 ? null : a[lo], max: hi < 0 ? null : a[hi], idxmin: lo, idxmax: hi };
}`;

describe('date columns: a Date made per read', () => {
  test('min, max, idxmin, idxmax, argmin and argmax equal the per-value reference', async () => {
    const r = await h.run(`{
      const ref = (${REF_EXTREMES})('Date');
      const s = award_data.Date;
      ({ ref, got: { min: s.min(), max: s.max(), idxmin: s.idxmin(), idxmax: s.idxmax() }, arg: [s.argmin(), s.argmax()] })
    }`);
    expect(r.ok, JSON.stringify(r.error)).toBe(true);
    const v = r.value as { ref: unknown; got: unknown; arg: number[] };
    expect(v.got).toEqual(v.ref);
    expect(v.arg).toEqual([3, 2]);
    expect(v.got).toEqual({ min: '2019-02-03T00:00:00.000Z', max: '2023-01-31T00:00:00.000Z', idxmin: 3, idxmax: 2 });
  });

  test('row reads give Dates and nulls as t.array does, a fresh Date each read', async () => {
    const r = await h.run(`{
      const a = award_data.array('Date');
      const rows = [];
      for (let i = 0; i < award_data.numRows(); i++) rows.push(award_data.get('Date', i));
      const objs = award_data.objects().map((o) => o.Date);
      const d = award_data.get('Date', 0);
      d.setUTCFullYear(1900);
      ({
        same: JSON.stringify(rows) === JSON.stringify(a) && JSON.stringify(objs) === JSON.stringify(a),
        kinds: rows.map((v) => (v === null ? 'null' : v instanceof Date ? 'Date' : typeof v)),
        fresh: award_data.get('Date', 0) !== award_data.get('Date', 0),
        untouched: award_data.get('Date', 0).toISOString(),
        outside: [award_data.get('Date', -1), award_data.get('Date', 8), award_data.get('Date', 1.5)].map(String),
      })
    }`);
    expect(r.ok, JSON.stringify(r.error)).toBe(true);
    expect(r.value).toEqual({
      same: true,
      kinds: ['Date', 'null', 'Date', 'Date', 'null', 'Date', 'Date', 'Date'],
      fresh: true,
      untouched: '2020-05-01T00:00:00.000Z',
      outside: ['undefined', 'undefined', 'undefined'],
    });
    // and the next run sees the stored value, not the one a guest changed
    expect((await h.run("award_data.get('Date', 0)")).value).toBe('2020-05-01T00:00:00.000Z');
  });

  test('a filtered date column keeps the visible rows', async () => {
    const r = await h.run(`{
      const t = award_data.filter((d) => d.Year !== 2019);
      [t.Date.min(), t.Date.max(), t.Date.argmin(), t.Date.argmax(), t.array('Date').length]
    }`);
    expect(r.ok, JSON.stringify(r.error)).toBe(true);
    expect(r.value).toEqual(['2020-05-01T00:00:00.000Z', '2023-01-31T00:00:00.000Z', 0, 1, 5]);
  });
});

describe('number columns: reductions without a packed copy', () => {
  for (const c of ['Year', 'Amount', 'Gaps']) {
    test(`${c}: sum, mean, count, min, max, median and nunique equal the loops, and the column is unchanged after`, async () => {
      const r = await h.run(`{
        const c = ${JSON.stringify(c)};
        const before = JSON.stringify(award_data.array(c));
        const xs = award_data.array(c).filter((v) => v !== null && v === v);
        let sum = 0;
        for (const x of xs) sum += x;
        const sorted = xs.slice().sort((a, b) => a - b);
        const mid = sorted.length >> 1;
        const ref = {
          sum, mean: sum / xs.length, count: xs.length, min: sorted[0], max: sorted[sorted.length - 1],
          median: sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2,
          nunique: new Set(xs).size,
        };
        const s = award_data[c];
        const got = { sum: s.sum(), mean: s.mean(), count: s.count(), min: s.min(), max: s.max(), median: s.median(), nunique: s.nunique() };
        s.sort_values(); s.nlargest(3); s.quantile(0.9); s.describe();
        ({ ref, got, unchanged: JSON.stringify(award_data.array(c)) === before, again: award_data[c].sum() === sum })
      }`);
      expect(r.ok, JSON.stringify(r.error)).toBe(true);
      const v = r.value as { ref: unknown; got: unknown; unchanged: boolean; again: boolean };
      expect(v.got).toEqual(v.ref);
      expect(v.unchanged).toBe(true);
      expect(v.again).toBe(true);
    });
  }

  test('dictionary text: value_counts equals counting the decoded strings', async () => {
    const r = await h.run(`{
      const ref = {};
      for (const v of award_data.array('Agency')) if (v !== null) ref[v] = (ref[v] ?? 0) + 1;
      const vc = award_data.Agency.value_counts();
      ({ ref, got: Object.fromEntries(vc.index.map((k, i) => [k, vc.tolist()[i]])) })
    }`);
    expect(r.ok, JSON.stringify(r.error)).toBe(true);
    const v = r.value as { ref: unknown; got: unknown };
    expect(v.got).toEqual(v.ref);
    expect(v.got).toEqual({ DOD: 3, NSF: 2, NASA: 1 });
  });
});

describe('number columns with nulls: row reads', () => {
  test('t.get(col, row) gives each value, null or undefined, before and after enough reads to box the column', async () => {
    // the first reads come from the typed arrays, later ones from the boxed array: both must give
    // null for a missing value, NaN and -0 as stored, undefined off the column's rows
    const r = await h.run(`{
      const t = tables.reads;
      t.Paid.sum(); // loads the column through its typed arrays (no row read), so later reads use its getter
      const show = (v) => v === undefined ? 'u' : v === null ? null : Object.is(v, -0) ? '-0' : String(v);
      const rounds = [];
      for (let k = 0; k < 300; k++) {
        const got = [];
        for (let i = 0; i < t.numRows(); i++) got.push(show(t.get('Paid', i)));
        got.push(show(t.get('Paid', -1)), show(t.get('Paid', t.numRows())), show(t.get('Paid', 1.5)));
        rounds.push(JSON.stringify(got));
      }
      ({ first: JSON.parse(rounds[0]), distinct: [...new Set(rounds)].length, objects: t.objects().map((o) => show(o.Paid)) })
    }`);
    expect(r.ok, JSON.stringify(r.error)).toBe(true);
    expect(r.value).toEqual({ first: [...PAID, 'u', 'u', 'u'], distinct: 1, objects: PAID });
  });
});
