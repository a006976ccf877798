/**
 * A table as Parquet bytes, written inside the isolate with hyparquet-writer (pure JS, bundled):
 * integers as INT64, numbers DOUBLE, dates TIMESTAMP (ms, UTC), booleans BOOLEAN, text UTF-8
 * strings (objects as JSON text), SNAPPY pages, row groups of 100,000 rows.
 */
import { parquetWriteBuffer } from 'hyparquet-writer';
import type { FileColumn } from './columnsOf.js';
import { textOf } from './columnsOf.js';

/** The Parquet bytes of the columns. */
export function parquetBytes(columns: FileColumn[], numRows: number): Uint8Array {
  const columnData = columns.map((c) => {
    const n = numRows;
    const v = c.values;
    switch (c.kind) {
      case 'integer': {
        const out: Array<bigint | null> = new Array(n);
        for (let i = 0; i < n; i++) out[i] = v[i] === null || v[i] === undefined ? null : BigInt(v[i] as number | bigint);
        return { name: c.name, data: out, type: 'INT64' as const };
      }
      case 'number': {
        const out: Array<number | null> = new Array(n);
        for (let i = 0; i < n; i++) out[i] = typeof v[i] === 'number' && Number.isFinite(v[i] as number) ? (v[i] as number) : typeof v[i] === 'bigint' ? Number(v[i]) : null;
        return { name: c.name, data: out, type: 'DOUBLE' as const };
      }
      case 'date': {
        const out: Array<Date | null> = new Array(n);
        for (let i = 0; i < n; i++) out[i] = v[i] instanceof Date && !Number.isNaN((v[i] as Date).getTime()) ? (v[i] as Date) : null;
        return { name: c.name, data: out, type: 'TIMESTAMP' as const };
      }
      case 'boolean': {
        const out: Array<boolean | null> = new Array(n);
        for (let i = 0; i < n; i++) out[i] = v[i] === null || v[i] === undefined ? null : !!v[i];
        return { name: c.name, data: out, type: 'BOOLEAN' as const };
      }
      default: {
        const out: Array<string | null> = new Array(n);
        for (let i = 0; i < n; i++) out[i] = textOf(v[i]);
        return { name: c.name, data: out, type: 'STRING' as const };
      }
    }
  });
  const buf = parquetWriteBuffer({ columnData, rowGroupSize: 100_000, statistics: true, createdBy: 'sbirtools' });
  return new Uint8Array(buf);
}
