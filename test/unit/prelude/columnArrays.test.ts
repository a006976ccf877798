// t.array(col) hands out values decoded once per session; the guest owns what it gets, so writes
// into it never reach later calls or later runs. Pages of long text are evicted past the budget
// and fetched again with the same values.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createHarness, type Harness } from './harness.js';
import { AWARDS, columnar, dict, f64, utf8 } from './fixture.js';

let h: Harness;
beforeAll(() => {
  h = createHarness({ tables: [AWARDS], textPages: true, memoryLimitMb: 256 });
});
afterAll(() => h.dispose());

const COLUMNS = ['Agency', 'Award Amount', 'Award Year', 'Proposal Award Date', 'Award Title', 'Abstract'];

describe('t.array(col) is a fresh copy', () => {
  test('writes, sorts and Date setters in one run do not reach the next run', async () => {
    const before = (await h.run(`[${COLUMNS.map((c) => `award_data.array(${JSON.stringify(c)})`).join(', ')}]`)).raw;
    const vandal = await h.run(`
      for (const c of ${JSON.stringify(COLUMNS)}) {
        const a = award_data.array(c);
        for (const v of a) if (v instanceof Date) v.setUTCFullYear(1900);
        a.reverse(); a[0] = 'changed'; a.length = 2; a.push(42);
      }
      const t = award_data.array('Award Title'); t.sort();
      award_data.array('Agency').fill('X');
      'done'`);
    expect(vandal.value).toBe('done');
    expect((await h.run(`[${COLUMNS.map((c) => `award_data.array(${JSON.stringify(c)})`).join(', ')}]`)).raw).toBe(
      before,
    );
    const counts = await h.run("value_counts(award_data, 'Agency')");
    expect(counts.table?.rows).toEqual([
      ['DOD', 3],
      ['NASA', 2],
      ['NSF', 2],
    ]);
  });

  test('two calls never return the same array object', async () => {
    const r = await h.run(`${JSON.stringify(COLUMNS)}.map(c => award_data.array(c) !== award_data.array(c))`);
    expect(r.value).toEqual(COLUMNS.map(() => true));
  });

  test('filtered, ordered and derived tables agree with the per-row path', async () => {
    const tables = [
      'award_data',
      "award_data.filter(d => d['Award Amount'] > 100000)",
      "award_data.orderby(aq.desc('Award Amount'), 'Agency')",
      "award_data.filter(d => d.Agency !== 'NSF').orderby('Award Title')",
      "award_data.select('Abstract', 'Agency').slice(2, 6)",
      "award_data.groupby('Agency').filter(d => d['Award Year'] > 2019)",
    ];
    for (const t of tables) {
      const code = `{ const t = ${t}; ${JSON.stringify(COLUMNS)}.filter(c => t.columnNames().includes(c)).map(c => JSON.stringify(t.array(c)) === JSON.stringify([...t.values(c)]) && JSON.stringify(t.array(c)) === JSON.stringify(t.objects().map(o => o[c]))) }`;
      const r = await h.run(code);
      expect(r.ok, t).toBe(true);
      expect((r.value as boolean[]).every(Boolean), `${t}: ${JSON.stringify(r.value)}`).toBe(true);
    }
  });

  test('typed-array constructors and unknown columns keep Arquero behaviour', async () => {
    expect((await h.run("Array.from(award_data.array('Award Year', Float64Array))")).value).toEqual([
      2019, 2020, 2019, 2021, 2022, 2020, 2021, 2023,
    ]);
    const bad = await h.run("award_data.array('Nope')");
    expect(bad.ok).toBe(false);
  });
});

describe('long text past the cache budget', () => {
  const n = 10_000;
  const values = Array.from({ length: n }, (_, i) =>
    i % 11 === 0 ? null : i % 13 === 0 ? '' : `row ${i} ü😀\r\n${'x'.repeat(i % 97)}`,
  );
  const table = columnar('award_data', {
    T: utf8(values),
    K: dict(values.map((_, i) => (i % 2 ? 'odd' : 'even'))),
    N: f64(values.map((_, i) => i)),
  });
  const code =
    "{ const a = award_data.array('T'); let s = 0; for (const x of a) if (x) s += x.length; [s, a[0], a[4095], a[4096], a[9999], award_data.get('T', 8191), award_data.filter(d => op.includes(d.T, '99')).numRows()] }";

  test('a tiny budget evicts pages and fetches them again with identical values', async () => {
    const whole = createHarness({ tables: [table] });
    const tiny = createHarness({ tables: [table], textPages: true, memoryLimitMb: 0.05 });
    try {
      const expected = (await whole.run(code)).raw;
      for (let i = 0; i < 3; i++) expect((await tiny.run(code)).raw).toBe(expected);
      const fetches = tiny.fetched.filter((f) => f.startsWith('award_data/T{'));
      // three pages, each read by three passes per run: far more fetches than pages; the one row
      // `get` reads of a page the cache no longer holds is read as its window of 128 rows
      expect(fetches.length).toBeGreaterThan(9);
      expect(new Set(fetches)).toEqual(
        new Set([
          'award_data/T{0:4096}',
          'award_data/T{4096:8192}',
          'award_data/T{8192:10000}',
          'award_data/T{8064:8192}',
        ]),
      );
    } finally {
      whole.dispose();
      tiny.dispose();
    }
  });

  test('within the budget, a second run reads cached pages: nothing is fetched again', async () => {
    const roomy = createHarness({ tables: [table], textPages: true, memoryLimitMb: 256 });
    try {
      const first = (await roomy.run(code)).raw;
      const fetched = roomy.fetched.length;
      expect(fetched).toBe(3);
      expect((await roomy.run(code)).raw).toBe(first);
      expect(roomy.fetched.length).toBe(fetched);
    } finally {
      roomy.dispose();
    }
  });

  test('a few rows of pages no run read are fetched as their windows of 128 rows; a pass in order, or a 17th window, reads pages', async () => {
    const sparse =
      "[award_data.get('T', 9000), award_data.get('T', 130), award_data.orderby(aq.desc('N')).slice(0, 3).objects().map((r) => r.T), award_data.filter((d) => d.N === 5000 || d.N === 7).array('T')]";
    const want = [values[9000], values[130], [values[9999], values[9998], values[9997]], [values[7], values[5000]]];
    const h = createHarness({ tables: [table], textPages: true, memoryLimitMb: 256 });
    try {
      expect((await h.run(sparse)).value).toEqual(want);
      expect(h.fetched.filter((f) => f.startsWith('award_data/T{'))).toEqual([
        'award_data/T{8960:9088}',
        'award_data/T{128:256}',
        'award_data/T{9984:10000}',
        'award_data/T{0:128}',
        'award_data/T{4992:5120}',
      ]);
      // a few rows in order (the first rows of a filtered table): a window each, even the next one
      expect(
        (await h.run("[award_data.get('T', 4200), award_data.get('T', 4330), award_data.get('T', 4500)]")).value,
      ).toEqual([values[4200], values[4330], values[4500]]);
      expect(h.fetched.slice(-3)).toEqual([
        'award_data/T{4096:4224}',
        'award_data/T{4224:4352}',
        'award_data/T{4480:4608}',
      ]);
      // a pass in order reads most rows of a window: the window after it reads the page
      const pass = "let n = 0; for (let i = 4608; i < 4800; i++) n += (award_data.get('T', i) ?? '').length; n";
      const passLength = values.slice(4608, 4800).reduce((a, v) => a + (v ?? '').length, 0);
      expect((await h.run(pass)).value).toBe(passLength);
      expect(h.fetched.slice(-2)).toEqual(['award_data/T{4608:4736}', 'award_data/T{4096:8192}']);
      // 16 windows a column, then pages (rows 300, 600, ... of page 0, which no run has read)
      const rows = Array.from({ length: 12 }, (_, k) => 300 + k * 300);
      expect((await h.run(`[${rows.map((r) => `award_data.get('T', ${r})`).join(', ')}]`)).value).toEqual(
        rows.map((r) => values[r]),
      );
      // the 9 windows so far, page 1, 7 more windows, then page 0 once (its last five rows read from it)
      expect(h.fetched.filter((f) => f.startsWith('award_data/T{')).length).toBe(9 + 1 + 7 + 1);
      expect(h.fetched.at(-1)).toBe('award_data/T{0:4096}');
    } finally {
      h.dispose();
    }
  });
});
