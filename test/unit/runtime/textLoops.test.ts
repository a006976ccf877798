// The first run over a long text column, in the styles models write: a loop over `array(col)`, rows
// from `select(col).objects()`, an Arquero filter and the Series. Isolated-vm serves the pages with the
// next one read ahead (textPageServer.ts) and answers null and equality tests (`d.X == null`,
// `d.X === 'N/A'`, `isna()`, `eq('N/A')`) on the host without decoding a row; QuickJS tests the
// decoded rows. Every answer must equal the one computed here in Node, on the first run and on a
// warm one (pages held in the session), with nulls, empty rows, 'N/A', non-ASCII and surrogate pairs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, type Sandbox } from '../../../src/index.js';

const ROWS = 24_000; // six pages of 4,096 rows, ~29 MB of text
const SPECIAL = ['N/A', '', 'café “quoted”', '😀 pair 𝔘', 'n/a', 'N/A ', '\uFFFD'];
function textOf(i: number): string | null {
  if (i % 17 === 0) return null;
  if (i % 11 === 0) return SPECIAL[(i / 11) % SPECIAL.length]!;
  return `${i} ${i % 5 ? 'plain text' : 'machine learning'} ${'lorem ipsum dolor '.repeat(70 + (i % 9))}`;
}
const values = Array.from({ length: ROWS }, (_, i) => textOf(i));
const count = (f: (v: string | null) => boolean) => values.filter(f).length;
const missing = count((v) => v == null || v === 'N/A');

const PROGRAMS: Array<[string, string, unknown]> = [
  ['array loop', "docs.array('body').filter(a => a == null || a === 'N/A').length", missing],
  ['objects', "docs.select('body').objects().filter(r => r.body == null || r.body === 'N/A').length", missing],
  ['filter ||', "docs.filter(d => d.body == null || d.body === 'N/A').numRows()", missing],
  ['filter !=, !==', "docs.filter(d => d.body != null && d.body !== 'N/A').numRows()", ROWS - missing],
  ['filter, literal first', "docs.filter(d => 'N/A' == d.body).numRows()", count((v) => v === 'N/A')],
  [
    'filter, non-ASCII literal',
    "docs.filter(d => d.body === 'café “quoted”').numRows()",
    count((v) => v === 'café “quoted”'),
  ],
  ['filter, empty string', "docs.filter(d => d.body === '').numRows()", count((v) => v === '')],
  ['filter, U+FFFD', "docs.filter(d => d.body === '\\uFFFD').numRows()", count((v) => v === '\uFFFD')],
  ['filter === null', 'docs.filter(d => d.body === null).numRows()', count((v) => v === null)],
  [
    'filter, truth value',
    '[docs.filter(d => d.body).numRows(), docs.filter(d => !d.body).numRows()]',
    [count((v) => !!v), count((v) => !v)],
  ],
  [
    'filter, truth value and includes',
    "docs.filter(d => d.body && op.includes(d.body, 'machine learning')).numRows()",
    count((v) => !!v && v.includes('machine learning')),
  ],
  ['series isna + eq', "docs['body'].isna().sum() + docs['body'].eq('N/A').sum()", missing],
  [
    'series notna, ne',
    "[docs['body'].notna().sum(), docs['body'].ne('N/A').sum(), docs['body'].eq('😀 pair 𝔘').sum()]",
    [count((v) => v !== null), count((v) => v !== 'N/A'), count((v) => v === '😀 pair 𝔘')],
  ],
  [
    'array length loop',
    "let t = 0, n = 0; for (const a of docs.array('body')) if (a && a.length >= 100) { t += a.length; n++; } [t, n]",
    (() => {
      const long = values.filter((v): v is string => v !== null && v.length >= 100);
      return [long.reduce((a, v) => a + v.length, 0), long.length];
    })(),
  ],
  [
    'objects includes',
    "docs.select('body').objects().filter(r => r.body && r.body.includes('machine learning')).length",
    count((v) => !!v && v.includes('machine learning')),
  ],
];

const engines = [
  ['isolated-vm', {}],
  ['quickjs', { engine: 'quickjs' as const }],
] as const;
const rows = values.map((body, id) => ({ id, body }));

describe.each(engines)('%s', (_name, opts) => {
  let box: Sandbox;
  beforeAll(async () => {
    box = await createSandbox({ awardData: false, tables: { docs: rows }, timeoutMs: 120_000, ...opts });
  }, 120_000);
  afterAll(async () => box?.close());

  it.each(PROGRAMS)(
    '%s: the same answer on a fresh session and warm',
    async (_label, code, want) => {
      // isolated-vm: a fresh session per program, whose first run is the first touch of the column
      // (QuickJS reads the same rows either way, and slowly: its shared session only)
      if (_name === 'isolated-vm') {
        const fresh = await createSandbox({ awardData: false, tables: { docs: rows }, timeoutMs: 120_000, ...opts });
        try {
          const first = await fresh.run(code);
          expect(first.error).toBeUndefined();
          expect(first.value).toEqual(want);
        } finally {
          await fresh.close();
        }
      }
      // the shared session: pages held from earlier programs are tested in the guest
      const warm = await box.run(code);
      expect(warm.error).toBeUndefined();
      expect(warm.value).toEqual(want);
    },
    120_000,
  );
});

describe('isolated-vm answers null and equality tests of long text on the host', () => {
  it('no page of the column is decoded into the isolate for them', async () => {
    const box = await createSandbox({ awardData: false, tables: { docs: rows }, timeoutMs: 120_000 });
    try {
      for (const code of [
        "docs.filter(d => d.body == null || d.body === 'N/A').numRows()",
        "docs['body'].isna().sum() + docs['body'].eq('N/A').sum()",
        "docs.filter(d => !d.body).numRows() + docs.filter(d => d.body === 'N/A').numRows() - docs.filter(d => d.body === '').numRows()",
        // a chain on the column's array or on objects() rows (prelude/fast/textClasses.ts)
        "docs.array('body').filter(a => a == null || a === 'N/A').length",
        "docs.select('body').objects().filter(r => r.body == null || r.body === 'N/A').length",
        "docs.objects().some(r => r.body === 'absent') ? -1 : docs.objects().filter(r => !r.body || 'N/A' == r.body).length - docs.objects().filter(r => r.body === '').length",
        "docs.array('body').filter(a => !a).length + docs.array('body').filter(a => 'N/A' == a).length - docs.array('body').filter(a => a === '').length",
      ]) {
        const r = await box.run(code);
        expect(r.value).toBe(missing);
        // ~29 MB of text would be held in the session's cache had the rows been decoded
        expect(r.stats.heapUsedMb).toBeLessThan(12);
      }
      const all = await box.run("docs.array('body').length");
      expect(all.value).toBe(ROWS);
      expect(all.stats.heapUsedMb).toBeGreaterThan(22);
    } finally {
      await box.close();
    }
  }, 120_000);
});
