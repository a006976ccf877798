import type { ColumnData, ColumnarTable, TableMeta } from '../../schema/columnar.js';
import type { DatasetInfo } from '../../schema/result.js';
import { buildDataCard, type DataCard } from '../../schema/dataCard.js';

export type { ColumnCard, DataCard } from '../../schema/dataCard.js';

/** A table in transfer form, or anything that serves its columns by name (a Dataset). */
export type CardSource = ColumnarTable | { meta: TableMeta; info?: DatasetInfo; loadColumn(name: string): ColumnData };

const decoder = new TextDecoder();
const decode = (bytes: Uint8Array, start: number, end: number) => decoder.decode(bytes.subarray(start, end));

/**
 * The data card of a table, computed on the host from its columnar form: the same pure function
 * (schema/dataCard.ts) that `describeData()` runs inside the isolate, so both agree.
 * Loads every column of a Dataset (long text is hashed, never decoded in bulk).
 * @param dataset identity of the data; defaults to the Dataset's own `info`
 * @example const card = dataCard(await openDataset(resolveDataSource())); console.log(card.summary);
 */
export function dataCard(source: CardSource, dataset?: DatasetInfo): DataCard {
  if ('meta' in source) {
    const { meta } = source;
    const columns = meta.columns.map((c) => ({ name: c.name, type: c.type, data: source.loadColumn(c.name) }));
    return buildDataCard({ table: meta.name, numRows: meta.numRows, columns, dataset: dataset ?? source.info, decode });
  }
  const columns = source.columns.map((c) => ({ name: c.name, type: c.type, data: c.data }));
  return buildDataCard({ table: source.name, numRows: source.numRows, columns, dataset, decode });
}
