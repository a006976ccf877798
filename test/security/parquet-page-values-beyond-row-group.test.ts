// Attack: a page header declares more values than its row group has rows (the footer says the
// row group holds 5 rows, its page 40 values). A decoder that sizes its columns from the footer
// and trusts the page writes past them; the page headers are checked against their row group
// before anything is decoded (checkParquet), and the columnar decoder checks again per page,
// so the file is refused with DATA_CORRUPT.
import { parquetWriteBuffer } from 'hyparquet-writer';
import { describe, expect, it } from 'vitest';
import { DataError } from '../../src/data/index.js';
import { decodeInWorker } from '../../src/data/formats/decodeInWorker.js';
import { withFooter } from '../helpers/parquetSurgery.js';

const good = new Uint8Array(
  parquetWriteBuffer({
    columnData: [{ name: 'id', data: Int32Array.from({ length: 40 }, (_, i) => i), type: 'INT32', nullable: false }],
    codec: 'UNCOMPRESSED',
    statistics: false,
  }),
);

describe('a page with more values than its row group has rows', () => {
  it('the unaltered file decodes', async () => {
    expect((await decodeInWorker('t', good, 'good.parquet', 'parquet')).numRows).toBe(40);
  });

  it('is refused with DATA_CORRUPT', async () => {
    const bad = withFooter(good, (f) => {
      f.field_3 = 5n; // the file's rows
      f.field_4[0].field_3 = 5n; // the row group's rows
    });
    const err = await decodeInWorker('t', bad, 'attack.parquet', 'parquet').then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(DataError);
    expect((err as DataError).code).toBe('DATA_CORRUPT');
    expect((err as DataError).message).toMatch(/a page declares 40 values, more than its row group's 5 rows/);
  });
});
