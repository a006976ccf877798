// Differential tests of the columnar Parquet decoder (src/data/formats/parquetColumnar/) against
// the row-wise hyparquet path it replaces: random tables written by hyparquet-writer (v2 pages,
// dictionary / PLAIN / BYTE_STREAM_SPLIT / DELTA encodings, small pages and row groups) and
// rewritten by DuckDB (v1 and v2 pages, every codec) must decode to identical transfer columns.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import fc from 'fast-check';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_DECODE_CAPS } from '../../../../src/data/formats/decodeCaps.js';
import { parquetMetadata } from 'hyparquet';
import { cappedCompressors } from '../../../../src/data/formats/cappedCompressors.js';
import { decodeParquet } from '../../../../src/data/formats/parquet.js';
import { checkParquet } from '../../../../src/data/formats/parquetChecks.js';
import { decodeColumnar } from '../../../../src/data/formats/parquetColumnar/decodeColumnar.js';
import { parquetLeaves } from '../../../../src/data/formats/parquetSchema.js';
import { tableDifference } from '../../../helpers/sameTable.js';

type Kind = 'string' | 'int32' | 'int64' | 'double' | 'float' | 'bool' | 'timestamp';
interface Col {
  kind: Kind;
  values: unknown[];
  encoding: string | undefined;
}

const TEXT = [
  '',
  'DOD',
  'a,b',
  'line1\r\nline2',
  'Département ü',
  '日本語',
  '😀 surrogate pair 𝄞',
  'tab\there',
  '"quoted"',
  ' spaced ',
];
const ENCODINGS: Record<Kind, Array<string | undefined>> = {
  string: [undefined, 'PLAIN', 'RLE_DICTIONARY', 'DELTA_BYTE_ARRAY', 'DELTA_LENGTH_BYTE_ARRAY'],
  int32: [undefined, 'PLAIN', 'RLE_DICTIONARY', 'DELTA_BINARY_PACKED', 'BYTE_STREAM_SPLIT'],
  int64: [undefined, 'PLAIN', 'RLE_DICTIONARY', 'DELTA_BINARY_PACKED', 'BYTE_STREAM_SPLIT'],
  double: [undefined, 'PLAIN', 'RLE_DICTIONARY', 'BYTE_STREAM_SPLIT'],
  float: [undefined, 'PLAIN', 'BYTE_STREAM_SPLIT'],
  bool: [undefined, 'PLAIN', 'RLE'],
  timestamp: [undefined, 'PLAIN', 'RLE_DICTIONARY', 'DELTA_BINARY_PACKED'],
};

function value(kind: Kind, wide: boolean): fc.Arbitrary<unknown> {
  switch (kind) {
    case 'string':
      return wide
        ? fc.oneof(fc.string({ unit: 'binary', maxLength: 12 }), fc.constantFrom(...TEXT))
        : fc.constantFrom(...TEXT);
    case 'int32':
      return wide ? fc.integer() : fc.integer({ min: -3, max: 3 });
    case 'int64':
      return wide
        ? fc.oneof(
            fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }),
            fc.bigInt({ min: -(2n ** 53n), max: 2n ** 53n }),
          )
        : fc.bigInt({ min: -(2n ** 53n) + 1n, max: 2n ** 53n - 1n });
    case 'double':
      return fc.oneof(fc.double(), fc.constantFrom(0, -0, NaN, Infinity, -Infinity, 1.5));
    case 'float':
      return fc.float().map((x) => Math.fround(x));
    case 'bool':
      return fc.boolean();
    case 'timestamp':
      // before and after 1970, to the millisecond
      return fc.integer({ min: -2_000_000_000_000, max: 4_000_000_000_000 }).map((ms) => new Date(ms));
  }
}

const column = (rows: number): fc.Arbitrary<Col> =>
  fc
    .record({
      kind: fc.constantFrom<Kind>('string', 'int32', 'int64', 'double', 'float', 'bool', 'timestamp'),
      wide: fc.boolean(),
      nulls: fc.constantFrom(0, 0.2, 1),
      enc: fc.nat(9),
    })
    .chain(({ kind, wide, nulls, enc }) =>
      fc
        .array(fc.option(value(kind, wide), { freq: nulls === 0 ? 1e9 : nulls === 1 ? 1 : 4, nil: null }), {
          minLength: rows,
          maxLength: rows,
        })
        .map((vs) => ({
          kind,
          values: nulls === 1 ? vs.map(() => null) : vs,
          encoding: ENCODINGS[kind][enc % ENCODINGS[kind].length],
        })),
    );

const TYPES: Record<Kind, string> = {
  string: 'STRING',
  int32: 'INT32',
  int64: 'INT64',
  double: 'DOUBLE',
  float: 'FLOAT',
  bool: 'BOOLEAN',
  timestamp: 'TIMESTAMP',
};

const table = fc.integer({ min: 0, max: 120 }).chain((rows) =>
  fc.record({
    cols: fc.array(column(rows), { minLength: 1, maxLength: 5 }),
    rowGroupSize: fc.integer({ min: 1, max: 130 }),
    pageSize: fc.constantFrom(16, 200, 1 << 20),
    codec: fc.constantFrom<'SNAPPY' | 'UNCOMPRESSED'>('SNAPPY', 'UNCOMPRESSED'),
    dictionarySize: fc.constantFrom(undefined, 8, 64),
  }),
);

function write(
  t: fc.Arbitrary<unknown> extends never
    ? never
    : {
        cols: Col[];
        rowGroupSize: number;
        pageSize: number;
        codec: 'SNAPPY' | 'UNCOMPRESSED';
        dictionarySize: number | undefined;
      },
): Uint8Array | null {
  try {
    return new Uint8Array(
      parquetWriteBuffer({
        columnData: t.cols.map((c, i) => ({
          name: `c${i}`,
          data: c.values as never,
          type: TYPES[c.kind] as never,
          nullable: c.values.some((v) => v === null) || i % 2 === 1,
          ...(c.encoding ? { encoding: c.encoding as never } : {}),
        })),
        rowGroupSize: t.rowGroupSize,
        pageSize: t.pageSize,
        codec: t.codec,
        ...(t.dictionarySize ? { dictionarySize: t.dictionarySize } : {}),
      }),
    );
  } catch {
    return null; // an encoding the writer does not offer for that type
  }
}

/** Columns the columnar decoder itself decoded (not handed to the hyparquet path), of all columns. */
const share = { columnar: 0, all: 0 };

async function both(bytes: Uint8Array): Promise<string | null> {
  const meta = parquetMetadata(bytes.slice().buffer);
  const leaves = parquetLeaves(meta, 't');
  const numRows = checkParquet(bytes, meta, leaves, DEFAULT_DECODE_CAPS, 't');
  const own = decodeColumnar(bytes, meta, leaves, numRows, cappedCompressors(DEFAULT_DECODE_CAPS), 't');
  share.columnar += own.filter((c) => c !== null).length;
  share.all += own.length;
  const fast = await decodeParquet('t', bytes, 't.parquet', DEFAULT_DECODE_CAPS);
  const slow = await decodeParquet('t', bytes, 't.parquet', DEFAULT_DECODE_CAPS, { columnar: false });
  return tableDifference(fast, slow);
}

describe('columnar Parquet decoder = the hyparquet path', () => {
  it('random tables written by hyparquet-writer (v2 pages, every encoding it offers)', async () => {
    let written = 0;
    await fc.assert(
      fc.asyncProperty(table, async (t) => {
        const bytes = write(t);
        if (!bytes) return;
        written++;
        expect(await both(bytes)).toBeNull();
      }),
      { numRuns: 150 },
    );
    expect(written).toBeGreaterThan(50);
    // the comparison means something only if most columns took the columnar path
    expect(share.columnar / share.all).toBeGreaterThan(0.6);
  }, 120_000);

  it.each([
    ['65,535 distinct values, each ~4 times: the column dictionary is full, still dict', 65_535, 300_000, 'dict'],
    // user tables keep up to USER_MAX_DICT_SIZE (2,097,152) values as a dictionary, not award_data's 65,535
    ['65,536 distinct values: still dict (the user-table cap), across row groups', 65_536, 300_000, 'dict'],
    [
      '160,000 distinct values of 300,000 rows (each used less than twice): UTF-8, across row groups',
      160_000,
      300_000,
      'utf8',
    ],
  ])(
    '%s',
    async (_what, distinct, rows, kind) => {
      // per-row-group Parquet dictionaries (RLE_DICTIONARY, 150,000-row groups) merge into one column dictionary;
      // in the first group, entries already seen repeat after the switch to UTF-8
      const data = Array.from({ length: rows }, (_, i) => (i % 97 === 0 ? null : `v${(i * 7) % distinct}`));
      const bytes = new Uint8Array(
        parquetWriteBuffer({
          columnData: [{ name: 's', data, type: 'STRING', encoding: 'RLE_DICTIONARY' }],
          rowGroupSize: 150_000,
        }),
      );
      expect(parquetMetadata(bytes.slice().buffer).row_groups.map((g) => g.columns[0].meta_data?.encodings)).toEqual([
        ['PLAIN', 'RLE_DICTIONARY'],
        ['PLAIN', 'RLE_DICTIONARY'],
      ]); // PLAIN: the dictionary page
      share.columnar = share.all = 0;
      expect(await both(bytes)).toBeNull();
      expect(share).toEqual({ columnar: 1, all: 1 });
      const t = await decodeParquet('t', bytes, 't.parquet', DEFAULT_DECODE_CAPS);
      expect(t.columns[0].kind).toBe(kind);
    },
    60_000,
  );

  describe('rewritten by DuckDB (v1 and v2 pages, DATE / TIMESTAMP units, every codec)', () => {
    let dir: string;
    let duck: Awaited<ReturnType<DuckDBInstance['connect']>>;
    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), 'sbirtools-pq-'));
      duck = await (await DuckDBInstance.create(':memory:')).connect();
    });
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it('random tables', async () => {
      let n = 0;
      share.columnar = share.all = 0;
      await fc.assert(
        fc.asyncProperty(
          table,
          fc.constantFrom('zstd', 'snappy', 'gzip', 'uncompressed'),
          fc.constantFrom('V1', 'V2'),
          fc.integer({ min: 1, max: 200 }),
          async (t, compression, version, rowGroup) => {
            // DuckDB reads BYTE_STREAM_SPLIT only for floats
            const cols = t.cols.map((c) =>
              c.encoding === 'BYTE_STREAM_SPLIT' && c.kind !== 'double' && c.kind !== 'float'
                ? { ...c, encoding: undefined }
                : c,
            );
            const bytes = write({ ...t, cols });
            if (!bytes || t.cols.length === 0) return;
            const src = join(dir, `in${n}.parquet`);
            const out = join(dir, `out${n++}.parquet`);
            writeFileSync(src, bytes);
            // extra columns in the types DuckDB writes: DATE (INT32 days), TIMESTAMP_NS / _MS, small ints
            const extra = t.cols.some((c) => c.kind === 'timestamp')
              ? `, CAST(c${t.cols.findIndex((c) => c.kind === 'timestamp')} AS DATE) AS d, CAST(c${t.cols.findIndex((c) => c.kind === 'timestamp')} AS TIMESTAMP_NS) AS ns, CAST(c${t.cols.findIndex((c) => c.kind === 'timestamp')} AS TIMESTAMP_MS) AS ms, CAST(c${t.cols.findIndex((c) => c.kind === 'timestamp')} AS TIMESTAMP) AS us`
              : '';
            await duck.run(
              `COPY (SELECT *${extra} FROM '${src}') TO '${out}' (FORMAT parquet, COMPRESSION ${compression}, PARQUET_VERSION ${version}, ROW_GROUP_SIZE ${rowGroup})`,
            );
            expect(await both(new Uint8Array(readFileSync(out)))).toBeNull();
          },
        ),
        { numRuns: 40 },
      );
      expect(n).toBeGreaterThan(20);
      // DuckDB's V2 pages use DELTA encodings; DELTA_BYTE_ARRAY text goes to the hyparquet path
      expect(share.columnar / share.all).toBeGreaterThan(0.7);
    }, 180_000);

    it('a table like the benchmark one (dictionary pages, PLAIN for high cardinality, many row groups)', async () => {
      const out = join(dir, 'bench.parquet');
      await duck.run(`COPY (SELECT 'U' || (i * 7919) AS uei, ['DOD','HHS','NSF'][1 + i % 3] AS agency, 'Company ' || (i % 5000) AS company, CASE WHEN i % 7 = 0 THEN NULL ELSE CAST(i * 37.5 AS DOUBLE) END AS amount,
        DATE '1960-01-01' + CAST(i % 30000 AS INTEGER) AS start, i % 3 = 0 AS active, CAST(i % 500 AS SMALLINT) AS employees, CAST(i AS UBIGINT) AS u64, CAST(i AS UINTEGER) AS u32,
        CASE WHEN i % 5 = 0 THEN NULL ELSE 'note ' || (i % 100) END AS note FROM range(30000) r(i)) TO '${out}' (FORMAT parquet, ROW_GROUP_SIZE 7000)`);
      share.columnar = share.all = 0;
      expect(await both(new Uint8Array(readFileSync(out)))).toBeNull();
      expect(share).toEqual({ columnar: 10, all: 10 });
    }, 60_000);
  });
});
