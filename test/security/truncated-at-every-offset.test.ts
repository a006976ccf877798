// Attack: a valid Parquet, Arrow (file and stream, several batches) or JSON/NDJSON table cut at
// any byte, including an Arrow stream cut inside its end-of-stream marker (read without an error
// before). Every prefix either fails with a typed DataError or decodes to exactly the original's
// first rows (an Arrow stream cut at a batch boundary, NDJSON cut at a line end): never other rows,
// never a value the file does not hold.
import { columnFromArray, float64, int64, tableFromColumns, tableToIPC, utf8 } from '@uwdata/flechette';
import { describe, expect, it } from 'vitest';
import type { ColumnarTable } from '../../schema/columnar.js';
import { DataError } from '../../src/data/errors.js';
import { columnValues } from '../../src/data/formats/columnValues.js';
import { DEFAULT_DECODE_CAPS } from '../../src/data/formats/decodeCaps.js';
import { decodeTable, type DecodedFormat } from '../../src/data/formats/decodeTable.js';
import { portfolioArrow, portfolioParquet } from '../helpers/tableFiles.js';

/** Three batches of two rows each, as an Arrow stream (or file). */
function batchedArrow(format: 'file' | 'stream'): Uint8Array {
  const parts = [0, 1, 2].map((b) =>
    tableToIPC(
      tableFromColumns({
        name: columnFromArray([`row ${2 * b}`, `row ${2 * b + 1}`], utf8()),
        n: columnFromArray([2 * b + 0.5, 2 * b + 1.5], float64()),
        big: columnFromArray([BigInt(2 * b) * 10n ** 17n, -1n], int64()),
      }),
      { format: 'stream' },
    )!,
  );
  // one stream of three record batches: the schema of the first, every batch, one end marker
  const eos = new Uint8Array([0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0]);
  const strip = (s: Uint8Array) => s.subarray(0, s.byteLength - 8);
  const schemaLen = schemaMessageLength(parts[0]!);
  const stream = Buffer.concat([strip(parts[0]!), ...parts.slice(1).map((p) => strip(p).subarray(schemaLen)), eos]);
  if (format === 'stream') return new Uint8Array(stream);
  return portfolioArrow('file');
}

/** Bytes of the first (schema) message of an IPC stream: continuation, length, metadata. */
function schemaMessageLength(s: Uint8Array): number {
  const len = new DataView(s.buffer, s.byteOffset).getInt32(4, true);
  return 8 + len;
}

function rows(t: ColumnarTable): unknown[][] {
  // as text: a 64-bit integer column is numbers when every value fits a double, else exact text,
  // so a prefix may type the same values differently; the values themselves must be the same
  const cols = t.columns.map((c) =>
    columnValues(c.data).map((v) => (v === null ? null : v instanceof Date ? v.toISOString() : String(v))),
  );
  return Array.from({ length: t.numRows }, (_, i) => cols.map((c) => c[i]));
}

async function decode(bytes: Uint8Array, format: DecodedFormat): Promise<ColumnarTable | DataError> {
  try {
    return (await decodeTable('t', bytes, 't', format, DEFAULT_DECODE_CAPS)) as ColumnarTable;
  } catch (err) {
    if (err instanceof DataError) return err;
    throw new Error(`not a DataError: ${String(err)}`, { cause: err });
  }
}

const ndjson = new TextEncoder().encode(
  ['{"a":1,"b":"x"}', '{"a":22,"b":"yy"}', '{"a":333,"b":null}', '{"a":-4.5,"b":"z"}', ''].join('\n'),
);
const json = new TextEncoder().encode(
  JSON.stringify([
    { a: 1, b: 'x' },
    { a: 22, b: 'yy' },
    { a: 333, b: null },
  ]),
);

const files: Array<[string, Uint8Array, DecodedFormat]> = [
  ['Parquet', portfolioParquet(), 'parquet'],
  ['Parquet, uncompressed, one row per group', portfolioParquet({ codec: 'UNCOMPRESSED', rowGroupSize: 1 }), 'parquet'],
  ['an Arrow file', portfolioArrow('file'), 'arrow'],
  ['an Arrow stream of one batch', portfolioArrow('stream'), 'arrow'],
  ['an Arrow stream of three batches', batchedArrow('stream'), 'arrow'],
  ['JSON', json, 'json'],
  ['NDJSON', ndjson, 'ndjson'],
];

describe('a table file cut at every byte', () => {
  for (const [what, whole, format] of files) {
    it(`${what}: every prefix is a typed error or exactly the first rows`, async () => {
      const full = await decode(whole, format);
      expect(full).not.toBeInstanceOf(DataError);
      const all = rows(full as ColumnarTable);
      const outcomes = new Set<string>();
      for (let cut = 0; cut < whole.byteLength; cut++) {
        const got = await decode(whole.slice(0, cut), format);
        if (got instanceof DataError) {
          expect(got.code, `cut at ${cut}`).toMatch(/^DATA_(CORRUPT|UNSUPPORTED|EMPTY|DECODE_FAILED)$/);
          outcomes.add('error');
          continue;
        }
        const prefix = rows(got);
        expect(prefix.length, `cut at ${cut} of ${whole.byteLength}`).toBeLessThanOrEqual(all.length);
        expect(prefix, `cut at ${cut}`).toEqual(all.slice(0, prefix.length));
        outcomes.add(`${prefix.length} rows`);
      }
      expect(outcomes.has('error')).toBe(true);
    }, 120_000);
  }

  it('an Arrow stream cut inside its end-of-stream marker is DATA_CORRUPT', async () => {
    const stream = batchedArrow('stream');
    for (let keep = 1; keep < 8; keep++) {
      const got = await decode(stream.slice(0, stream.byteLength - 8 + keep), 'arrow');
      expect(got, `${keep} bytes of the marker`).toBeInstanceOf(DataError);
      expect((got as DataError).code).toBe('DATA_CORRUPT');
    }
  });
});
