import { resolve } from 'node:path';
import type { ColumnarTable } from '../../schema/columnar.js';
import { columnFromValues } from './columns/fromValues.js';
import { USER_MAX_DICT_SIZE } from './columns/dictEncode.js';
import { compactColumn } from './columns/compactTable.js';
import { releaseParts } from './columns/releaseBuffers.js';
import { ingestCsvInParts } from './ingest/csvInParts.js';
import { checkColumnNames } from './formats/checkColumnNames.js';
import { DEFAULT_DECODE_CAPS } from './formats/decodeCaps.js';

/**
 * A user table from a CSV file: typed by the SBIR schema when its header is an SBIR award
 * header, otherwise by inference over all rows (see docs/dataset.md, "User tables"). Text stays
 * dictionary codes up to USER_MAX_DICT_SIZE distinct values, as in Parquet and Arrow tables, so a
 * company name over millions of rows is counted, searched and sorted on codes. A file of 32 MiB or
 * more is parsed on two threads, into the same table (csvInParts.ts).
 * @throws {DataError} DATA_NOT_FOUND, DATA_EMPTY, DATA_NOT_CSV, DATA_DECODE_FAILED (the second thread failed).
 * @example const t = await tableFromCsv('budgets', './budgets.csv');
 */
export async function tableFromCsv(name: string, path: string): Promise<ColumnarTable> {
  const { table } = await ingestCsvInParts(resolve(path), { name, maxDictSize: USER_MAX_DICT_SIZE });
  // each column made tight (its builder's spare room, or a text column's resizable store, copied
  // out), then the parse's own arrays given back at once: nothing else holds them, and left to the
  // next collection they would sit beside the whole table (a long text column twice, at the peak).
  // A plain buffer is given back when this thread next turns its event loop (releaseBuffers.ts):
  // one turn after each column, so each column's copy is made once the ones before are freed.
  const columns: ColumnarTable['columns'] = [];
  for (const c of table.columns) {
    const data = compactColumn(c.data);
    releaseParts([c.data], data);
    columns.push({ ...c, data });
    await new Promise((turned) => setImmediate(turned));
  }
  return { ...table, columns };
}

/**
 * A user table from row objects: columns are the union of keys in first-seen order; each
 * column's type is inferred over all rows (a missing key is null; Date objects become 'date').
 * Column names are kept exactly; an empty, over-long or excess column is refused (checkColumnNames).
 * @throws {TypeError} when `rows` is not an array of objects.
 * @example tableFromRows('goals', [{ agency: 'DOD', target: 5 }, { agency: 'NSF', target: 2 }]);
 */
export function tableFromRows(name: string, rows: object[]): ColumnarTable {
  if (!Array.isArray(rows))
    throw new TypeError(`Expected the rows of table \`${name}\` to be an array of objects, got \`${typeof rows}\``);
  const keys = new Map<string, true>();
  rows.forEach((row, i) => {
    if (row === null || typeof row !== 'object')
      throw new TypeError(
        `Expected row ${i} of table \`${name}\` to be an object, got \`${row === null ? 'null' : typeof row}\``,
      );
    for (const k of Object.keys(row)) keys.set(k, true);
  });
  checkColumnNames([...keys.keys()], `table ${name}`, DEFAULT_DECODE_CAPS);
  const columns = [...keys.keys()].map((key) => {
    // an own property only: a row without `constructor` must not give Object's constructor
    const data = columnFromValues(
      rows.map((r) => (Object.hasOwn(r, key) ? (r as Record<string, unknown>)[key] : undefined)),
    );
    return { name: key, type: data.type, kind: data.kind, data };
  });
  return { name, numRows: rows.length, columns };
}

/** The parts of an Arquero ColumnTable this module uses. */
export interface ArqueroLike {
  columnNames(): string[];
  numRows(): number;
  array(name: string): ArrayLike<unknown>;
}

/**
 * A user table from an Arquero ColumnTable (the host's `arquero` package): each column from
 * `table.array(name)`, typed over all its values like {@link tableFromRows}.
 * @throws {TypeError} when `table` is not an Arquero table.
 * @example tableFromArquero('t', aq.table({ x: [1, 2, 3] }));
 */
export function tableFromArquero(name: string, table: ArqueroLike): ColumnarTable {
  if (!table || typeof table.columnNames !== 'function' || typeof table.array !== 'function') {
    throw new TypeError(
      `Expected table \`${name}\` to be an Arquero table (aq.table(...)), a CSV path or an array of row objects`,
    );
  }
  checkColumnNames(table.columnNames(), `table ${name}`, DEFAULT_DECODE_CAPS);
  const columns = table.columnNames().map((col) => {
    const data = columnFromValues(table.array(col));
    return { name: col, type: data.type, kind: data.kind, data };
  });
  return { name, numRows: table.numRows(), columns };
}
