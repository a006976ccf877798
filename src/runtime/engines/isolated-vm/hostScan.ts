import { textScan } from '../../../data/columns/textScan.js';
import { textCodes, type TextCodes } from '../../../data/columns/textDistinct.js';
import type { TextScanRequest } from '../../../../schema/columnar.js';
import { guestLoad, guestPageRows, guestRead } from '../guestTables.js';
import type { TableProvider } from '../engineSession.js';

/** Answers kept per session (bytes of the Int32Array / Uint8Array results), oldest dropped first. */
const MEMO_BYTES = 16 * 1024 * 1024;
/**
 * Complete passes over a column read page by page from the cache before the column is loaded whole:
 * a pass costs reading and checking the column's bytes, which is less than loading it whole, but a
 * session that keeps asking new questions of it is better served from memory.
 */
const STREAMED_PASSES = 2;

/** Whole-column answers kept per session (each one byte a row), oldest dropped first. */
const MAX_PASSES = 8;

/** Longest question (table, column, range, needle) whose answer is kept. */
const MAX_KEY_CHARS = 1024;

type ScanResult = Int32Array | Uint8Array | null;

/**
 * `bridge.textScan` for one session: a length (characters or UTF-16 units), a literal contains or an equality over rows [start, end) of a
 * text column, answered from the UTF-8 bytes (data/columns/textScan.ts). While the column is not
 * loaded, each page's bytes are read alone from the binary cache into one reused buffer, every block
 * checked against its checksum first (`provider.loadRows(..., reuse)`): the first scan of `Abstract`
 * reads and checks 293 MB page by page instead of allocating, reading and checking it whole before
 * the first answer. A contains or an equals over one page of such a column answers every page at
 * once (`provider.textScanPages`, with SBIRTOOLS_SCAN_PARALLEL=1 on worker threads too), and the
 * guest's calls for the next pages are lookups. Answers are kept for the
 * session, so the same question again costs a lookup.
 * @example const scan = new HostScan(); scan.scan(provider, 'award_data', 'Abstract', 0, 4096, { op: 'len' });
 */
export class HostScan {
  private readonly memo = new Map<string, ScanResult>();
  private memoBytes = 0;
  /**
   * Whole-column answers (provider.textScanPages) per question (table, column, op, fold, needle),
   * page by page: the guest asks for the pages one call at a time, the first call answers them all.
   */
  private readonly passes = new Map<string, { pageRows: number; pages: (Uint8Array | null)[] }>();
  /** Rows streamed from the cache per column (table + column). */
  private readonly streamed = new Map<string, number>();

  scan(provider: TableProvider, table: string, column: string, start: number, end: number, req: TextScanRequest) {
    const key = `${table}\u0000${column}\u0000${start}\u0000${end}\u0000${req.op}\u0000${req.op === 'contains' ? `${req.fold}\u0000${req.needle}` : req.op === 'equals' ? req.needle : ''}`;
    if (this.memo.has(key)) return this.memo.get(key)!;
    const answer = this.answer(provider, table, column, start, end, req);
    // a long needle is not kept: its key would cost more than the answer saves
    if (key.length <= MAX_KEY_CHARS) this.keep(key, answer);
    return answer;
  }

  private answer(
    provider: TableProvider,
    table: string,
    column: string,
    start: number,
    end: number,
    req: TextScanRequest,
  ): ScanResult {
    if (req.op === 'len' && provider.textLengths) {
      const lengths = guestRead(table, column, () => provider.textLengths!(column, start, end));
      if (lengths) return lengths;
    }
    if (req.op === 'units' && provider.textUnits) {
      const units = guestRead(table, column, () => provider.textUnits!(column, start, end));
      if (units) return units;
    }
    if (req.op === 'equals' && provider.textEquals) {
      const equal = guestRead(table, column, () => provider.textEquals!(column, start, end, req.needle));
      if (equal) return equal;
    }
    const col = `${table}\u0000${column}`;
    const seen = this.streamed.get(col) ?? 0;
    if (req.op === 'contains' || req.op === 'equals') {
      const question = `${col}\u0000${req.op}\u0000${req.op === 'contains' ? req.fold : ''}\u0000${req.needle}`;
      const pass = this.passes.get(question);
      const size = end - start;
      const n = provider.meta.numRows;
      if (pass && start % pass.pageRows === 0 && end === Math.min(n, start + pass.pageRows))
        return pass.pages[start / pass.pageRows]!;
      // a page of the usual shape, of a column not loaded yet: every page at once, on every core
      if (!pass && provider.textScanPages && seen < STREAMED_PASSES * n && size > 0 && size < n && start % size === 0) {
        const pages = guestRead(table, column, () => provider.textScanPages!(column, req, size));
        if (pages) {
          this.keepPass(question, size, pages);
          this.streamed.set(col, seen + n);
          return pages[start / size]!;
        }
      }
    }
    if (provider.loadRows && seen < STREAMED_PASSES * provider.meta.numRows) {
      const rows = guestPageRows(provider, table, column, start, end);
      if (rows) {
        this.streamed.set(col, seen + (end - start));
        return textScan(rows, 0, end - start, req);
      }
    }
    return textScan(guestLoad(provider, table, column), start, end, req);
  }

  /**
   * `bridge.textCodes`: the dictionary form of a utf8 column (data/columns/textDistinct.ts
   * textCodes), built from the loaded column for the guest to keep (nothing is kept here); null
   * for a column that is not utf8.
   */
  codes(provider: TableProvider, table: string, column: string): TextCodes | null {
    const data = guestLoad(provider, table, column);
    return data.kind === 'utf8' ? textCodes(data) : null;
  }

  private keepPass(key: string, pageRows: number, pages: (Uint8Array | null)[]): void {
    if (this.passes.size >= MAX_PASSES) this.passes.delete(this.passes.keys().next().value!);
    this.passes.set(key, { pageRows, pages });
  }

  private keep(key: string, answer: ScanResult): void {
    const bytes = answer ? answer.byteLength : 0;
    if (bytes > MEMO_BYTES) return;
    for (const [k, v] of this.memo) {
      if (this.memoBytes + bytes <= MEMO_BYTES) break;
      this.memo.delete(k);
      this.memoBytes -= v ? v.byteLength : 0;
    }
    this.memo.set(key, answer);
    this.memoBytes += bytes;
  }
}
