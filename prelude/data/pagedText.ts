/**
 * Long text (Abstract: hundreds of MB in the real file) fetched in pages of rows when the runtime
 * offers `bridge.fetchColumnRange`: only the pages a run touches cross into the isolate, and at
 * most PAGE_BUDGET_BYTES of raw text stay cached (least recently used pages are dropped, with
 * their decoded strings). A full scan streams through the column in bounded memory.
 */
import type { ColumnData } from '../../schema/columnar.js';
import { utf8Decode } from '../polyfills/utf8.js';
import { MathMin, undefinedArray } from '../intrinsics.js';

/** Rows per page (a power of two: row >> PAGE_SHIFT is the page). */
export const PAGE_SHIFT = 12;
const PAGE_ROWS = 1 << PAGE_SHIFT;
/** Raw UTF-8 bytes kept cached per column. */
export const PAGE_BUDGET_BYTES = 32 * 1024 * 1024;

/** Rows [start, end) of a utf8 column, offsets rebased to 0 (bridge.fetchColumnRange). */
export type FetchRange = (start: number, end: number) => ColumnData;

type Utf8 = { bytes: Uint8Array; offsets: Int32Array; valid: Uint8Array };
interface Page {
  data: Utf8;
  strings: Array<string | null | undefined>;
}

/** A paged text column: `get(row)` for Arquero, `pages()`/`text(row)` for the data card. */
export function pagedText(numRows: number, fetchRange: FetchRange) {
  const cache = new Map<number, Page>(); // insertion order = recency
  let bytes = 0;
  // the page of the previous access: a scan touches one page 4,096 times in a row, and the LRU
  // bookkeeping below (three Map operations) is only needed when the page changes
  let lastIndex = -1;
  let last: Page | undefined;
  const page = (p: number): Page => {
    if (p === lastIndex && last) return last;
    let pg = cache.get(p);
    lastIndex = p;
    if (pg) {
      cache.delete(p);
      cache.set(p, pg);
      last = pg;
      return pg;
    }
    const start = p * PAGE_ROWS;
    const end = MathMin(numRows, start + PAGE_ROWS);
    const data = fetchRange(start, end);
    if (data.kind !== 'utf8' || data.valid.length !== end - start)
      throw new Error(`fetchColumnRange returned ${data.kind} data of the wrong length for rows ${start}..${end}`);
    pg = { data, strings: undefinedArray<string | null>(end - start) };
    cache.set(p, pg);
    bytes += data.bytes.byteLength;
    while (bytes > PAGE_BUDGET_BYTES && cache.size > 1) {
      const [oldest, old] = cache.entries().next().value as [number, Page];
      cache.delete(oldest);
      bytes -= old.data.bytes.byteLength;
    }
    last = pg;
    return pg;
  };
  const get = (row: number): string | null | undefined => {
    if (!(row >= 0 && row < numRows) || row !== (row | 0)) return undefined;
    const pg = page(row >> PAGE_SHIFT);
    const i = row & (PAGE_ROWS - 1);
    let s = pg.strings[i];
    if (s === undefined) {
      const d = pg.data;
      s = d.valid[i] ? utf8Decode(d.bytes, d.offsets[i], d.offsets[i + 1]) : null;
      pg.strings[i] = s;
    }
    return s;
  };
  return {
    get,
    text: (row: number) => get(row) ?? null,
    *pages(): Iterable<{ start: number; data: Utf8 }> {
      for (let p = 0; p * PAGE_ROWS < numRows; p++) yield { start: p * PAGE_ROWS, data: page(p).data };
    },
  };
}
