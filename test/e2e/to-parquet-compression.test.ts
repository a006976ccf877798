// to_parquet's compression option, as a model calls it: the default writes uncompressed pages,
// { compression: 'snappy' } compresses the integer/date columns, and both read back the same.
import { parquetMetadata } from 'hyparquet';
import { afterAll, describe, expect, it } from 'vitest';
import { createSandbox, shutdown } from '../../src/index.js';
import { decodeParquet } from '../../src/data/formats/parquet.js';
import { DEFAULT_DECODE_CAPS } from '../../src/data/formats/decodeCaps.js';
import { columnValues } from '../../src/data/formats/columnValues.js';

afterAll(() => shutdown());

const codecs = (bytes: Uint8Array) =>
  parquetMetadata(
    bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer,
  ).row_groups[0]!.columns.map((c) => `${c.meta_data!.path_in_schema[0]}:${c.meta_data!.codec}`);

describe('to_parquet(t, name, { compression })', () => {
  it('uncompressed by default, SNAPPY integer/date pages on request, the same values either way; a bad value is a TypeError with a hint', async () => {
    await using box = await createSandbox({});
    const code = (opt: string) =>
      `const t = award_data.select('Award Year', 'Agency', 'Award Amount').slice(0, 2000); to_parquet(t, 'r.parquet'${opt}); 1`;
    const plain = (await box.run(code(''))).files![0]!.bytes!;
    const snappy = (await box.run(code(", { compression: 'snappy' }"))).files![0]!.bytes!;
    expect(codecs(plain)).toEqual(['Award Year:UNCOMPRESSED', 'Agency:UNCOMPRESSED', 'Award Amount:UNCOMPRESSED']);
    expect(codecs(snappy)).toContain('Award Year:SNAPPY');
    expect(snappy.byteLength).toBeLessThan(plain.byteLength);
    const [a, b] = await Promise.all(
      [plain, snappy].map((x) => decodeParquet('r', x, 'r.parquet', DEFAULT_DECODE_CAPS)),
    );
    expect(b!.columns.map((c) => columnValues(c.data))).toEqual(a!.columns.map((c) => columnValues(c.data)));
    const bad = await box.run("to_parquet(award_data.slice(0, 5), 'x.parquet', { compression: 'zstd' })");
    expect(bad.error).toMatchObject({ type: 'RUNTIME_ERROR', name: 'TypeError' });
    expect(bad.error?.message).toMatch(/compression must be 'none' or 'snappy'/);
  });
});
