import type { ColumnarTable } from '../../../schema/columnar.js';
import { DataError } from '../errors.js';

/** JavaScript's Date range: ±8.64e15 ms around 1970 (years -271821 to 275760). */
export const MAX_DATE_MS = 8.64e15;

/**
 * Refuse a decoded table whose date column holds a time JavaScript cannot represent (a Parquet
 * or Arrow timestamp beyond ±8.64e15 ms): in the sandbox it would be an Invalid Date, printed as
 * "Invalid Date" or a null nobody asked for. The error names the column, the row and the value.
 * @throws {DataError} DATA_OUT_OF_RANGE.
 * @example checkDateRange(table, 'events.parquet')
 */
export function checkDateRange(table: ColumnarTable, file: string): void {
  for (const c of table.columns) {
    if (c.data.kind !== 'float64' || c.data.type !== 'date') continue;
    const { values, valid } = c.data;
    for (let i = 0; i < values.length; i++) {
      const v = values[i]!;
      if (valid[i] && !(v >= -MAX_DATE_MS && v <= MAX_DATE_MS)) {
        throw new DataError(
          'DATA_OUT_OF_RANGE',
          `${file}: column '${c.name}' row ${i + 1} holds a time of ${v} ms since 1970, outside JavaScript's date range (±8.64e15 ms, years -271821 to 275760)`,
          {
            hint: 'Fix or drop that value, or store the column as integers or text before loading the file.',
          },
        );
      }
    }
  }
}
