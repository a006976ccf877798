import {
  bool,
  columnFromArray,
  dictionary,
  float64,
  int64,
  tableFromColumns,
  tableToIPC,
  timestamp,
  TimeUnit,
  utf8,
} from '@uwdata/flechette';
import { parquetWriteBuffer } from 'hyparquet-writer';
import type { ColumnData, ColumnType } from '../../../schema/columnar.js';
import { columnValues } from './columnValues.js';

/** A column to encode: its name, type and transfer data. */
export interface EncodeColumn {
  name: string;
  type: ColumnType;
  data: ColumnData;
}

/** The formats `sbirtools export` writes. */
export type ExportFormat = 'parquet' | 'arrow' | 'csv';

/**
 * Encode columns as a Parquet file (hyparquet-writer: integers INT64, numbers DOUBLE, dates
 * TIMESTAMP ms UTC, strings UTF-8, SNAPPY, row groups of 100,000 rows), an Arrow IPC file
 * (flechette: dictionary-coded strings stay dictionaries) or CSV (header, nulls empty, dates ISO-8601).
 * @example const bytes = encodeTable(columns, 'parquet');
 */
export function encodeTable(columns: EncodeColumn[], format: ExportFormat): Uint8Array {
  if (format === 'csv') return Buffer.from([...csvChunks(columns)].join(''));
  if (format === 'arrow') {
    const cols: Record<string, ReturnType<typeof columnFromArray>> = {};
    for (const c of columns) cols[c.name] = columnFromArray(columnValues(c.data), arrowType(c));
    return tableToIPC(tableFromColumns(cols), { format: 'file' })!;
  }
  const columnData = columns.map((c) => {
    const values = columnValues(c.data);
    if (c.type === 'integer')
      return {
        name: c.name,
        data: values.map((v) => (v === null ? null : BigInt(v as number))),
        type: 'INT64' as const,
      };
    if (c.type === 'number') return { name: c.name, data: values, type: 'DOUBLE' as const };
    if (c.type === 'date') return { name: c.name, data: values, type: 'TIMESTAMP' as const };
    if (c.type === 'boolean') return { name: c.name, data: values, type: 'BOOLEAN' as const };
    return { name: c.name, data: values, type: 'STRING' as const };
  });
  return new Uint8Array(parquetWriteBuffer({ columnData, rowGroupSize: 100_000, createdBy: 'sbirtools' }));
}

function arrowType(c: EncodeColumn) {
  if (c.type === 'integer') return int64();
  if (c.type === 'number') return float64();
  if (c.type === 'date') return timestamp(TimeUnit.MILLISECOND);
  if (c.type === 'boolean') return bool();
  return c.data.kind === 'dict' ? dictionary(utf8()) : utf8();
}

/** Text a spreadsheet would run as a formula (`=`, `+`, `-`, `@`, tab, CR first), unless it is a plain number such as `-5`. */
export const isFormulaText = (s: string): boolean =>
  /^[=+\-@\t\r]/.test(s) && !/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(s);

/**
 * CSV text in chunks of `rowsPerChunk` rows (the first chunk starts with the header), so a large
 * table streams to a file without one giant string. With `escapeFormulas` (the default), a text
 * cell or header a spreadsheet would execute gets a leading `'` (OWASP's CSV-injection advice);
 * numbers are never touched, so -5 stays a number.
 */
export function* csvChunks(columns: EncodeColumn[], rowsPerChunk = 10_000, escapeFormulas = true): Generator<string> {
  const quote = (s: string) =>
    escapeFormulas && isFormulaText(s)
      ? `"'${s.replace(/"/g, '""')}"`
      : /[",\n\r]|^\s|\s$/.test(s)
        ? `"${s.replace(/"/g, '""')}"`
        : s;
  const values = columns.map((c) => columnValues(c.data));
  const n = values[0]?.length ?? 0;
  let lines: string[] = [columns.map((c) => quote(c.name)).join(',')];
  for (let r = 0; r < n; r++) {
    let line = '';
    for (let c = 0; c < values.length; c++) {
      const v = values[c][r];
      const text =
        v === null
          ? ''
          : v instanceof Date
            ? v.toISOString()
            : typeof v === 'number'
              ? Number.isFinite(v)
                ? String(v)
                : ''
              : quote(String(v));
      line += c ? `,${text}` : text;
    }
    lines.push(line);
    if (lines.length >= rowsPerChunk) {
      yield lines.join('\n') + '\n';
      lines = [];
    }
  }
  if (lines.length) yield lines.join('\n') + '\n';
}
