// nunique() of a long-text column: isolated-vm counts the distinct values on the host from the
// UTF-8 bytes (bridge.textScan `distinct`, src/data/columns/textDistinct.ts), QuickJS counts the
// decoded strings in the guest. Both must give the count of the strings as the isolate decodes them
// (computed here in Node, and by a Set over the column's array in the same run), with nulls, empty
// strings, Latin-1 and astral text, invalid UTF-8 that decodes to the same string as valid text,
// on the first run as on a run whose pages are held; a filtered table keeps the guest's count.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ColumnarTable } from '../../../schema/columnar.js';
import { textPage } from '../../../src/data/columns/textPage.js';
import { createSandbox, type Sandbox } from '../../../src/index.js';

const ROWS = 9_000; // three pages of 4,096 rows
const enc = new TextEncoder();
const SPECIAL: Uint8Array[] = [
  enc.encode('café'),
  Uint8Array.of(0x63, 0x61, 0x66, 0xc3), // 'caf' and a cut character: 'caf\uFFFD'
  Uint8Array.of(0x7a, 0x71, 0xfe), // 'zq\uFFFD'
  Uint8Array.of(0x7a, 0x71, 0xff), // the same string
  enc.encode('zq\uFFFD'), // and again, from valid bytes
  enc.encode('😀 𝔘'),
  enc.encode(''),
  enc.encode('\uFEFFbom'),
  Uint8Array.of(0xed, 0xa0, 0x80), // an encoded surrogate: three U+FFFD
];
function rowOf(i: number): Uint8Array | null {
  if (i % 13 === 0) return null;
  if (i % 7 === 0) return SPECIAL[i % SPECIAL.length]!;
  return enc.encode(`Company ${(i * 7919) % 2003}`);
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
  ],
});
const decoded = textPage(body, 0, ROWS).rows;
const present = decoded.filter((v): v is string => v !== null);
const DISTINCT = new Set(present).size;
const evenDistinct = new Set(decoded.filter((v, i): v is string => v !== null && i % 2 === 0)).size;

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

it('the expected count holds the cases it is meant to (invalid bytes merged with valid text)', () => {
  expect(present.length).toBeLessThan(ROWS);
  expect(present).toContain('');
  expect(new Set(present).has('zq\uFFFD')).toBe(true);
  expect(DISTINCT).toBe(2003 + SPECIAL.length - 2);
});

describe.each(engines.map(([n]) => n))('%s', (engine) => {
  const code = `[docs.body.nunique(), docs.body.nunique({ dropna: false }), docs.nunique('body'), docs.nunique('body', { dropna: false }), nunique(docs, 'body'), new Set(docs.array('body').filter((v) => v !== null)).size]`;
  it('nunique() counts the decoded strings, first run', async () => {
    const r = await boxes.get(engine)!.run(code);
    expect(r.error).toBeUndefined();
    expect(r.value).toEqual([DISTINCT, DISTINCT + 1, DISTINCT, DISTINCT + 1, DISTINCT, DISTINCT]);
  }, 60_000);

  it('the same once the session holds the pages, and a filtered table counts its own rows', async () => {
    const r = await boxes
      .get(engine)!
      .run(
        `${code}.concat([docs.filter((d) => d.id % 2 === 0).nunique('body'), docs.filter((d) => d.id % 2 === 0).body.nunique()])`,
      );
    expect(r.error).toBeUndefined();
    expect(r.value).toEqual([
      DISTINCT,
      DISTINCT + 1,
      DISTINCT,
      DISTINCT + 1,
      DISTINCT,
      DISTINCT,
      evenDistinct,
      evenDistinct,
    ]);
  }, 60_000);
});

describe.each(engines.map(([n]) => n))('%s rollup', (engine) => {
  it("rollup({ n: op.distinct('body') }) counts the strings and null once, as Arquero does", async () => {
    const r = await boxes
      .get(engine)!
      .run(
        "[docs.rollup({ n: op.distinct('body'), m: op.count() }).objects(), docs.rollup({ n: op.distinct('body'), v: op.valid('body') }).objects(), docs.filter((d) => d.id % 2 === 0).rollup({ n: op.distinct('body') }).get('n', 0), docs.derive({ odd: (d) => d.id % 2 }).groupby('odd').rollup({ n: op.distinct('body') }).array('n').reduce((a, b) => a + b, 0)]",
      );
    expect(r.error).toBeUndefined();
    const evenNull = decoded.some((v, i) => v === null && i % 2 === 0) ? 1 : 0;
    const oddPresent = new Set(decoded.filter((v, i): v is string => v !== null && i % 2 === 1)).size;
    const oddNull = decoded.some((v, i) => v === null && i % 2 === 1) ? 1 : 0;
    expect(r.value).toEqual([
      [{ n: DISTINCT + 1, m: ROWS }],
      [{ n: DISTINCT + 1, v: present.length }],
      evenDistinct + evenNull,
      evenDistinct + evenNull + oddPresent + oddNull,
    ]);
  }, 60_000);
});

it('the column is long text (utf8), not a dictionary: the host count is what the isolated-vm runs test', async () => {
  const r = await boxes.get('isolated-vm')!.run("docs.column('body').kind");
  expect(r.value).toBe('utf8');
});
