// Attack: a dictionary-coded page whose bit width byte says 40 (indices are at most 32 bits).
// Bit unpacking at that width overflows 32-bit arithmetic or reads far past each run; the
// columnar decoder refuses any width over 32 before it unpacks, with DATA_CORRUPT.
import { parquetWriteBuffer } from 'hyparquet-writer';
import { describe, expect, it } from 'vitest';
import { DataError } from '../../src/data/index.js';
import { decodeInWorker } from '../../src/data/formats/decodeInWorker.js';
import { pagesOf } from '../helpers/parquetPages.js';

const good = new Uint8Array(
  parquetWriteBuffer({
    columnData: [
      {
        name: 'company',
        data: Array.from({ length: 30 }, (_, i) => `Company ${i % 4}`),
        type: 'STRING',
        nullable: false,
        encoding: 'RLE_DICTIONARY',
      },
    ],
    codec: 'UNCOMPRESSED',
    statistics: false,
  }),
);

describe('a bit width over 32', () => {
  it('the unaltered file decodes', async () => {
    expect((await decodeInWorker('t', good, 'good.parquet', 'parquet')).columns[0].kind).toBe('dict');
  });

  it('is refused with DATA_CORRUPT', async () => {
    const page = pagesOf(good).find((p) => p.type === 'DATA_PAGE_V2')!;
    const bad = good.slice();
    bad[page.body] = 40;
    const err = await decodeInWorker('t', bad, 'attack.parquet', 'parquet').then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(DataError);
    expect((err as DataError).code).toBe('DATA_CORRUPT');
    expect((err as DataError).message).toMatch(/company.*a bit width of 40/);
  });
});
