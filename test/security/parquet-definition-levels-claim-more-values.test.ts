// Attack: the definition levels of a page say every row has a value, while the page holds values
// for only half of them. A decoder that trusts the levels reads past the values into whatever
// follows; the columnar decoder reads the values within the page's bounds and refuses the file
// with DATA_CORRUPT when they run out; the host carries on.
import { parquetWriteBuffer } from 'hyparquet-writer';
import { describe, expect, it } from 'vitest';
import { DataError } from '../../src/data/index.js';
import { decodeInWorker } from '../../src/data/formats/decodeInWorker.js';
import { pagesOf } from '../helpers/parquetPages.js';

const ROWS = 40;
const good = new Uint8Array(
  parquetWriteBuffer({
    columnData: [
      {
        name: 'amount',
        data: Array.from({ length: ROWS }, (_, i) => (i % 2 ? null : i * 1.5)),
        type: 'DOUBLE',
        encoding: 'PLAIN',
      },
    ],
    codec: 'UNCOMPRESSED',
    statistics: false,
  }),
);

describe('definition levels that claim more values than the page holds', () => {
  it('the unaltered file decodes, half of it null', async () => {
    const t = await decodeInWorker('t', good, 'good.parquet', 'parquet');
    const data = t.columns[0].data;
    expect(data.kind === 'float64' && data.valid.reduce((a, b) => a + b, 0)).toBe(ROWS / 2);
  });

  it('is refused with DATA_CORRUPT', async () => {
    const page = pagesOf(good).find((p) => p.type === 'DATA_PAGE_V2')!;
    expect(page.defLen).toBeGreaterThanOrEqual(2);
    const bad = good.slice();
    // the definition levels become one RLE run: ROWS rows, all defined; the rest of the section is padding
    const levels = new Uint8Array(page.defLen);
    levels.set([ROWS << 1, 1]);
    bad.set(levels, page.body + page.repLen);
    const err = await decodeInWorker('t', bad, 'attack.parquet', 'parquet').then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(DataError);
    expect((err as DataError).code).toBe('DATA_CORRUPT');
    expect((err as DataError).message).toMatch(/amount.*40 values of 8 bytes do not fit/);
  });

  it('the host decodes the next file', async () => {
    expect((await decodeInWorker('t', good, 'good.parquet', 'parquet')).numRows).toBe(ROWS);
  });
});
