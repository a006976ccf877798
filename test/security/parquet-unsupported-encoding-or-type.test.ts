// Attack (or just an exotic file): Parquet features sbirtools does not read: a codec (LZO), an
// unknown encoding id, nested columns, raw fixed-length bytes. Each is refused up front with
// DATA_UNSUPPORTED and a hint saying how to write the file instead, never decoded into garbage.
import { parquetWriteBuffer } from 'hyparquet-writer';
import { describe, expect, it } from 'vitest';
import { portfolioParquet } from '../helpers/tableFiles.js';
import { withFooter } from '../helpers/parquetSurgery.js';
import { decodeFailure, expectHealthy } from './helpers.js';

const failure = (bytes: Uint8Array) => decodeFailure(bytes, 'exotic.parquet');

describe('unsupported Parquet codecs, encodings and types', () => {
  it('LZO compression', async () => {
    const bad = withFooter(portfolioParquet(), (f) => {
      f.field_4[0].field_1[0].field_3.field_4 = 3; // LZO
    });
    const err = await failure(bad);
    expect(err.code).toBe('DATA_UNSUPPORTED');
    expect(err.hint).toMatch(/SNAPPY, GZIP, ZSTD/);
  });

  it('an encoding id that does not exist', async () => {
    const bad = withFooter(portfolioParquet(), (f) => {
      f.field_4[0].field_1[1].field_3.field_2 = [99];
    });
    expect((await failure(bad)).code).toBe('DATA_UNSUPPORTED');
  });

  it('a nested (list) column', async () => {
    const nested = new Uint8Array(
      parquetWriteBuffer({
        columnData: [{ name: 'tags', data: [[1, 2], [3], []] }],
        schema: [
          { name: 'root', num_children: 1 },
          { name: 'tags', repetition_type: 'OPTIONAL', num_children: 1, converted_type: 'LIST' },
          { name: 'list', repetition_type: 'REPEATED', num_children: 1 },
          { name: 'element', type: 'INT32', repetition_type: 'OPTIONAL' },
        ],
      }),
    );
    const err = await failure(nested);
    expect(err.code).toBe('DATA_UNSUPPORTED');
    expect(err.hint).toMatch(/Flatten nested columns/);
  });

  it('raw FIXED_LEN_BYTE_ARRAY', async () => {
    const raw = new Uint8Array(
      parquetWriteBuffer({
        columnData: [{ name: 'h', data: [new Uint8Array([1, 2, 3, 4])] }],
        schema: [
          { name: 'root', num_children: 1 },
          { name: 'h', type: 'FIXED_LEN_BYTE_ARRAY', type_length: 4, repetition_type: 'REQUIRED' },
        ],
      }),
    );
    expect((await failure(raw)).code).toBe('DATA_UNSUPPORTED');
  });

  it('the host is unharmed', async () => {
    await expectHealthy();
  });
});
