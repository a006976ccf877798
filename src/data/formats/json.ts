import type { ColumnarTable } from '../../../schema/columnar.js';
import { DataError } from '../errors.js';
import { tableFromRows } from '../tables.js';
import type { DecodeCaps } from './decodeCaps.js';
import { checkColumnNames } from './checkColumnNames.js';
import { exactNumbersAsText } from './exactJsonNumbers.js';

const HINT = 'Give a JSON array of objects ([{"a": 1}, {"a": 2}]) or NDJSON (one object per line).';

/**
 * A JSON array of row objects, or NDJSON (one object per line), as a columnar table. Columns are
 * the union of keys; types are inferred over all rows like row tables (tableFromRows). Dates stay
 * ISO strings (convert them in the guest with to_datetime). A number JSON.parse would change (an
 * integer beyond ±(2^53 - 1), `1e400`, `1e-400`) is kept as its exact text, which makes its column
 * a string column (exactJsonNumbers.ts; docs/dataset.md).
 * @throws {DataError} DATA_CORRUPT (bad JSON, with its line), DATA_UNSUPPORTED (not rows), DATA_TOO_LARGE.
 * @example decodeJson('goals', Buffer.from('[{"agency":"DOD","target":5}]'), 'goals.json', caps, 'json');
 */
export function decodeJson(
  name: string,
  bytes: Uint8Array,
  file: string,
  caps: DecodeCaps,
  format: 'json' | 'ndjson',
): ColumnarTable {
  // numbers a double would change (beyond 2^53, out of range) are kept as their exact text
  const text = exactNumbersAsText(new TextDecoder('utf-8', { fatal: false }).decode(bytes), caps.maxJsonDepth, file);
  const rows = format === 'ndjson' ? ndjsonRows(text, file) : jsonRows(text, file);
  if (rows.length > caps.maxRows)
    throw new DataError('DATA_TOO_LARGE', `${file}: ${rows.length} rows, more than ${caps.maxRows}`, {
      hint: 'Filter the data before loading it.',
    });
  checkShape(rows, file, caps);
  return tableFromRows(name, rows);
}

function jsonRows(text: string, file: string): object[] {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new DataError('DATA_CORRUPT', `${file}: not valid JSON (${(err as Error).message})`, { hint: HINT });
  }
  // { "rows": [...] } and { "data": [...] } are common wrappers
  if (data && typeof data === 'object' && !Array.isArray(data)) {
    const inner = (data as Record<string, unknown>).rows ?? (data as Record<string, unknown>).data;
    if (Array.isArray(inner)) data = inner;
  }
  if (!Array.isArray(data))
    throw new DataError(
      'DATA_UNSUPPORTED',
      `${file}: the JSON is a ${data === null ? 'null' : typeof data}, not an array of row objects`,
      { hint: HINT },
    );
  checkRows(data, file, (i) => `item ${i}`);
  return data as object[];
}

function ndjsonRows(text: string, file: string): object[] {
  const rows: object[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].trim();
    if (!line) continue;
    try {
      rows.push(JSON.parse(line) as object);
    } catch (err) {
      throw new DataError('DATA_CORRUPT', `${file}: line ${i + 1} is not valid JSON (${(err as Error).message})`, {
        hint: HINT,
      });
    }
  }
  checkRows(rows, file, (i) => `row ${i + 1}`);
  return rows;
}

/**
 * Bound the work before the table is built: every key of every row is a column, filled for every
 * row, so rows x columns is the work (rows that each name new keys make it quadratic).
 */
function checkShape(rows: object[], file: string, caps: DecodeCaps): void {
  const keys = new Set<string>();
  for (const row of rows) {
    for (const k in row) {
      if (!Object.hasOwn(row, k)) continue;
      keys.add(k);
      if (keys.size > caps.maxColumns) checkColumnNames([...keys], file, caps);
    }
  }
  if (rows.length * keys.size > caps.maxJsonCells) {
    throw new DataError(
      'DATA_TOO_LARGE',
      `${file}: ${rows.length} rows x ${keys.size} columns is ${rows.length * keys.size} cells, more than ${caps.maxJsonCells}`,
      {
        hint: 'Select the columns you need before writing the file, or use Parquet or Arrow for a table this large.',
      },
    );
  }
  checkColumnNames([...keys], file, caps);
}

function checkRows(rows: unknown[], file: string, where: (i: number) => string): void {
  const bad = rows.findIndex((r) => r === null || typeof r !== 'object' || Array.isArray(r));
  if (bad >= 0) throw new DataError('DATA_UNSUPPORTED', `${file}: ${where(bad)} is not an object`, { hint: HINT });
}
