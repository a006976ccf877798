import type { ColumnarTable } from '../../schema/columnar.js';
import type { DatasetInfo } from '../../schema/result.js';
import { compactColumn } from './columns/compactTable.js';
import { DataError } from './errors.js';
import type { IngestReport } from './ingest/report.js';
import type { Dataset } from './dataset.js';

/** A Dataset over a table held in memory (used when the binary cache cannot be written). */
export function memoryDataset(table: ColumnarTable, info: DatasetInfo, report: IngestReport): Dataset {
  const byName = new Map(table.columns.map((c) => [c.name, c.data]));
  return {
    info,
    meta: {
      name: table.name,
      numRows: table.numRows,
      columns: table.columns.map(({ name, type, kind }) => ({ name, type, kind })),
    },
    report,
    loadColumn(name) {
      const data = byName.get(name);
      if (!data) {
        throw new DataError(
          'COLUMN_NOT_FOUND',
          `${table.name} has no column ${JSON.stringify(name)}. Its columns are: ${[...byName.keys()].map((n) => JSON.stringify(n)).join(', ')}.`,
        );
      }
      const tight = compactColumn(data);
      byName.set(name, tight);
      return tight;
    },
    close() {},
  };
}
