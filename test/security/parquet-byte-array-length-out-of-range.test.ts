// Attack: a PLAIN text value whose 4-byte length is negative (0xFFFFFFF0 as int32) or huge
// (0x7FFFFFFF). A decoder that trusts it allocates or slices gigabytes, or reads past the page;
// the columnar decoder reads the length unsigned, checks it against what is left of the page and
// refuses the file with DATA_CORRUPT before using it.
import { parquetWriteBuffer } from 'hyparquet-writer';
import { describe, expect, it } from 'vitest';
import { DataError } from '../../src/data/index.js';
import { decodeInWorker } from '../../src/data/formats/decodeInWorker.js';
import { pagesOf } from '../helpers/parquetPages.js';

const good = new Uint8Array(
  parquetWriteBuffer({
    columnData: [
      {
        name: 'note',
        data: Array.from({ length: 20 }, (_, i) => `note ${i}`),
        type: 'STRING',
        nullable: false,
        encoding: 'PLAIN',
      },
    ],
    codec: 'UNCOMPRESSED',
    statistics: false,
  }),
);

async function refusal(length: number): Promise<DataError> {
  const page = pagesOf(good).find((p) => p.type === 'DATA_PAGE_V2')!;
  const bad = good.slice();
  // the second value's length prefix (the first value is 'note 0': 4 + 6 bytes)
  new DataView(bad.buffer).setUint32(page.body + 10, length, true);
  const err = await decodeInWorker('t', bad, 'attack.parquet', 'parquet').then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(DataError);
  return err as DataError;
}

describe('a PLAIN BYTE_ARRAY length out of range', () => {
  it('the unaltered file decodes', async () => {
    const t = await decodeInWorker('t', good, 'good.parquet', 'parquet');
    expect(t.numRows).toBe(20);
  });

  it('a negative length is refused with DATA_CORRUPT', async () => {
    const err = await refusal(0xfffffff0);
    expect(err.code).toBe('DATA_CORRUPT');
    expect(err.message).toMatch(/note.*a text value of 4294967280 bytes/);
  });

  it('a huge length is refused with DATA_CORRUPT', async () => {
    const err = await refusal(0x7fffffff);
    expect(err.code).toBe('DATA_CORRUPT');
    expect(err.message).toMatch(/a text value of 2147483647 bytes/);
  });
});
