// An inferred CSV column keeps no text for a cell its value gives back (canonicalText.ts), so a
// column whose type fails late must write its earlier cells' text again from their values: the
// bytes as read, not the value's own text ('1.50' stays '1.50', '007' stays '007'). Checked
// against an oracle that keeps every cell's text (the Utf8Builder the column becomes) and parses
// every cell, cell kinds mixed at random, the failing cell early, late or last; read in two parts
// as well, where one part may be all numbers and the other text.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compactTable } from '../../../src/data/columns/compactTable.js';
import { isBlank } from '../../../src/data/ingest/blank.js';
import { canonicalBool, canonicalDate, canonicalNumber, dateText } from '../../../src/data/ingest/canonicalText.js';
import { ingestCsvInParts } from '../../../src/data/ingest/csvInParts.js';
import { InferBuilder } from '../../../src/data/ingest/inferBuilder.js';
import { ingestCsv } from '../../../src/data/ingest/ingestCsv.js';
import { parseDateBytes } from '../../../src/data/ingest/parseDate.js';
import { parseNumberBytes } from '../../../src/data/ingest/parseNumber.js';
import { IssueLog } from '../../../src/data/ingest/report.js';
import { ESCAPED, QUOTED } from '../../../src/data/ingest/scanner.js';
import { Utf8Builder } from '../../../src/data/ingest/utf8Builder.js';
import { tableDifference } from '../../helpers/sameTable.js';
import { tempDir } from './helpers.js';

const bytes = (s: string) => Buffer.from(s, 'latin1');
const numText = (s: string) => canonicalNumber(bytes(s), 0, s.length);

describe('canonicalNumber: a text that String() of its value gives back', () => {
  it('takes plain numbers and refuses every other spelling', () => {
    for (const s of ['0', '7', '-12', '65631.46', '-0.5', '0.000001', '100000000000000', '123456789.012345'])
      expect(numText(s), s).toBe(true);
    for (const s of [
      '1.50',
      '007',
      '+5',
      ' 5',
      '5 ',
      '1e3',
      '-0',
      '0.0',
      '3.',
      '.5',
      '0.0000001',
      '1234567890123456',
      '-',
      '',
    ])
      expect(numText(s), s).toBe(false);
  });

  it('String(value) is the text whenever it says so', () => {
    const digits = fc.stringMatching(/^-?(0|[1-9][0-9]{0,16})(\.[0-9]{1,12})?$/);
    fc.assert(
      fc.property(fc.oneof(digits, fc.double({ noNaN: true, noDefaultInfinity: true }).map(String)), (s) => {
        if (!numText(s)) return;
        expect(String(parseNumberBytes(bytes(s), 0, s.length, false))).toBe(s);
      }),
      { numRuns: 20000 },
    );
  });

  it('dates as YYYY-MM-DD and lower-case booleans only', () => {
    for (const s of ['2020-01-05', '0001-01-01', '9999-12-31', '1969-07-20']) {
      expect(canonicalDate(bytes(s), 0, s.length)).toBe(true);
      expect(dateText(parseDateBytes(bytes(s), 0, s.length))).toBe(s);
    }
    for (const s of ['1/5/2020', '2020-01-05T10:00', '2020-01-05 10:00'])
      expect(canonicalDate(bytes(s), 0, s.length)).toBe(false);
    expect(['true', 'false', 'TRUE', 'False', 'trUe'].map((s) => canonicalBool(bytes(s), 0, s.length))).toEqual([
      true,
      true,
      false,
      false,
      false,
    ]);
  });
});

/** A cell: its text, whether it is quoted with `""` pairs, or null (missing from a short record). */
type Cell = { text: string; escaped?: boolean } | null;

function feed(b: { add(buf: Buffer, s: number, e: number, f: number): void; addNull(): void }, cells: Cell[]) {
  for (const c of cells) {
    if (c === null) b.addNull();
    else b.add(bytes(`x${c.text}x`), 1, c.text.length + 1, c.escaped ? QUOTED | ESCAPED : 0);
  }
}

/** What the column must be: typed when every non-blank cell parses as one type, else every cell's text. */
function oracle(cells: Cell[]) {
  const n = cells.length;
  const valid = new Uint8Array(n);
  const num = new Float64Array(n);
  const date = new Float64Array(n);
  const bool = new Uint8Array(n);
  let isNum = true;
  let isDate = true;
  let isBool = true;
  let nonNull = 0;
  cells.forEach((c, i) => {
    if (c === null || isBlank(bytes(c.text), 0, c.text.length)) return;
    valid[i] = 1;
    nonNull++;
    const b = bytes(c.text);
    num[i] = c.escaped ? NaN : parseNumberBytes(b, 0, b.length, false);
    date[i] = c.escaped ? NaN : parseDateBytes(b, 0, b.length);
    const lower = c.text.toLowerCase();
    bool[i] = lower === 'true' ? 1 : 0;
    isNum &&= !Number.isNaN(num[i]);
    isDate &&= !Number.isNaN(date[i]);
    isBool &&= !c.escaped && (lower === 'true' || lower === 'false');
  });
  if (nonNull > 0 && isNum) {
    const integer = num.every((v, i) => valid[i] === 0 || Number.isInteger(v));
    return { kind: 'float64', type: integer ? 'integer' : 'number', values: num, valid };
  }
  if (nonNull > 0 && isDate) return { kind: 'float64', type: 'date', values: date, valid };
  if (nonNull > 0 && isBool) return { kind: 'bool', type: 'boolean', values: bool, valid };
  const text = new Utf8Builder('c', 'text', new IssueLog(), false, 'auto', undefined, 2_097_152);
  feed(text, cells);
  return text.finish();
}

const NUMBERS = [
  '0',
  '12',
  '-7',
  '65631.46',
  '1.50',
  '007',
  '+5',
  ' 5',
  '1e3',
  '-0',
  '0.0000001',
  '1234567890123456',
  '3.',
];
const DATES = ['2020-01-05', '1/5/2020', '2021-12-31T10:00:00Z', '1969-07-20', '2020-02-29'];
const BOOLS = ['true', 'false', 'TRUE', 'False'];
const TEXT: Cell[] = [
  { text: 'n/a' },
  { text: 'a ""q"" b', escaped: true },
  { text: '12', escaped: true },
  { text: '2020-13-01' },
];

/** `n` cells of one kind (some blank or missing), with a text cell at `failAt` (none when -1). */
function column(kind: string[], n: number, failAt: number, seed: number, fail: Cell): Cell[] {
  let h = seed;
  const next = () => (h = (Math.imul(h, 1103515245) + 12345) >>> 0) / 2 ** 32;
  return Array.from({ length: n }, (_, i): Cell => {
    if (i === failAt) return fail;
    const r = next();
    if (r < 0.05) return null;
    if (r < 0.1) return { text: r < 0.075 ? '' : '  ' };
    // mostly values whose text comes back, some that do not
    if (r < 0.8 && kind === NUMBERS) return { text: String(Math.round(next() * 1e6) / (r < 0.5 ? 1 : 100)) };
    return { text: kind[Math.floor(next() * kind.length)] };
  });
}

describe('an inferred column whose type fails late', () => {
  it.each([
    ['numbers', NUMBERS],
    ['dates', DATES],
    ['booleans', BOOLS],
  ])('%s: typed, or text exactly as read wherever the text cell comes', (_what, kind) => {
    for (const n of [1, 3, 200, 5000])
      for (const failAt of [-1, 0, 1, Math.floor(n / 2), n - 1])
        for (const [k, fail] of TEXT.entries()) {
          const cells = column(kind, n, failAt, n * 31 + failAt + k, fail);
          const b = new InferBuilder('c', new IssueLog(), undefined, 2_097_152);
          feed(b, cells);
          expect(b.finish(), `${n} rows, text at ${failAt}`).toEqual(oracle(cells));
        }
  });

  it('a column of mostly odd text keeps its text as it goes, and is still exact', () => {
    const n = 40_000;
    for (const failAt of [-1, n - 1]) {
      const cells = Array.from({ length: n }, (_, i): Cell =>
        i === failAt ? { text: 'end' } : { text: i % 2 ? '1.50' : String(i) },
      );
      const b = new InferBuilder('c', new IssueLog(), undefined, 2_097_152);
      feed(b, cells);
      expect(b.finish()).toEqual(oracle(cells));
    }
  });

  it('read in two parts (one all numbers, the other with the text cell): the one-pass table', async () => {
    const dir = tempDir('sbt-inferlate-');
    const rows = Array.from(
      { length: 3000 },
      (_, i) => `${i},${(i * 7.25) % 1000},${i === 2990 ? 'n/a' : i % 3 ? i * 3 : '1.50'},2020-01-0${1 + (i % 9)}`,
    );
    const path = join(dir, 'late.csv');
    writeFileSync(path, `a,b,c,d\n${rows.join('\n')}\n`);
    const one = await ingestCsv(path, { maxDictSize: 2_097_152 });
    expect(one.table.columns.map((c) => c.data.kind)).toEqual(['float64', 'float64', 'utf8', 'float64']);
    const split = bytes(`a,b,c,d\n${rows.slice(0, 1500).join('\n')}\n`).length;
    const parted = await ingestCsvInParts(path, {
      maxDictSize: 2_097_152,
      minPartBytes: 0,
      splitWhenBusy: true,
      splitAt: split,
    });
    expect(parted.parts).toBe(2);
    expect(tableDifference(compactTable(parted.table), compactTable(one.table))).toBeNull();
  });
});
