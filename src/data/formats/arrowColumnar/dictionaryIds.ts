import type { ArrowBatch, ArrowDictionary } from './arrowBatch.js';
import { checkBatches } from './checkBatches.js';
import { textBatch } from './textBatch.js';
import { textRow } from './textRow.js';
import type { ValueTable } from './valueTable.js';

/**
 * For each entry of an Arrow text dictionary, the id of its value in `table` (-1 for a null
 * entry), so that equal values get one id across replacement and delta dictionaries. Each
 * dictionary batch is read once (`seen` keeps its ids: a delta dictionary shares its first
 * batches with the dictionary it extends).
 * @throws {DataError} DATA_CORRUPT when a dictionary batch is damaged.
 * @example const ids = dictionaryIds(batch.dictionary, table, seen, 't.arrow', 'agency');
 */
export function dictionaryIds(dict: ArrowDictionary, table: ValueTable, seen: Map<ArrowBatch, Int32Array>, file: string, column: string): Int32Array {
  const parts = dict.data.map((batch) => {
    let ids = seen.get(batch);
    if (!ids) {
      const label = `${column} (dictionary)`;
      checkBatches([batch], [batch.length], file, label);
      const tb = textBatch(batch, 0, file, label);
      ids = new Int32Array(tb.n);
      for (let i = 0; i < tb.n; i++) ids[i] = tb.valid[i] ? table.add(textRow(tb, i)) : -1;
      seen.set(batch, ids);
    }
    return ids;
  });
  if (parts.length === 1) return parts[0];
  const all = new Int32Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    all.set(p, at);
    at += p.length;
  }
  return all;
}
