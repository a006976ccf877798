// A CSV text column that may become a dictionary is coded as its cells are read (textCoder.ts), and
// written as text only when the coder gives up (past the dictionary's limit, or too few repeats in
// the first 65,536 values) or when the column ends over dictEncode's rule. Either way the column
// must be the one the text builder gave before: the text built in full, then dictEncode's column
// when within the rule (distinct <= non-null / 2, at most maxDict), else the text.
import { describe, expect, it } from 'vitest';
import { dictEncode } from '../../../src/data/columns/dictEncode.js';
import { IssueLog } from '../../../src/data/ingest/report.js';
import { ESCAPED, QUOTED } from '../../../src/data/ingest/scanner.js';
import { Utf8Builder } from '../../../src/data/ingest/utf8Builder.js';

/** A cell: its text as the file holds it (`""` pairs when escaped), or null for a missing cell. */
type Cell = { raw: string; escaped?: boolean } | null;

function feed(b: Utf8Builder, cells: Cell[]): void {
  for (const c of cells) {
    if (c === null) b.addNull();
    else {
      const buf = Buffer.from(`,${c.raw},`);
      b.add(buf, 1, buf.length - 1, c.escaped ? QUOTED | ESCAPED : 0);
    }
  }
}

/** The column as before: every cell's text, then dictEncode's rule on it. */
function expected(cells: Cell[], maxDict: number) {
  const text = new Utf8Builder('c', 'text', new IssueLog(), false, 'utf8', undefined, maxDict);
  feed(text, cells);
  const col = text.finish();
  if (col.kind !== 'utf8') throw new Error('a utf8 builder gave a dictionary');
  const nonNull = col.valid.reduce((n, v) => n + v, 0);
  return dictEncode(col, nonNull, maxDict) ?? col;
}

function coded(cells: Cell[], maxDict: number) {
  const b = new Utf8Builder('c', 'text', new IssueLog(), false, 'auto', undefined, maxDict);
  feed(b, cells);
  return b.finish();
}

/** A column's kind and each array's type and bytes (hex: quick to compare at 300,000 rows). */
function bytesOf(col: object): Record<string, string> {
  return Object.fromEntries(
    Object.entries(col).map(([k, v]) => [
      k,
      ArrayBuffer.isView(v)
        ? `${v.constructor.name} ${Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('hex')}`
        : String(v),
    ]),
  );
}

/** `n` cells of `value(i)`, a null or a blank now and then, a quoted cell with `""` pairs now and then. */
function cells(n: number, value: (i: number) => string, seed = 1): Cell[] {
  let h = seed;
  return Array.from({ length: n }, (_, i): Cell => {
    h = (Math.imul(h, 1103515245) + 12345) >>> 0;
    const r = h / 2 ** 32;
    if (r < 0.03) return null;
    if (r < 0.06) return { raw: r < 0.045 ? '' : '  ' };
    if (r < 0.1) return { raw: `q""${value(i)}""`, escaped: true };
    return { raw: value(i) };
  });
}

describe('a CSV text column coded as it is read', () => {
  it.each([
    ['two values', 5000, (i: number) => (i % 3 ? 'Phase I' : 'Phase II'), 2_097_152, 'dict'],
    ['half distinct: a dictionary', 4000, (i: number) => `c${i % 900}`, 2_097_152, 'dict'],
    ['more than half distinct: text', 4000, (i: number) => `c${i % 2500}`, 2_097_152, 'utf8'],
    ['past a small dictionary limit early: text', 4000, (i: number) => `c${i % 300}`, 50, 'utf8'],
    ['past the limit only at the end: text', 4000, (i: number) => (i < 3990 ? `c${i % 50}` : `late ${i}`), 50, 'utf8'],
    ['all distinct (given up at 65,536): text', 70_000, (i: number) => `abstract number ${i}`, 2_097_152, 'utf8'],
    [
      'repeating after 65,536 distinct: a dictionary',
      300_000,
      (i: number) => `v${(i * 7919) % 70_000}`,
      2_097_152,
      'dict',
    ],
  ])('%s', (_what, n, value, maxDict, kind) => {
    const input = cells(n, value, n);
    const col = coded(input, maxDict);
    expect(col.kind).toBe(kind);
    expect(bytesOf(col)).toEqual(bytesOf(expected(input, maxDict)));
  });

  it('two values of one FNV-1a hash get codes of their own', () => {
    // the pair of dictEncode.test.ts, found by search: the coder's table holds one hash for both
    const input = cells(3000, (i) => ['v332789', 'v529192', 'x'][i % 3]);
    const col = coded(input, 2_097_152);
    expect(col.kind).toBe('dict');
    expect(bytesOf(col)).toEqual(bytesOf(expected(input, 2_097_152)));
  });

  it('a column of nothing but nulls and blanks is the empty dictionary it was', () => {
    const input: Cell[] = [null, { raw: '' }, { raw: ' ' }, null];
    expect(bytesOf(coded(input, 2_097_152))).toEqual(bytesOf(expected(input, 2_097_152)));
  });
});
