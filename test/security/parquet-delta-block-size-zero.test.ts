// Attack: a DELTA_BINARY_PACKED page whose block header says 0 values per block. An unpacker
// that trusts it divides by zero and loops without progress (0 values per miniblock) until the
// decode deadline; the columnar decoder checks the header (a positive multiple of 128 values, in
// miniblocks of a multiple of 32) before unpacking and refuses the file with DATA_CORRUPT at once.
import { parquetWriteBuffer } from 'hyparquet-writer';
import { describe, expect, it } from 'vitest';
import { DataError } from '../../src/data/index.js';
import { decodeInWorker } from '../../src/data/formats/decodeInWorker.js';
import { pagesOf } from '../helpers/parquetPages.js';

const good = new Uint8Array(
  parquetWriteBuffer({
    columnData: [
      {
        name: 'employees',
        data: Int32Array.from({ length: 300 }, (_, i) => (i * 37) % 500),
        type: 'INT32',
        nullable: false,
        encoding: 'DELTA_BINARY_PACKED',
      },
    ],
    codec: 'UNCOMPRESSED',
    statistics: false,
  }),
);

describe('a DELTA_BINARY_PACKED block of 0 values', () => {
  it('the unaltered file decodes', async () => {
    const t = await decodeInWorker('t', good, 'good.parquet', 'parquet');
    const data = t.columns[0].data;
    expect(data.kind === 'float64' && Array.from(data.values.subarray(0, 3))).toEqual([0, 37, 74]);
  });

  it('is refused with DATA_CORRUPT (a hang would end at the deadline as DATA_DECODE_FAILED)', async () => {
    const page = pagesOf(good).find((p) => p.type === 'DATA_PAGE_V2')!;
    const bad = good.slice();
    expect(Array.from(bad.subarray(page.body, page.body + 2))).toEqual([0x80, 0x01]); // 128, as a varint
    bad.set([0x00, 0x00], page.body); // block size 0, then 0 miniblocks
    const err = await decodeInWorker('t', bad, 'attack.parquet', 'parquet', { timeoutMs: 30_000 }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(DataError);
    expect((err as DataError).code).toBe('DATA_CORRUPT');
    expect((err as DataError).message).toMatch(/employees.*a DELTA_BINARY_PACKED block of 0 values/);
  });
});
