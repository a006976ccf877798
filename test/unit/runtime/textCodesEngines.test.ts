// A group-by, value_counts(), unique() or mode() of a long-text column: isolated-vm reads the
// column as dictionary codes the host builds from its UTF-8 bytes (bridge.textCodes,
// src/data/columns/textDistinct.ts textCodes; prelude/data/lazyColumn.ts hostCodes), QuickJS
// reads the strings. Each answer must be the one Arquero's and the prelude's string paths give
// over a plain table of the same values (built in the same run from `docs.array`), in the same
// order (first appearance, count ties, pandas' sorted keys), with nulls, empty strings, Latin-1
// and astral text and invalid UTF-8 that decodes to the same string as valid text; on the first
// run, and again once the session holds the codes; whole, filtered and ordered tables.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ColumnarTable } from '../../../schema/columnar.js';
import { textPage } from '../../../src/data/columns/textPage.js';
import { createSandbox, type Sandbox } from '../../../src/index.js';

const ROWS = 9_000; // three pages of 4,096 rows
const enc = new TextEncoder();
const SPECIAL: Uint8Array[] = [
  enc.encode('café'),
  Uint8Array.of(0x63, 0x61, 0x66, 0xc3), // 'caf\uFFFD'
  Uint8Array.of(0x7a, 0x71, 0xfe), // 'zq\uFFFD'
  Uint8Array.of(0x7a, 0x71, 0xff), // the same string
  enc.encode('zq\uFFFD'), // and again, from valid bytes
  enc.encode('😀 𝔘'),
  enc.encode(''),
  enc.encode('\uFEFFbom'),
  Uint8Array.of(0xed, 0xa0, 0x80), // an encoded surrogate: three U+FFFD
  enc.encode('Ä'),
  enc.encode('"quoted"'),
];
function rowOf(i: number): Uint8Array | null {
  if (i % 13 === 0) return null;
  if (i % 7 === 0) return SPECIAL[i % SPECIAL.length]!;
  // ~2,000 values, some on one row only, so counts tie
  return enc.encode(`Company ${(i * 7919) % (i % 5 === 0 ? 4001 : 1999)}`);
}
const rows = Array.from({ length: ROWS }, (_, i) => rowOf(i));
const offsets = new Int32Array(ROWS + 1);
rows.forEach((r, i) => (offsets[i + 1] = offsets[i]! + (r?.length ?? 0)));
const bytes = new Uint8Array(offsets[ROWS]!);
rows.forEach((r, i) => r && bytes.set(r, offsets[i]!));
const body = {
  kind: 'utf8' as const,
  type: 'string' as const,
  bytes,
  offsets,
  valid: Uint8Array.from(rows, (r) => (r ? 1 : 0)),
};
const table = (): ColumnarTable => ({
  name: 'docs',
  numRows: ROWS,
  columns: [
    {
      name: 'id',
      type: 'integer',
      kind: 'float64',
      data: {
        kind: 'float64',
        type: 'integer',
        values: Float64Array.from({ length: ROWS }, (_, i) => i),
        valid: new Uint8Array(ROWS).fill(1),
      },
    },
    {
      name: 'body',
      type: 'string',
      kind: 'utf8',
      data: { ...body, bytes: bytes.slice(), offsets: offsets.slice(), valid: body.valid.slice() },
    },
    {
      name: 'word',
      type: 'string',
      kind: 'utf8',
      data: {
        kind: 'utf8',
        type: 'string',
        bytes: wordBytes.slice(),
        offsets: wordOffsets.slice(),
        valid: Uint8Array.from(wordRows, (r) => (r ? 1 : 0)),
      },
    },
  ],
});
/** A second long-text column with no character outside the BMP: the host ranks its entries too. */
const WORDS = ['zeta', 'Äpfel', 'apple', '', 'apple pie', 'ß', '\uFFFD', 'Zulu', 'a\u0800'];
function wordOf(i: number): Uint8Array | null {
  if (i % 11 === 0) return null;
  return enc.encode(i % 3 === 0 ? WORDS[i % WORDS.length]! : `w${(i * 31) % 1499}`);
}
const wordRows = Array.from({ length: ROWS }, (_, i) => wordOf(i));
const wordOffsets = new Int32Array(ROWS + 1);
wordRows.forEach((r, i) => (wordOffsets[i + 1] = wordOffsets[i]! + (r?.length ?? 0)));
const wordBytes = new Uint8Array(wordOffsets[ROWS]!);
wordRows.forEach((r, i) => r && wordBytes.set(r, wordOffsets[i]!));
const decoded = textPage(body, 0, ROWS).rows;
/** unique() as pandas gives it: first appearance, null once where first met. */
const UNIQUE = [...new Set(decoded)];

const engines = [
  ['isolated-vm', {}],
  ['quickjs', { engine: 'quickjs' as const }],
] as const;
const boxes = new Map<string, Sandbox>();
beforeAll(async () => {
  for (const [name, opts] of engines)
    boxes.set(name, await createSandbox({ awardData: false, tables: { docs: table() }, timeoutMs: 60_000, ...opts }));
}, 120_000);
afterAll(async () => {
  for (const b of boxes.values()) await b.close();
});

/**
 * Each question on the host table `docs` and on `P`, a plain Arquero table of the same values
 * (the string paths): per question [its name, the two answers' JSON equal, the answer's length].
 */
const QUESTIONS = `
const P = aq.table({ id: docs.array('id'), body: docs.array('body'), word: docs.array('word') });
const odd = (t) => t.filter((d) => d.id % 3 !== 0);
const qs = {
  unique: (t) => t.body.unique(),
  vc: (t) => t.body.value_counts().objects(),
  vcAll: (t) => t.body.value_counts({ dropna: false, normalize: true }).objects(),
  vcAsc: (t) => t.body.value_counts({ ascending: true }).objects(),
  vcFrame: (t) => value_counts(t, 'body').objects(),
  mode: (t) => t.body.mode(),
  count: (t) => t.groupby('body').count().objects(),
  rollup: (t) => t.groupby('body').rollup({ n: op.count(), s: op.sum('id'), d: op.distinct('id'), m: op.min('id') }).objects(),
  twoKeys: (t) => t.derive({ k: (d) => d.id % 2 }).groupby('k', 'body').count().objects(),
  agg: (t) => t.groupby('body').agg({ id: ['sum', 'count', 'size'] }).objects(),
  aggAll: (t) => t.groupby('body').agg({ id: 'sum' }, { dropna: false }).objects(),
  aggUnsorted: (t) => t.groupby('body').agg({ id: 'max' }, { sort: false }).objects(),
  size: (t) => t.groupby('body').size().objects(),
  filteredUnique: (t) => odd(t).body.unique(),
  filteredNunique: (t) => [odd(t).body.nunique(), odd(t).body.nunique({ dropna: false })],
  filteredCount: (t) => odd(t).groupby('body').count().objects(),
  filteredDistinct: (t) => odd(t).rollup({ d: op.distinct('body') }).objects(),
  groupedDistinct: (t) => t.derive({ k: (d) => d.id % 4 }).groupby('k').rollup({ d: op.distinct('body') }).objects(),
  orderedUnique: (t) => t.orderby(aq.desc('id')).body.unique(),
  orderedNunique: (t) => [t.orderby(aq.desc('id')).body.nunique(), t.orderby('id').body.nunique({ dropna: false })],
  orderedCounts: (t) => t.orderby(aq.desc('id')).body.value_counts().objects(),
  wordAgg: (t) => t.groupby('word').agg({ id: ['sum', 'first'] }).objects(),
  wordAggAll: (t) => t.groupby('word').agg({ id: 'count' }, { dropna: false }).objects(),
  wordSize: (t) => odd(t).groupby('word').size().objects(),
  wordCounts: (t) => t.word.value_counts({ sort: false }).objects(),
  rowRead: (t) => [t.get('body', 7), t.get('body', 13), t.get('body', ${ROWS - 1}), t.slice(0, 30).objects()],
};
Object.entries(qs).map(([name, q]) => {
  const a = JSON.stringify(q(docs));
  const b = JSON.stringify(q(P));
  return [name, a === b, a.length, a === b ? '' : a.slice(0, 300) + ' | ' + b.slice(0, 300)];
});
`;

describe.each(engines.map(([n]) => n))('%s', (engine) => {
  for (const pass of ['first run', 'again, the codes held']) {
    it(`every question answers as the string paths do (${pass})`, async () => {
      const r = await boxes.get(engine)!.run(QUESTIONS);
      expect(r.error).toBeUndefined();
      const got = r.value as [string, boolean, number, string][];
      expect(got.length).toBe(26);
      for (const [name, same, length, diff] of got) {
        expect({ name, same, diff }).toEqual({ name, same: true, diff: '' });
        expect(length).toBeGreaterThan(2);
      }
    }, 60_000);
  }

  it('unique() is the decoded strings in order of first appearance, null where first met', async () => {
    const r = await boxes.get(engine)!.run('docs.body.unique()');
    expect(r.error).toBeUndefined();
    expect(r.value).toEqual(UNIQUE);
  }, 60_000);
});

it('the answers hold what they are meant to: invalid bytes merged with valid text, an empty string, null', () => {
  expect(UNIQUE).toContain('');
  expect(UNIQUE).toContain(null);
  expect(UNIQUE).toContain('zq\uFFFD');
  expect(decoded.filter((v) => v === 'zq\uFFFD').length).toBeGreaterThan(
    decoded.filter((v, i) => i % 7 === 0 && i % 13 !== 0 && i % SPECIAL.length === 4).length,
  );
});

it('the column is long text (utf8), not a dictionary: the host codes are what the isolated-vm runs test', async () => {
  const r = await boxes.get('isolated-vm')!.run("docs.column('body').kind");
  expect(r.value).toBe('utf8');
});

it('codes that do not fit the isolate end the run as MEMORY_LIMIT naming the setting, and the session goes on', async () => {
  const n = 3_000_000;
  const offsets = new Int32Array(n + 1);
  const parts = Array.from({ length: n }, (_, i) => enc.encode(`v${i}`));
  parts.forEach((p, i) => (offsets[i + 1] = offsets[i]! + p.length));
  const all = new Uint8Array(offsets[n]!);
  parts.forEach((p, i) => all.set(p, offsets[i]!));
  const big: ColumnarTable = {
    name: 'big',
    numRows: n,
    columns: [
      {
        name: 'body',
        type: 'string',
        kind: 'utf8',
        data: { kind: 'utf8', type: 'string', bytes: all, offsets, valid: new Uint8Array(n).fill(1) },
      },
    ],
  };
  const box = await createSandbox({ awardData: false, tables: { big }, memoryLimitMb: 32, timeoutMs: 60_000 });
  try {
    const r = await box.run("big.groupby('body').count().numRows()");
    expect(r.error?.type).toBe('MEMORY_LIMIT');
    expect(r.error?.hint).toContain('memoryLimitMb');
    const again = await box.run('big.body.nunique()');
    expect(again.value).toBe(n);
  } finally {
    await box.close();
  }
}, 120_000);
