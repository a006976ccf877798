// `op.length(d.X)` and `d.X.length` of long text in derive and filter expressions are answered by
// the host's UTF-16 counts (bridge.textScan `units`, prelude/fast/textUnits.ts) instead of decoding
// the rows in the isolate. The answers must be those of Arquero on a plain copy of the rows, for
// hostile bytes (surrogate pairs, invalid UTF-8, an encoded surrogate, a character split between
// two rows, nulls, empty rows) on whole, filtered, grouped and ordered tables, and the host path
// must really be the one taken (no text page fetched).
import { afterEach, describe, expect, test } from 'vitest';
import type { ColumnData, ColumnarTable } from '../../../../schema/columnar.js';
import { createHarness, type Harness } from '../harness.js';
import { columnar, dict, f64 } from '../fixture.js';
import { differentialHelpers, diffRuns, install } from './differentialRuns.js';

const ROWS = 9000; // three pages of 4,096 rows
const enc = new TextEncoder();
/** Hostile rows of pages 1 and 2 (page 0 is ASCII, so the host's ASCII path is taken too). */
const HOSTILE: Array<Uint8Array | null> = [
  enc.encode('😀 pair 𝔘'),
  enc.encode('café €'),
  Uint8Array.of(0xff),
  Uint8Array.of(0x61, 0xc3), // a truncated 2-byte sequence
  Uint8Array.of(0xf0, 0x9f, 0x98), // a truncated 4-byte sequence
  Uint8Array.of(0xed, 0xa0, 0x80), // an encoded surrogate
  Uint8Array.of(0xe2, 0x82), // the first bytes of €, the next row holds the last one
  Uint8Array.of(0xac, 0x61),
  null,
  enc.encode(''),
  enc.encode('\u{10FFFF}'),
  enc.encode('plain text of some length'),
];

function rawUtf8(rows: Array<Uint8Array | null>): ColumnData {
  const offsets = new Int32Array(rows.length + 1);
  rows.forEach((r, i) => (offsets[i + 1] = offsets[i]! + (r?.length ?? 0)));
  const bytes = new Uint8Array(offsets[rows.length]!);
  rows.forEach((r, i) => r && bytes.set(r, offsets[i]!));
  return { kind: 'utf8', type: 'string', bytes, offsets, valid: Uint8Array.from(rows, (r) => (r ? 1 : 0)) };
}

const TABLE: ColumnarTable = columnar('award_data', {
  T: rawUtf8(
    Array.from({ length: ROWS }, (_, i) =>
      i < 4096 ? (i % 17 === 0 ? null : enc.encode(`row ${i}`)) : HOSTILE[i % HOSTILE.length]!,
    ),
  ),
  K: dict(Array.from({ length: ROWS }, (_, i) => ['a', 'b', null][i % 3]!)),
  N: f64(Array.from({ length: ROWS }, (_, i) => (i % 11 === 0 ? null : i % 7 === 0 ? 0 : (i % 23) - 9.5))),
});

const EXPRS = [
  "(X) => X.derive({ n: (d) => op.length(d.T) }).array('n')",
  '(X) => X.derive({ n: (d) => d.T.length })',
  "(X) => X.filter((d) => d.T != null).derive({ n: (d) => d.T.length, m: (d) => d.T['length'] }).objects({ limit: 3000 })",
  '(X) => X.filter((d) => op.length(d.T) >= 3).numRows()',
  "(X) => X.filter((d) => d.T !== null && d.T.length > 2).array('T')",
  "(X) => X.derive({ n: (d) => op.length(d.T) * 2 + 1 }).filter((d) => d.n > 5).rollup({ m: op.mean('n'), s: op.sum('n'), c: op.count() })",
  "(X) => X.filter((d) => d.K === 'a').derive({ n: (d) => op.length(d.T) }).array('n')",
  "(X) => X.groupby('K').derive({ n: (d) => op.length(d.T) }).rollup({ m: op.max('n'), s: op.sum('n') }).orderby('K').objects()",
  "(X) => X.orderby(aq.desc('K')).derive({ n: (d) => op.length(d.T) }).slice(4000, 4100).array('n')",
  "(X) => X.filter((d) => op.length(d.T) === 2 || d.K == null).array('T')",
  // computed aggregate fields (fast/rollupField.ts)
  '(X) => X.rollup({ m: (d) => op.mean(op.length(d.T)), s: (d) => op.sum(op.length(d.T) * 2), c: op.count() })',
  "(X) => X.groupby('K').rollup({ m: (d) => op.max(op.length(d.T)), v: (d) => op.variance(op.length(d.T)), q: (d) => op.median(op.length(d.T)) }).orderby('K')",
  "(X) => X.filter((d) => d.K === 'a').rollup({ m: (d) => op.min(d.T.length) })",
  "(X) => X.filter((d) => d.T != null).groupby('K').rollup({ m: (d) => op.min(d.T.length), x: (d) => op.max(d.T.length - d.N) })",
  '(X) => X.rollup({ a: (d) => op.mean(op.length(d.T) / 0), b: (d) => op.sum(op.length(d.T) > 3 ? 1 : null), e: (d) => op.mean(d.N / d.N) })',
  "(X) => X.groupby('K').rollup({ a: (d) => op.sum(d.N * 2), c: (d) => op.stdev(d.N - 1), e: (d) => op.quantile(d.N + 0, 0.3), f: (d) => op.average(d.N ?? 5) }).orderby('K')",
  "(X) => X.orderby('N').rollup({ a: (d) => op.sum(d.N * 0.1), b: (d) => op.variancep(op.length(d.T) + d.N) })",
];

const DUMP = 'var __dump = (x) => JSON.stringify(x instanceof aq.ColumnTable ? x.objects() : x);';

let h: Harness | null = null;
afterEach(() => {
  h?.dispose();
  h = null;
});

describe('the length of long text from the host (units)', () => {
  test('same answers as Arquero on a plain copy, for hostile bytes, on whole, filtered, grouped and ordered tables', async () => {
    h = createHarness({ tables: [TABLE], textPages: true, textScan: true });
    await install(h, `${differentialHelpers(['award_data'], DUMP)}\nvar tables = { award_data }; true`);
    expect(await diffRuns(h, EXPRS)).toEqual([]);
  }, 120_000);

  test('op.length(d.T) in a derive, d.T.length in a filter and in a rollup read no text page: only the host counts', async () => {
    h = createHarness({ tables: [TABLE], textPages: true, textScan: true });
    const r = await h.run(
      "[award_data.derive({ n: (d) => op.length(d.T) }).rollup({ s: op.sum('n') }).get('s', 0), award_data.filter((d) => d.T != null && d.T.length > 3).numRows(), award_data.rollup({ s: (d) => op.sum(op.length(d.T)) }).get('s', 0)]",
    );
    expect(r.ok, r.error?.message).toBe(true);
    const rows = Array.from({ length: ROWS }, (_, i) =>
      i < 4096 ? (i % 17 === 0 ? null : `row ${i}`) : HOSTILE[i % HOSTILE.length],
    );
    const decoded = rows.map((x) =>
      x === null ? null : typeof x === 'string' ? x : new TextDecoder().decode(x as Uint8Array),
    );
    // the split character: each half decodes alone, as the host reads them
    expect(r.value).toEqual([
      decoded.reduce((a, x) => a + (x?.length ?? 0), 0),
      decoded.filter((x) => x !== null && x.length > 3).length,
      decoded.reduce((a, x) => a + (x?.length ?? 0), 0),
    ]);
    const text = h.fetched.filter((f) => f.startsWith('award_data/T'));
    expect(text.some((f) => f.includes('(units:'))).toBe(true);
    expect(text.filter((f) => !f.includes('(units:') && !f.includes('(len:'))).toEqual([]);
  }, 60_000);

  test('without the host scan the same expressions still answer (rows decoded in the isolate)', async () => {
    h = createHarness({ tables: [TABLE], textPages: true });
    await install(h, `${differentialHelpers(['award_data'], DUMP)}\nvar tables = { award_data }; true`);
    expect(await diffRuns(h, EXPRS.slice(0, 4))).toEqual([]);
    expect(h.fetched.some((f) => f.includes('(units:'))).toBe(false);
  }, 120_000);
});
