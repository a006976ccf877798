// A few rows of a number, date, boolean or dictionary column read alone from the binary cache
// (CacheReader.loadWindow): the same values as the column read whole, every byte checked against
// its block's CRC-32 first, null (load it whole) when the window's dictionary entries are spread
// too wide, and a clear error for a range outside the column or a damaged block.
import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ColumnData } from '../../../schema/columnar.js';
import { BLOCK_BYTES } from '../../../src/data/cache/format.js';
import { openCache } from '../../../src/data/cache/readCache.js';
import { dictColumn, writeColumnsCache } from './helpers.js';

const ROWS = 20_000;

const amount = (i: number) => (i % 11 === 3 ? null : i % 17 === 0 ? NaN : i * 1.25 - 7000);
const day = (i: number) => (i % 9 === 4 ? null : Date.UTC(2000, 0, 1) + i * 86_400_000);
const flag = (i: number) => (i % 5 === 1 ? null : i % 3 === 0);
const agency = (i: number) => (i % 13 === 6 ? null : `Agency ${i % 23} ${'é'.repeat(i % 3)}`);
/** A long entry per row in the first half; the second half names them 97 apart (spread entries). */
const entry = (k: number) => `${k} ${'u'.repeat(400)}`;
const unique = (i: number) => (i < ROWS / 2 ? entry(i) : entry(((i - ROWS / 2) * 97) % (ROWS / 2)));

function float(values: Array<number | null>, type: 'number' | 'date'): ColumnData {
  return {
    kind: 'float64',
    type,
    values: Float64Array.from(values, (v) => v ?? 0),
    valid: Uint8Array.from(values, (v) => (v === null ? 0 : 1)),
  };
}

async function cache(): Promise<string> {
  const idx = Array.from({ length: ROWS }, (_, i) => i);
  const flags = idx.map(flag);
  const cols: Array<[string, ColumnData]> = [
    ['Amount', float(idx.map(amount), 'number')],
    ['Day', float(idx.map(day), 'date')],
    [
      'Flag',
      {
        kind: 'bool',
        type: 'boolean',
        values: Uint8Array.from(flags, (v) => (v ? 1 : 0)),
        valid: Uint8Array.from(flags, (v) => (v === null ? 0 : 1)),
      },
    ],
    ['Agency', dictColumn(idx.map(agency))],
    ['Unique', dictColumn(idx.map(unique))],
  ];
  return writeColumnsCache(cols, ROWS);
}

function reader(path: string) {
  const opened = openCache(path, 'k');
  if (!opened.ok) throw new Error(opened.reason);
  return opened.reader;
}

/** Row values of a window (utf8 rows decoded), as the whole column reads them. */
function rowsOf(w: ColumnData): unknown[] {
  if (w.kind === 'utf8')
    return Array.from(w.valid, (v, i) =>
      v ? new TextDecoder().decode(w.bytes.subarray(w.offsets[i], w.offsets[i + 1])) : null,
    );
  if (w.kind === 'float64') return Array.from(w.valid, (v, i) => (v ? w.values[i] : null));
  if (w.kind === 'bool') return Array.from(w.valid, (v, i) => (v ? w.values[i] !== 0 : null));
  throw new Error(`unexpected window kind ${w.kind}`);
}

describe('CacheReader.loadWindow', () => {
  it('reads any window of numbers, dates, booleans and dictionary strings as the whole column holds them', async () => {
    const path = await cache();
    const expected: Record<string, (i: number) => unknown> = { Amount: amount, Day: day, Flag: flag, Agency: agency };
    const r = reader(path);
    for (const [a, b] of [
      [0, 1],
      [0, 256],
      [255, 513],
      [8191, 8192],
      [ROWS - 100, ROWS],
      [7, 7],
    ] as const)
      for (const name of Object.keys(expected)) {
        const w = r.loadWindow(name, a, b);
        expect(w, `${name} [${a}, ${b})`).not.toBeNull();
        const want = Array.from({ length: b - a }, (_, k) => expected[name]!(a + k));
        expect(rowsOf(w!), `${name} [${a}, ${b})`).toEqual(want);
      }
    // a window is at most 4096 rows; a loaded column is sliced, with the same rows
    expect(r.loadWindow('Amount', 0, 4097)).toBeNull();
    r.loadColumn('Amount');
    r.loadColumn('Agency');
    for (const name of ['Amount', 'Agency'])
      expect(rowsOf(r.loadWindow(name, 300, 310)!)).toEqual(
        Array.from({ length: 10 }, (_, k) => expected[name]!(300 + k)),
      );
    expect(r.loadWindow('Flag', 0, 10)).not.toBeNull();
  });

  it('reads a window of a wide dictionary near its first entries, and declines one whose entries span many blocks', async () => {
    const path = await cache();
    const r = reader(path);
    const first = r.loadWindow('Unique', 0, 10);
    expect(rowsOf(first!)).toEqual(Array.from({ length: 10 }, (_, i) => unique(i)));
    // 4096 rows whose entries sit side by side (1.6 MB of dictionary, 26 blocks): read
    const side = r.loadWindow('Unique', 2000, 6096);
    expect(rowsOf(side!)).toEqual(Array.from({ length: 4096 }, (_, i) => unique(2000 + i)));
    // 256 rows whose entries sit 97 apart (39 KB): 256 blocks of dictionary for 100 KB of text
    expect(97 * 404).toBeGreaterThan(BLOCK_BYTES / 2);
    expect(r.loadWindow('Unique', ROWS / 2, ROWS / 2 + 256)).toBeNull();
    // a few of them are fine
    const few = r.loadWindow('Unique', ROWS / 2, ROWS / 2 + 8);
    expect(rowsOf(few!)).toEqual(Array.from({ length: 8 }, (_, i) => unique(ROWS / 2 + i)));
  });

  it('windows of one block (read and checked once) are each a copy the caller owns', async () => {
    const r = reader(await cache());
    const first = r.loadWindow('Amount', 0, 256)!;
    const agencies = r.loadWindow('Agency', 0, 256)!;
    expect(first.kind === 'float64' && agencies.kind === 'utf8').toBe(true);
    if (first.kind !== 'float64' || agencies.kind !== 'utf8') return;
    first.values.fill(-1);
    first.valid.fill(0);
    agencies.bytes.fill(0);
    // the next windows of the same blocks, and the same window again, read what the file holds
    for (const [a, b] of [
      [256, 512],
      [0, 256],
      [100, 300],
    ] as const) {
      expect(rowsOf(r.loadWindow('Amount', a, b)!)).toEqual(Array.from({ length: b - a }, (_, k) => amount(a + k)));
      expect(rowsOf(r.loadWindow('Agency', a, b)!)).toEqual(Array.from({ length: b - a }, (_, k) => agency(a + k)));
    }
  });

  it('refuses a range outside the column with a RangeError', async () => {
    const r = reader(await cache());
    expect(() => r.loadWindow('Amount', -1, 3)).toThrow(RangeError);
    expect(() => r.loadWindow('Amount', 0, ROWS + 1)).toThrow(RangeError);
    expect(() => r.loadWindow('Amount', 5, 2)).toThrow(RangeError);
    expect(() => r.loadWindow('Amount', 0.5, 2)).toThrow(RangeError);
    expect(r.loadWindow('Nope', 0, 2)).toBeNull();
  });

  it('detects a flipped byte in the block a window reads (CACHE_CORRUPT, the file removed), never returns it', async () => {
    const path = await cache();
    const raw = readFileSync(path);
    const header = JSON.parse(raw.subarray(24, 24 + raw.readUInt32LE(12)).toString('utf8')) as {
      columns: Array<{ name: string; buffers: Record<string, { offset: number; length: number }> }>;
    };
    const values = header.columns.find((c) => c.name === 'Amount')!.buffers.values!;
    const at = values.offset + 10_000 * 8 + 3; // block 1 of the values
    raw[at] = raw[at]! ^ 0xff;
    writeFileSync(path, raw);
    const r = reader(path);
    // a window in another block still reads
    expect(rowsOf(r.loadWindow('Amount', 0, 10)!)).toEqual(Array.from({ length: 10 }, (_, i) => amount(i)));
    let err: unknown;
    try {
      r.loadWindow('Amount', 9990, 10_010);
    } catch (e) {
      err = e;
    }
    expect((err as { code?: string }).code).toBe('CACHE_CORRUPT');
    expect(String((err as Error).message)).toMatch(/Amount/);
    // a window of one block, the damaged one: refused too (a block is kept only once checked)
    const again = reader(await cache());
    const raw2 = readFileSync(again.path);
    raw2[at] = raw2[at]! ^ 0xff;
    writeFileSync(again.path, raw2);
    expect(rowsOf(again.loadWindow('Amount', 0, 10)!)).toEqual(Array.from({ length: 10 }, (_, i) => amount(i)));
    for (let k = 0; k < 2; k++) expect(() => again.loadWindow('Amount', 9990, 10_000)).toThrow(/checksum/);
  });
});
