/** Real Parquet / Arrow files built by tests (hyparquet-writer, flechette), for loaders and attacks. */
import {
  bool,
  columnFromArray,
  float64,
  int64,
  tableFromColumns,
  tableToIPC,
  timestamp,
  TimeUnit,
  utf8,
} from '@uwdata/flechette';
import { parquetWriteBuffer } from 'hyparquet-writer';

/** A small portfolio table: agencies matching the synthetic sample, nulls, a large integer, unicode, dates. */
export const PORTFOLIO = {
  Agency: ['Department of Defense', 'National Science Foundation', null, 'Département ü 日本'],
  target: [5, 2, 7, null],
  big: [9007199254740993n, 12345678901n, null, -42n],
  when: [
    new Date(Date.UTC(2021, 0, 2)),
    null,
    new Date(Date.UTC(1999, 11, 31, 23, 59, 59)),
    new Date(Date.UTC(2030, 5, 1)),
  ],
  flag: [true, false, null, true],
};

/** PORTFOLIO as Parquet bytes (SNAPPY by default). */
export function portfolioParquet(
  opts: { codec?: 'SNAPPY' | 'UNCOMPRESSED' | 'GZIP'; rowGroupSize?: number } = {},
): Uint8Array {
  return new Uint8Array(
    parquetWriteBuffer({
      columnData: [
        { name: 'Agency', data: PORTFOLIO.Agency, type: 'STRING' },
        { name: 'target', data: PORTFOLIO.target, type: 'INT32' },
        { name: 'big', data: PORTFOLIO.big, type: 'INT64' },
        { name: 'when', data: PORTFOLIO.when, type: 'TIMESTAMP' },
        { name: 'flag', data: PORTFOLIO.flag, type: 'BOOLEAN' },
      ],
      ...(opts.codec ? { codec: opts.codec } : {}),
      ...(opts.rowGroupSize ? { rowGroupSize: opts.rowGroupSize } : {}),
    }),
  );
}

/** PORTFOLIO as an Arrow IPC file (or stream). */
export function portfolioArrow(format: 'file' | 'stream' = 'file'): Uint8Array {
  const t = tableFromColumns({
    Agency: columnFromArray(PORTFOLIO.Agency, utf8()),
    target: columnFromArray(PORTFOLIO.target, float64()),
    big: columnFromArray(PORTFOLIO.big, int64()),
    when: columnFromArray(
      PORTFOLIO.when.map((d) => (d ? d.getTime() : null)),
      timestamp(TimeUnit.MILLISECOND),
    ),
    flag: columnFromArray(PORTFOLIO.flag, bool()),
  });
  return tableToIPC(t, { format })!;
}

/**
 * A large UNCOMPRESSED Parquet file for the split-decode tests (about 40 bytes a row): unique ids,
 * repeated names with nulls, doubles, dates, booleans with nulls (`flag`, when asked) and small ints.
 */
export function largeParquet(rows: number, opts: { rowGroupSize: number; flag: boolean }): Uint8Array {
  const flag = {
    name: 'flag',
    data: Array.from({ length: rows }, (_, i) => (i % 11 === 0 ? null : i % 3 === 0)),
    type: 'BOOLEAN',
  } as const;
  return new Uint8Array(
    parquetWriteBuffer({
      columnData: [
        {
          name: 'id',
          data: Array.from({ length: rows }, (_, i) => `ID-${(i * 7919).toString(36)}`),
          type: 'STRING',
          encoding: 'PLAIN',
        },
        {
          name: 'name',
          data: Array.from({ length: rows }, (_, i) => (i % 9 === 0 ? null : `Company ${i % 20_000} Ünïcode`)),
          type: 'STRING',
          encoding: 'PLAIN',
        },
        {
          name: 'amount',
          data: Array.from({ length: rows }, (_, i) => (i % 5 === 0 ? null : i * 1.5)),
          type: 'DOUBLE',
        },
        {
          name: 'when',
          data: Array.from({ length: rows }, (_, i) => new Date(Date.UTC(2000, 0, 1) + (i % 9000) * 86_400_000)),
          type: 'TIMESTAMP',
        },
        ...(opts.flag ? [flag] : []),
        { name: 'small', data: Int32Array.from({ length: rows }, (_, i) => i % 500), type: 'INT32' },
      ],
      codec: 'UNCOMPRESSED',
      rowGroupSize: opts.rowGroupSize,
    }),
  );
}
