/**
 * A long text column read through `bridge.fetchTextPage`: the host decodes a page of rows with
 * Node's native decoders into one string per row (schema/columnar.ts `TextPage`), so no UTF-8 is
 * decoded in the isolate. Decoded pages stay in the session's TextCache between runs.
 */
import type { TextPage, TextScanRequest } from '../../schema/columnar.js';
import { ArrayIsArray, MathMin, SafeMap } from '../intrinsics.js';
import { PAGE_SHIFT } from './pagedText.js';
import type { CachedPage, Slot, TextCache } from './textCache.js';
import { keepScan, keptScan, scanColumnId, scanKey } from './keptScans.js';

const PAGE_ROWS = 1 << PAGE_SHIFT;
const WINDOW_SHIFT = 7;
/** Rows per window: a row read alone (`get`) from a page no run has read fetches only its window. */
const WINDOW_ROWS = 1 << WINDOW_SHIFT;
/** Windows read per column before `get` reads whole pages again (at most ~2.9 MB of the SBIR abstracts). */
const MAX_WINDOWS = 16;
/**
 * Reads of one window after which the window that follows it reads its page instead: a pass in
 * order reads every row of a window; the first rows of a filtered table (`objects({ limit })`) a
 * few of each, and those stay windows (a page of every column they read was most of such a run).
 */
const DENSE_READS = WINDOW_ROWS / 4;
/** Heap cost of one row beyond its characters: the string header and its array slot. */
const ROW_OVERHEAD_BYTES = 24;

/** Rows [start, end) of a utf8 column, decoded by the host (bridge.fetchTextPage). */
export type FetchTextPage = (start: number, end: number) => TextPage;

/** Rows [start, end) answered by the host from the bytes (bridge.textScan); null: the guest tests that page. */
export type ScanText = (start: number, end: number, req: TextScanRequest) => Int32Array | Uint8Array | null;

/** A text column over the shared cache: `get(row)`, `page(p)`, the whole column `copy()`, `pick(rows)`. */
export class TextPages {
  private readonly slots: Slot[];
  private lastIndex = -1;
  private last: CachedPage | null = null;
  /**
   * Rows read a window at a time (`get` of a few rows: `objects()` of a sorted table's top row
   * reads one row of every column, and a page of the abstracts is 5.7 MB): window -> its rows.
   * Not in the shared cache (at most MAX_WINDOWS per column); a page read later serves its rows.
   */
  private readonly windows = new SafeMap<number, ReadonlyArray<string | null>>();
  private lastWindow = -2;
  /** Reads served by `lastWindow` (counted until DENSE_READS). */
  private lastWindowReads = 0;
  /** This column's id among the scan answers kept for the session (keptScans.ts). */
  private readonly scanId = scanColumnId();
  /** The host's distinct count, once asked. */
  private distinctKept: [number, number] | null = null;

  constructor(
    readonly numRows: number,
    private readonly fetch: FetchTextPage,
    private readonly cache: TextCache,
    private readonly scanText?: ScanText,
  ) {
    const pages = Math.ceil(numRows / PAGE_ROWS);
    this.slots = new Array<Slot>(pages);
    for (let p = 0; p < pages; p++) this.slots[p] = { page: null, weak: null, stamp: 0, derefJob: 0 };
  }

  /** The row strings of page `p` (cached, or fetched and decoded by the host). Never hand this array out. */
  page(p: number): Array<string | null> {
    if (p === this.lastIndex && this.last) return this.last.rows;
    const slot = this.slots[p]!;
    let page = this.cache.lookup(slot);
    if (!page) {
      const start = p * PAGE_ROWS;
      const end = MathMin(this.numRows, start + PAGE_ROWS);
      const data = this.fetch(start, end);
      if (!data || data.kind !== 'text' || !ArrayIsArray(data.rows) || data.rows.length !== end - start) {
        throw new Error(`fetchTextPage returned malformed data for rows ${start}..${end}`);
      }
      // the host counts one byte per character for a row that fits Latin-1, two otherwise: a page
      // whose count equals its length in characters has no row outside Latin-1
      let chars = 0;
      for (let i = 0; i < data.rows.length; i++) {
        const r = data.rows[i];
        if (typeof r === 'string') chars += r.length;
      }
      page = {
        rows: data.rows,
        bytes: Number(data.charBytes) + (end - start) * ROW_OVERHEAD_BYTES,
        narrow: Number(data.charBytes) === chars,
      };
      this.cache.hold(slot, page);
    }
    this.lastIndex = p;
    this.last = page;
    return page.rows;
  }

  /** Whether the host can answer lengths and literal contains from the bytes (scan). */
  get scans(): boolean {
    return this.scanText !== undefined;
  }

  /**
   * Page `p`'s answer to `req` from the host's bytes, unless the page is held in the session (then
   * testing it here is cheaper than a host call): null when the guest must test the page itself.
   * `evenHeld` asks the host for a held page too: a test that reads every row's string (its length
   * at least) pays a memory access per row in the isolate, more than the host's answer from the
   * stored lengths. An answer the host gave is kept for the session (keptScans.ts) and given again,
   * held page or not, without asking. The caller only reads the array.
   */
  scan(p: number, req: TextScanRequest, evenHeld = false): Int32Array | Uint8Array | null {
    if (!this.scanText) return null;
    const key = scanKey(this.scanId, req);
    const had = keptScan(key, p);
    if (had) return had;
    if (this.slots[p]!.page && !evenHeld) return null;
    const start = p * PAGE_ROWS;
    const end = MathMin(this.numRows, start + PAGE_ROWS);
    const out = this.scanText(start, end, req);
    if (out === null || out === undefined) return null;
    const ok = req.op === 'len' || req.op === 'units' ? out instanceof Int32Array : out instanceof Uint8Array;
    if (!ok || out.length !== end - start)
      throw new Error(`textScan returned malformed data for rows ${start}..${end}`);
    keepScan(key, p, this.slots.length, out);
    return out;
  }

  /**
   * `[distinct non-null strings, 1 when a row is null else 0]` of the whole column, counted by the
   * host from the bytes (textScan `distinct`), or null when the host cannot scan the column.
   */
  distinct(): [number, number] | null {
    if (!this.scanText) return null;
    if (this.distinctKept) return [this.distinctKept[0], this.distinctKept[1]];
    const out = this.scanText(0, this.numRows, { op: 'distinct' });
    if (out === null || out === undefined) return null;
    if (!(out instanceof Int32Array) || out.length !== 2 || out[0]! < 0 || out[1]! < 0 || out[1]! > 1)
      throw new Error(`textScan returned malformed data for the distinct values of rows 0..${this.numRows}`);
    // kept: the text never changes
    this.distinctKept = [out[0]!, out[1]!];
    return [out[0]!, out[1]!];
  }

  /** True when page `p` (fetched if needed) has no row outside Latin-1: no surrogate pairs. */
  narrow(p: number): boolean {
    this.page(p);
    return this.last?.narrow === true;
  }

  /** The value at `row`: a string, null for a null row, undefined outside the column. */
  get(row: number): string | null | undefined {
    if (!(row >= 0 && row < this.numRows) || row !== (row | 0)) return undefined;
    const p = row >> PAGE_SHIFT;
    if (p !== this.lastIndex || !this.last) {
      const rows = this.windowed(p, row);
      if (rows) return rows[row & (WINDOW_ROWS - 1)];
    }
    return this.page(p)[row & (PAGE_ROWS - 1)];
  }

  /**
   * The rows of `row`'s window when page `p` is not in the cache and rows are being read sparsely
   * (fewer than MAX_WINDOWS windows, not the one after a window read densely: a pass in order
   * reads pages), else null: read the page.
   */
  private windowed(p: number, row: number): ReadonlyArray<string | null> | null {
    const w = row >> WINDOW_SHIFT;
    const have = this.windows.get(w);
    if (have) {
      if (w === this.lastWindow && this.lastWindowReads < DENSE_READS) this.lastWindowReads++;
      return have;
    }
    if (
      this.windows.size >= MAX_WINDOWS ||
      (w === this.lastWindow + 1 && this.lastWindowReads >= DENSE_READS) ||
      this.cache.lookup(this.slots[p]!)
    )
      return null;
    const start = w << WINDOW_SHIFT;
    const end = MathMin(this.numRows, start + WINDOW_ROWS);
    const data = this.fetch(start, end);
    if (!data || data.kind !== 'text' || !ArrayIsArray(data.rows) || data.rows.length !== end - start) {
      throw new Error(`fetchTextPage returned malformed data for rows ${start}..${end}`);
    }
    this.windows.set(w, data.rows);
    this.lastWindow = w;
    this.lastWindowReads = 1;
    return data.rows;
  }

  /** A fresh array of every row (the caller may modify it; the cache keeps its own pages). */
  copy(): Array<string | null> {
    const out = new Array<string | null>(this.numRows);
    let k = 0;
    for (let p = 0; p < this.slots.length; p++) {
      const rows = this.page(p);
      for (let i = 0; i < rows.length; i++) out[k++] = rows[i]!;
    }
    return out;
  }

  /** Values at the given row indices (a filtered or ordered table's rows), in a fresh array. */
  pick(indices: ArrayLike<number>): Array<string | null> {
    const out = new Array<string | null>(indices.length);
    // a few rows: read as `get` reads them (a window, not a page, where no run read the page)
    const few = indices.length <= WINDOW_ROWS;
    for (let k = 0; k < indices.length; k++) {
      const row = indices[k]!;
      out[k] = few ? this.get(row)! : this.page(row >> PAGE_SHIFT)[row & (PAGE_ROWS - 1)]!;
    }
    return out;
  }
}
