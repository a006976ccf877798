// Attack: a dictionary-coded Parquet page whose index points past its dictionary (index 3 of a
// 3-entry dictionary). A decoder that trusts it reads whatever lies after the dictionary, or
// undefined; the columnar decoder checks every index against the dictionary's size and refuses
// the file with DATA_CORRUPT naming the column; the host carries on.
import { parquetWriteBuffer } from 'hyparquet-writer';
import { describe, expect, it } from 'vitest';
import { DataError } from '../../src/data/index.js';
import { decodeInWorker } from '../../src/data/formats/decodeInWorker.js';
import { pagesOf } from '../helpers/parquetPages.js';

const ROWS = 12;
const good = new Uint8Array(
  parquetWriteBuffer({
    columnData: [
      {
        name: 'agency',
        data: Array.from({ length: ROWS }, (_, i) => ['DOD', 'NSF', 'NASA'][i % 3]),
        type: 'STRING',
        nullable: false,
        encoding: 'RLE_DICTIONARY',
      },
    ],
    codec: 'UNCOMPRESSED',
    statistics: false,
  }),
);

describe('a dictionary index past the dictionary', () => {
  it('the unaltered file decodes', async () => {
    const t = await decodeInWorker('t', good, 'good.parquet', 'parquet');
    expect(t.columns[0].kind).toBe('dict');
  });

  it('is refused with DATA_CORRUPT, never decoded into some other value', async () => {
    const data = pagesOf(good).find((p) => p.type === 'DATA_PAGE_V2')!;
    expect(data.end - data.body).toBeGreaterThanOrEqual(3);
    const bad = good.slice();
    // bit width 2, then one RLE run: every row is index 3 (the dictionary has 0..2)
    bad.set([2, ROWS << 1, 3], data.body);
    const err = await decodeInWorker('t', bad, 'attack.parquet', 'parquet').then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(DataError);
    expect((err as DataError).code).toBe('DATA_CORRUPT');
    expect((err as DataError).message).toMatch(/agency.*dictionary index 3 of a dictionary with 3 entries/);
    expect((err as DataError).hint).toBeTruthy();
  });

  it('the host decodes the next file', async () => {
    expect((await decodeInWorker('t', good, 'good.parquet', 'parquet')).numRows).toBe(ROWS);
  });
});
