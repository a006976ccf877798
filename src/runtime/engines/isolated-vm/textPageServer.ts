import type { TextPage } from '../../../../schema/columnar.js';
import { textPage } from '../../../data/columns/textPage.js';
import { guestPageRows, guestRows } from '../guestTables.js';
import type { TableProvider } from '../engineSession.js';

/**
 * Complete passes over a column streamed page by page from the cache before a pass loads it whole
 * (as HostScan): a pass costs reading and checking the column's bytes once either way, but a
 * session that keeps reading it again (a text column larger than its isolate's cache) is then
 * served from memory.
 */
const STREAMED_PASSES = 2;

/**
 * A read of at most this many rows that does not continue a pass is the guest's window (a few rows
 * of a page no run has read: prelude/data/textPages.ts `get`), counted apart from the pages read
 * alone, and neither starts a pass nor reads ahead.
 */
const WINDOW_MAX_ROWS = 128;

/**
 * `bridge.fetchTextPage` for one session: rows [start, end) of a text column, decoded on this
 * thread into one string per row (data/columns/textPage.ts). When the guest asks for pages in order
 * (a loop over `array('Abstract')`, `objects()`, a filter: page p right after page p - 1), the next
 * page is read, checked and decoded here as soon as this one is handed over (a `setImmediate`,
 * which runs while the isolate's thread copies this page in and runs the guest's loop over it), so
 * the two threads work side by side instead of in turn. A pass in order reads each page alone from
 * the binary cache into one reused buffer (`provider.loadRows(..., reuse)`, every block checked),
 * never the whole column at once; other access keeps guestRows' rule (16 pages read alone, then
 * the column whole). A page read ahead is kept per column (a loop over two text columns reads
 * them in turn) and only ever served for the same table, column and rows.
 * @example const server = new TextPageServer(); server.page(provider, 'award_data', 'Abstract', 0, 4096);
 */
export class TextPageServer {
  /** Pages read alone out of order, per column (guestRows' count). */
  private readonly lazyPages = new Map<string, number>();
  /** Windows read, per column (guestRows' count, apart: a window does not use up the pages read alone). */
  private readonly windowReads = new Map<string, number>();
  /** Rows streamed in order, per column. */
  private readonly streamed = new Map<string, number>();
  /** Where the last page of each column ended: a page starting there continues a pass. */
  private readonly lastEnd = new Map<string, number>();
  /** Per column, the page read ahead and not yet asked for (a loop may read several columns in turn). */
  private readonly ahead = new Map<string, { start: number; end: number; page: TextPage }>();
  private readonly pending = new Map<string, ReturnType<typeof setImmediate>>();
  /** Pages served from a read ahead (for tests and benchmarks). */
  readAheadHits = 0;

  page(provider: TableProvider, table: string, column: string, start: number, end: number): TextPage {
    const key = `${table}\u0000${column}`;
    // a few rows that do not continue a pass (a pass's last page may be as short)
    if (end - start <= WINDOW_MAX_ROWS && this.lastEnd.get(key) !== start) {
      const r = guestRows(provider, table, column, start, end, this.windowReads);
      return textPage(r.data, r.start, r.end);
    }
    this.cancel(key);
    const ahead = this.ahead.get(key);
    this.ahead.delete(key);
    const inOrder = start > 0 && this.lastEnd.get(key) === start;
    this.lastEnd.set(key, end);
    let page: TextPage;
    if (ahead && ahead.start === start && ahead.end === end) {
      page = ahead.page;
      this.readAheadHits++;
    } else {
      const streamedPage = inOrder ? this.streamedPage(provider, table, column, key, start, end) : null;
      if (streamedPage) page = streamedPage;
      else {
        const r = guestRows(provider, table, column, start, end, this.lazyPages);
        page = textPage(r.data, r.start, r.end);
      }
    }
    const n = provider.meta.numRows;
    if (inOrder && end < n && end > start) {
      const next = Math.min(n, end + (end - start));
      this.pending.set(
        key,
        setImmediate(() => {
          this.pending.delete(key);
          let got: TextPage | null = null;
          try {
            got = this.streamedPage(provider, table, column, key, end, next);
          } catch {
            // the guest's own request reads this page again and reports the failure to it
          }
          if (got) this.ahead.set(key, { start: end, end: next, page: got });
        }),
      );
    }
    return page;
  }

  /** Drops the reads ahead not yet served (end of the session). Idempotent. */
  close(): void {
    for (const key of [...this.pending.keys()]) this.cancel(key);
    this.ahead.clear();
  }

  private cancel(key: string): void {
    const p = this.pending.get(key);
    if (p) clearImmediate(p);
    this.pending.delete(key);
  }

  /** The page read alone from the cache and decoded, or null when the provider cannot (or two passes were streamed). */
  private streamedPage(
    provider: TableProvider,
    table: string,
    column: string,
    key: string,
    start: number,
    end: number,
  ): TextPage | null {
    const seen = this.streamed.get(key) ?? 0;
    if (!provider.loadRows || seen >= STREAMED_PASSES * provider.meta.numRows) return null;
    // reuse: decoded into strings below, before the next read overwrites the buffer
    const rows = guestPageRows(provider, table, column, start, end);
    const page = rows ? textPage(rows, 0, end - start) : null;
    if (page) this.streamed.set(key, seen + (end - start));
    return page;
  }
}
