/** Real Parquet / Arrow files built by tests (hyparquet-writer, flechette), for loaders and attacks. */
import { bool, columnFromArray, float64, int64, tableFromColumns, tableToIPC, timestamp, TimeUnit, utf8 } from '@uwdata/flechette';
import { parquetWriteBuffer } from 'hyparquet-writer';

/** A small portfolio table: agencies matching the synthetic sample, nulls, a large integer, unicode, dates. */
export const PORTFOLIO = {
  Agency: ['Department of Defense', 'National Science Foundation', null, 'Département ü 日本'],
  target: [5, 2, 7, null],
  big: [9007199254740993n, 12345678901n, null, -42n],
  when: [new Date(Date.UTC(2021, 0, 2)), null, new Date(Date.UTC(1999, 11, 31, 23, 59, 59)), new Date(Date.UTC(2030, 5, 1))],
  flag: [true, false, null, true],
};

/** PORTFOLIO as Parquet bytes (SNAPPY by default). */
export function portfolioParquet(opts: { codec?: 'SNAPPY' | 'UNCOMPRESSED' | 'GZIP'; rowGroupSize?: number } = {}): Uint8Array {
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
    when: columnFromArray(PORTFOLIO.when.map((d) => (d ? d.getTime() : null)), timestamp(TimeUnit.MILLISECOND)),
    flag: columnFromArray(PORTFOLIO.flag, bool()),
  });
  return tableToIPC(t, { format })!;
}
