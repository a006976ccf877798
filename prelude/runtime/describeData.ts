/** describeData(): the data card of a host table, computed in the isolate from the raw columns. */
import type { ColumnTable } from 'arquero';
import { buildDataCard, type CardDataset, type DataCard } from '../../schema/dataCard.js';
import { LazyColumn } from '../data/lazyColumn.js';
import { GuestError } from '../errors/guestError.js';
import { utf8Decode } from '../polyfills/utf8.js';

/**
 * Makes the describeData global over the host tables (the card is cached per table).
 * @example describeData().summary
 */
export function makeDescribeData(
  tables: Record<string, ColumnTable>,
  dataset: CardDataset | undefined,
): (name?: string) => DataCard {
  const cache = new Map<string, DataCard>();
  return (name = 'award_data') => {
    const t = tables[name];
    if (!t) throw new GuestError('KeyError', `Unknown table '${name}'`, `Tables: ${Object.keys(tables).join(', ')}.`);
    let card = cache.get(name);
    if (!card) {
      // host columns only: a column the session added (t['x'] = ...) is not part of the dataset's card
      const columns = t
        .columnNames()
        .filter((c) => t.column(c) instanceof LazyColumn)
        .map((c) => {
          const col = t.column(c) as unknown as LazyColumn;
          return { name: c, type: col.type, data: col.data() };
        });
      card = buildDataCard({
        table: name,
        numRows: t.numRows(),
        columns,
        dataset: name === 'award_data' ? dataset : undefined,
        decode: utf8Decode,
      });
      cache.set(name, card);
    }
    return structuredCopy(card);
  };
}

// the caller may mutate what it gets; keep the cached card intact
function structuredCopy(card: DataCard): DataCard {
  return {
    ...card,
    dataset: card.dataset && { ...card.dataset },
    columns: card.columns.map((c) => ({ ...c, top: c.top?.map((x) => ({ ...x })) })),
  };
}
