// A few rows of a column no run has loaded read a window at a time (bridge.fetchRowWindow): a row
// read of many columns (head(), t.get(col, i), objects() of a sliced table) fetches windows, not
// whole columns, and reads exactly what the whole column reads; after 16 windows, or for a scan,
// the column is loaded whole as before.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createHarness, type Harness } from './harness.js';
import { bool, columnar, dict, f64, utf8 } from './fixture.js';

const ROWS = 5000;
const idx = Array.from({ length: ROWS }, (_, i) => i);
const values = {
  n: idx.map((i) => (i % 11 === 3 ? null : i % 17 === 0 ? NaN : i === 5 ? -0 : i * 1.5 - 100)),
  a: idx.map((i) => i * 2),
  d: idx.map((i) => (i % 9 === 4 ? null : `20${String(10 + (i % 15)).padStart(2, '0')}-0${1 + (i % 9)}-1${i % 10}`)),
  b: idx.map((i) => (i % 5 === 1 ? null : i % 3 === 0)),
  k: idx.map((i) => (i % 13 === 6 ? null : `name ${i % 41} ${i % 2 ? 'ü€' : '😀'}`)),
  s: idx.map((i) => (i % 7 === 0 ? null : `text ${i}`)),
};

function table() {
  return columnar('award_data', {
    n: f64(values.n),
    a: f64(values.a, 'integer'),
    d: f64(values.d, 'date'),
    b: bool(values.b),
    k: dict(values.k),
    s: utf8(values.s),
  });
}

/** What the guest reads at `rows` of every column, as JSON (dates as ISO strings, -0 and NaN named). */
const READ = (rows: number[]) =>
  `JSON.stringify(${JSON.stringify(rows)}.map(i => award_data.columnNames().map(c => { const v = award_data.get(c, i); return v instanceof Date ? v.toISOString() : Object.is(v, -0) ? '-0' : Number.isNaN(v) ? 'NaN' : v; })))`;

let windowed: Harness;
let whole: Harness;
beforeAll(() => {
  windowed = createHarness({ tables: [table()], windows: true });
  whole = createHarness({ tables: [table()] });
});
afterAll(() => {
  windowed.dispose();
  whole.dispose();
});

describe('row windows', () => {
  test('a row of every column fetches one window of each non-text column, and reads what the whole column reads', async () => {
    const rows = [0, 3, 4, 5, 6, 255];
    const a = await windowed.run(READ(rows));
    expect(windowed.fetched.sort()).toEqual(
      [
        'award_data/a<0:256>',
        'award_data/b<0:256>',
        'award_data/d<0:256>',
        'award_data/k<0:256>',
        'award_data/n<0:256>',
        'award_data/s',
      ].sort(),
    );
    const b = await whole.run(READ(rows));
    expect(a.value).toBe(b.value);
    expect(JSON.parse(a.value as string)[3][0]).toBe('-0');
  });

  test('the last window is short; rows outside the column read as they do whole', async () => {
    const code = `[${READ([ROWS - 1, ROWS - 136])}, JSON.stringify([award_data.get('n', ${ROWS}), award_data.get('k', -1), award_data.get('d', 1.5)])]`;
    const a = await windowed.run(code);
    expect(a.value).toEqual((await whole.run(code)).value);
    expect(windowed.fetched).toContain(`award_data/n<${ROWS - 136 - ((ROWS - 136) % 256)}:${ROWS}>`);
  });

  test('a date read from a window is a fresh Date: setting its year changes no later read', async () => {
    const r = await windowed.run(
      "const x = award_data.get('d', 700); x.setUTCFullYear(1900); award_data.get('d', 700).getUTCFullYear()",
    );
    expect(r.value).toBe(Number(values.d[700]!.slice(0, 4)));
  });

  test('after 16 windows the column is loaded whole, and every read still agrees', async () => {
    const rows = idx.filter((i) => i % 97 === 0);
    const a = await windowed.run(READ(rows));
    const b = await whole.run(READ(rows));
    expect(a.value).toBe(b.value);
    const nWindows = windowed.fetched.filter((f) => f.startsWith('award_data/n<')).length;
    expect(nWindows).toBeLessThanOrEqual(16);
    expect(windowed.fetched).toContain('award_data/n');
  });

  test('a scan after window reads loads the column whole and agrees', async () => {
    const h = createHarness({ tables: [table()], windows: true });
    try {
      await h.run("award_data.get('k', 10); award_data.get('a', 10)");
      expect(h.fetched.sort()).toEqual(['award_data/a<0:256>', 'award_data/k<0:256>']);
      const vc = await h.run('award_data.k.value_counts().to_dict()');
      const counts: Record<string, number> = {};
      for (const v of values.k) if (v !== null) counts[v] = (counts[v] ?? 0) + 1;
      expect(vc.value).toEqual(counts);
      expect((await h.run("award_data.array('a').reduce((s, x) => s + x, 0)")).value).toBe(
        values.a.reduce((s, x) => s + x, 0),
      );
      expect(h.fetched).toContain('award_data/k');
      expect(h.fetched).toContain('award_data/a');
      expect((await h.run("award_data.get('k', 4999)")).value).toBe(values.k[4999]);
    } finally {
      h.dispose();
    }
  });
});
