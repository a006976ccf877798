// Differential: filters whose closure reads long text, numbers, dates or codes, evaluated over the
// columns' arrays (closure/columnScan.ts for closures, the text-page chunks of fast/predicate.ts for
// Arquero-compiled predicates), against the row-by-row view path: the same closure called as
// `d => fn(d)` (the row passed on whole, so neither scan applies). On random tables with nulls,
// NaN, -0, dates before 1970, unicode text (surrogate pairs, CRLF), empty and one-row tables and
// tables of several 4,096-row text pages, unfiltered and after filters: same rows, same order,
// same side effects (what the closure saw, in order), same first error.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import type { ColumnarTable } from '../../../../schema/columnar.js';
import { createHarness } from '../harness.js';
import { columnar, dict, f64, utf8 } from '../fixture.js';

const SEED = Number(process.env.FAST_CHECK_SEED ?? 20261123);

/** Closures as a model writes them (T long text, K codes, N numbers with NaN/-0, D dates). */
const CLOSURES = [
  'd => d.T != null && d.T.length > 3',
  "d => d.T && d.T.toLowerCase().includes('q')",
  '({ T }) => T != null && /ü|😀|\\r\\n/.test(T)',
  'd => re.test(d.T)', // a shared /g regex: its lastIndex moves from row to row
  'd => d.N > lim && d.K === "DOD"',
  "d => d['N'] !== d['N'] || Object.is(d.N, -0)",
  'd => d.D != null && d.D.getUTCFullYear() < 1970',
  'd => (seen.push([d.K, d.N]), d.N >= 0)', // side effects, in row order
  "d => { if (d.T === 'boom') JSON.parse('boom at ' + d.N); return d.K != null; }", // throws at the first 'boom' row
  "d => words.some((w) => (d.T || '').includes(w)) && d?.N !== 1",
  '(d, $) => [$ && $.want].includes(d.K)',
  'd => op.includes(d.T, "a") && op.length(d.T) > 2',
];

/** Arquero-compiled predicates over text (fast/predicate.ts), compared with the same op calls in a closure. */
const COMPILED = [
  "d => op.includes(d.T, 'a') && op.length(d.T) > 2",
  'd => op.length(d.T) > 4 || d.N > 0',
  "d => !op.startswith(d.T, 'Q')",
  'd => d.T != null && d.T.length >= 2',
  "d => op.match(d.T, /ü|😀|\\r\\n/) != null && d.K == 'DOD'",
  // text search && cheap test: the cheap side may run first (fast/cheapFirst.ts) ...
  'd => op.match(d.T, /a/) != null && op.length(d.T) > 2 && d.N >= 0',
  "d => op.lower(d.T) === 'qa' && d.N !== 1",
  // ... but never a side that can throw (d.T.length on a null row: only rows with an 'a' reach it)
  "d => op.includes(d.T, 'a') && d.T.length > 2",
  "d => op.includes(d.T, 'a') && op.parse_int(d.T) > 0",
];

/** Every table is asked unfiltered, after a filter on codes, and after a filter keeping few rows. */
const SOURCES = [
  'award_data',
  "award_data.filter(d => d.K !== 'NASA')",
  'award_data.filter(d => d.N > 4)',
  "award_data.params({ want: 'DOD' })",
];

const GUEST = `
var __ser = (v) => v === undefined ? 'u' : v === null ? 'n' : typeof v === 'number' ? (Object.is(v, -0) ? '-0' : String(v))
  : v instanceof Date ? 'D' + v.getTime() : Array.isArray(v) ? '[' + v.map(__ser).join(',') + ']' : typeof v + ':' + JSON.stringify(v);
// the kept rows, by index and count (both results are selections over the same columns)
var __dump = (x) => x.numRows() + ' rows: ' + Array.from(x.indices()).join(',') + ' first: ' + __ser(x.numRows() ? x.columnNames().map((c) => x.get(c, 0)) : []);
var lim = 1, words = ['ab', 'ü'], seen = [], re = /a/g;
var __both = (src, fns) => fns.map((fn) => {
  const run = (f) => {
    seen = []; re.lastIndex = 0;
    let out;
    try { out = __dump(src().filter(f)); } catch (e) { out = 'ERR ' + e.name + ': ' + e.message; }
    return out + ' seen ' + __ser(seen) + ' re ' + re.lastIndex;
  };
  return [run(fn), run((d, $) => fn(d, $))];
}).map(([fast, plain], i) => (fast === plain ? null : [i, fast.slice(0, 400), plain.slice(0, 400)])).filter((x) => x);
true`;

const text = fc.option(
  fc.oneof(
    fc.string({ unit: 'grapheme', maxLength: 8 }),
    fc.constantFrom('', 'a\r\nb', 'Quantum', 'qa', '😀', 'ü', 'boom', 'ab', '\u{1D518}x', 'aaa'),
  ),
  { nil: null, freq: 5 },
);
const key = fc.option(fc.constantFrom('DOD', 'NASA', 'ü', ''), { nil: null, freq: 5 });
const num = fc.option(fc.oneof(fc.integer({ min: -5, max: 5 }), fc.constantFrom(Number.NaN, -0, 0, 1.5)), {
  nil: null,
  freq: 5,
});
const day = fc.option(
  fc.integer({ min: -20000, max: 20000 }).map((d) => d * 86400000),
  { nil: null, freq: 5 },
);
const rowArb = fc.tuple(text, key, num, day);

function build(rows: Array<[string | null, string | null, number | null, number | null]>): ColumnarTable {
  return columnar('award_data', {
    T: utf8(rows.map((r) => r[0])),
    K: dict(rows.map((r) => r[1])),
    N: f64(rows.map((r) => r[2])),
    D: f64(
      rows.map((r) => r[3]),
      'date',
    ),
  });
}

/** Small tables, plus tables of two to three text pages (rows repeated from a random sample). */
const tableArb = fc
  .oneof(
    { arbitrary: fc.array(rowArb, { maxLength: 40 }), weight: 3 },
    {
      arbitrary: fc
        .tuple(fc.array(rowArb, { minLength: 1, maxLength: 50 }), fc.integer({ min: 4097, max: 9500 }))
        .map(([rs, n]) => Array.from({ length: n }, (_, i) => rs[(i * 7919) % rs.length])),
      weight: 1,
    },
  )
  .map(build);

async function differences(t: ColumnarTable, fns: readonly string[]): Promise<unknown[]> {
  const h = createHarness({ tables: [t], textPages: true, memoryLimitMb: 256, limits: { maxResultBytes: 8 << 20 } });
  try {
    const boot = await h.run(GUEST);
    if (!boot.ok) throw new Error(boot.error!.message);
    const out: unknown[] = [];
    for (const src of SOURCES) {
      const r = await h.run(`__both(() => ${src}, [${fns.join(',\n')}])`);
      if (!r.ok) throw new Error(`${r.error!.name}: ${r.error!.message}`);
      for (const [i, fast, plain] of r.value as Array<[number, string, string]>)
        out.push({ src, fn: fns[i], fast, plain });
    }
    if (out.length) console.error('first difference:', out[0]);
    return out.map((d) => `${(d as { fn: string }).fn} on ${(d as { src: string }).src}`);
  } finally {
    h.dispose();
  }
}

const EXAMPLES: ColumnarTable[] = [
  build([]),
  build([[null, null, null, null]]),
  build([['boom', 'DOD', -0, -86400000 * 400]]),
  build(
    Array.from({ length: 8200 }, (_, i) => [
      i % 5 ? `a${'😀'.repeat(i % 3)}\r\n${i}` : null,
      ['DOD', 'NASA', null][i % 3],
      [Number.NaN, -0, i, null][i % 4],
      i % 9 ? -i * 86400000 : null,
    ]),
  ),
];

describe('closures over column arrays == the row-by-row view', () => {
  test('edge tables: empty, one row, a throwing row, two text pages', async () => {
    const found: string[] = [];
    for (const [i, t] of EXAMPLES.entries())
      for (const d of await differences(t, [...CLOSURES, ...COMPILED])) found.push(`table ${i}: ${d}`);
    expect(found).toEqual([]);
  }, 120_000);

  test('random tables', async () => {
    await fc.assert(
      fc.asyncProperty(tableArb, async (t) => {
        expect(await differences(t, [...CLOSURES, ...COMPILED])).toEqual([]);
      }),
      { numRuns: 12, seed: SEED },
    );
  }, 300_000);
});
