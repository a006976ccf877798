// The cache reader's read path run once in idle time (CacheReader.warmReads; the holder's idle
// warm-up calls it before a session's first column): the presence bytes of one number column read,
// checked and dropped (not the whole column), one row of the dictionary column with the smallest
// dictionary, once per reader, nothing kept (the column is read from the file again, with its
// values), and nothing at all once a column was loaded or the file is closed. What ran is counted,
// never timed.
import { describe, expect, it, vi } from 'vitest';
import type { ColumnData } from '../../../schema/columnar.js';
import { type CacheReader, openCache } from '../../../src/data/cache/readCache.js';
import { dictColumn, writeColumnsCache } from './helpers.js';

const ROWS = 5_000;

const idx = Array.from({ length: ROWS }, (_, i) => i);
const amount = (i: number) => i * 1.5 - 100;

async function cache(): Promise<string> {
  const cols: Array<[string, ColumnData]> = [
    // a wide dictionary first: the warm read must pick the small one
    ['Company', dictColumn(idx.map((i) => `Company ${i % 997}`))],
    ['Phase', dictColumn(idx.map((i) => (i % 3 ? 'Phase I' : 'Phase II')))],
    [
      'Amount',
      { kind: 'float64', type: 'number', values: Float64Array.from(idx, amount), valid: new Uint8Array(ROWS).fill(1) },
    ],
    [
      'Year',
      {
        kind: 'float64',
        type: 'number',
        values: Float64Array.from(idx, (i) => 2000 + (i % 20)),
        valid: new Uint8Array(ROWS).fill(1),
      },
    ],
  ];
  return writeColumnsCache(cols, ROWS);
}

function reader(path: string): CacheReader {
  const opened = openCache(path, 'k');
  if (!opened.ok) throw new Error(opened.reason);
  return opened.reader;
}

type Read = { read(entry: { name: string }, role: string): ArrayBuffer };

/** The buffers the reader read from the file, in order, as `column role` (its private read, counted). */
function buffersRead(r: CacheReader): string[] {
  const names: string[] = [];
  const read = (r as unknown as Read).read;
  vi.spyOn(r as unknown as Read, 'read').mockImplementation(function (this: CacheReader, entry, role) {
    names.push(`${entry.name} ${role}`);
    return read.call(this, entry, role);
  });
  return names;
}

describe('CacheReader.warmReads', () => {
  it("reads the first number column's presence bytes and one row of the smallest dictionary, keeping neither", async () => {
    const r = reader(await cache());
    const names = buffersRead(r);
    const windows = vi.spyOn(r, 'loadWindow');
    r.warmReads();
    // the window reads the dictionary's offsets (kept for the next window, as any window keeps them)
    expect(names).toEqual(['Amount valid', 'Phase dictOffsets']);
    expect(windows.mock.calls).toEqual([['Phase', 0, 1]]);
    // kept nowhere: the column is read from the file, with its values
    const col = r.loadColumn('Amount');
    expect(names).toEqual(['Amount valid', 'Phase dictOffsets', 'Amount values', 'Amount valid']);
    expect(col.kind === 'float64' && Array.from(col.values.subarray(0, 3))).toEqual([amount(0), amount(1), amount(2)]);
    r.close();
  });

  it('runs once per reader', async () => {
    const r = reader(await cache());
    const names = buffersRead(r);
    r.warmReads();
    r.warmReads();
    expect(names).toEqual(['Amount valid', 'Phase dictOffsets']);
    r.close();
  });

  it('reads nothing once a column was loaded (the path has run), or when the file is closed', async () => {
    const path = await cache();
    const loaded = reader(path);
    const names = buffersRead(loaded);
    loaded.loadColumn('Year');
    loaded.warmReads();
    expect(names).toEqual(['Year values', 'Year valid']);
    loaded.close();
    const closed = reader(path);
    const none = buffersRead(closed);
    closed.close();
    expect(() => closed.warmReads()).not.toThrow();
    expect(none).toEqual([]);
  });
});
