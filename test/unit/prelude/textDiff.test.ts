// Differential: text decoded natively by the host and cached in the session (bridge.fetchTextPage)
// against the in-isolate JavaScript decoder, paged (fetchColumnRange) and whole (fetchColumn), on
// random tables: nulls, empty tables, one row, unicode (multi-byte, surrogate pairs, CRLF), empty
// strings. Every way of reading a column must give the same answer in the same order.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import type { ColumnarTable } from '../../../schema/columnar.js';
import { createHarness, type Harness } from './harness.js';
import { columnar, dict, f64, utf8 } from './fixture.js';

/** Guest programs reading the text column T (and K, N) every way a model does. */
const CODES = [
  "award_data.array('T')",
  "{ const out = []; for (const x of award_data.array('T')) out.push(x == null ? null : x.length); out }",
  "{ const out = []; for (let i = 0; i < award_data.numRows(); i++) out.push(award_data.get('T', i)); out }",
  "[...award_data.values('T')]",
  "award_data.filter(d => contains(d.T, 'q', { case: false })).array('T')",
  "award_data.filter(d => contains(d.T, '^[a-z]')).array('N')",
  "award_data.filter(d => op.startswith(d.T, 'Q') || op.endswith(d.T, 'b')).array('T')",
  "award_data.filter(d => op.match(d.T, /ü|😀|\\r\\n/) != null).array('T')",
  "award_data.filter(d => op.includes(d.T, 'a') && op.length(d.T) > 2).numRows()",
  "award_data.filter(d => op.lower(d.T) === 'quantum').numRows()",
  "award_data.derive({ L: d => op.length(d.T), U: d => op.upper(d.T) }).array('U')",
  "award_data.orderby('K', 'N').array('T')",
  "award_data.filter(d => d.N > 0).orderby(aq.desc('N')).array('T')",
  "award_data.filter(d => d.N > 0).array('K').concat(award_data.orderby('T').array('N'))",
  "award_data.groupby('T').count().orderby('T').objects()",
  'award_data.objects()',
  'describeData().columns',
  "{ const a = award_data.array('T'); a.reverse(); a[0] = 'changed'; const k = award_data.array('K'); k.sort(); k.push('x'); [award_data.array('T'), award_data.array('K'), award_data.get('T', 0)] }",
];

const text = fc.option(
  fc.oneof(
    fc.string({ unit: 'grapheme', maxLength: 12 }),
    fc.string({ unit: 'binary', maxLength: 12 }),
    fc.constantFrom('', 'a\r\nb', 'Quantum', 'quantum', '😀', 'ü', 'line\nbreak', 'q', 'ab', '\u{1D518}x'),
  ),
  { nil: null, freq: 5 },
);
const key = fc.option(fc.constantFrom('DOD', 'NASA', 'ü', ''), { nil: null, freq: 5 });
const num = fc.option(fc.oneof(fc.integer({ min: -5, max: 5 }), fc.double({ noNaN: true, min: -10, max: 10 })), {
  nil: null,
  freq: 5,
});

const table = fc.array(fc.tuple(text, key, num), { maxLength: 40 }).map((rows) =>
  columnar('award_data', {
    T: utf8(rows.map((r) => r[0])),
    K: dict(rows.map((r) => r[1])),
    N: f64(rows.map((r) => r[2])),
  }),
);

/** Raw outcomes of every code, in one fresh session per mode. */
async function answers(
  t: ColumnarTable,
  mode: 'whole' | 'paged' | 'text',
  codes: readonly string[],
): Promise<string[]> {
  const h: Harness = createHarness({
    tables: [t],
    paged: mode === 'paged',
    textPages: mode === 'text',
    memoryLimitMb: 256,
  });
  try {
    const out: string[] = [];
    for (const code of codes) out.push((await h.run(code)).raw);
    // each mode really took its own path: T whole, in raw pages [a:b], or decoded by the host {a:b}
    const reads = h.fetched.filter((f) => f.startsWith('award_data/T'));
    // (describeData() hashes raw bytes, so in text mode it reads raw pages [a:b] too)
    const shape = {
      whole: /^award_data\/T$/,
      paged: /^award_data\/T\[\d+:\d+\]$/,
      text: /^award_data\/T(\{\d+:\d+\}|\[\d+:\d+\])$/,
    }[mode];
    if (t.numRows > 0) expect(reads.filter((f) => mode !== 'text' || f.includes('{')).length).toBeGreaterThan(0);
    for (const f of reads) expect(f).toMatch(shape);
    return out;
  } finally {
    h.dispose();
  }
}

describe('text decoded by the host == text decoded in the isolate', () => {
  test('random tables, every way of reading a column', async () => {
    await fc.assert(
      fc.asyncProperty(table, async (t) => {
        const [whole, paged, text] = await Promise.all([
          answers(t, 'whole', CODES),
          answers(t, 'paged', CODES),
          answers(t, 'text', CODES),
        ]);
        for (let i = 0; i < CODES.length; i++) {
          expect(text[i], CODES[i]).toBe(whole[i]);
          expect(paged[i], CODES[i]).toBe(whole[i]);
        }
      }),
      {
        numRuns: 25,
        examples: [
          [columnar('award_data', { T: utf8([]), K: dict([]), N: f64([]) })],
          [columnar('award_data', { T: utf8([null]), K: dict([null]), N: f64([null]) })],
        ],
      },
    );
  }, 240_000);

  test('the answers are the values themselves (not only the same across modes)', async () => {
    const values = ['', null, 'a\r\nb', 'Café ü', '😀 𝔘', 'x'];
    const t = columnar('award_data', {
      T: utf8(values),
      K: dict(values.map(() => 'k')),
      N: f64(values.map((_, i) => i)),
    });
    const [arr, lengths] = (await answers(t, 'text', CODES.slice(0, 2))).map((raw) => JSON.parse(raw).value);
    expect(arr).toEqual(values);
    expect(lengths).toEqual(values.map((v) => (v == null ? null : v.length)));
  });
});
