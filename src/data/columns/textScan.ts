import { isAscii, isUtf8 } from 'node:buffer';
import type { ColumnData, TextScanRequest } from '../../../schema/columnar.js';
import { rowSearch } from './simdBytes.js';
import { textDistinct } from './textDistinct.js';
import { utf8Rows } from './utf8Rows.js';

/** Code points of a decoded string (what Python's len counts): its UTF-16 length less one per surrogate pair. */
function codePoints(v: string): number {
  let n = v.length;
  for (let i = 0; i + 1 < v.length; i++) {
    const c = v.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = v.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n--;
        i++;
      }
    }
  }
  return n;
}

const ASCII_ONLY = /^[\u0000-\u007f]*$/;
const SURROGATE = /[\uD800-\uDFFF]/;

/**
 * The only characters `toLowerCase` maps to a string holding ASCII, by the ASCII letter they give,
 * with their UTF-8: U+0130 (to `i̇`, an `i` and U+0307), U+212A (to `k`).
 */
const LOWERS_TO_ASCII: readonly (readonly [string, Buffer])[] = [
  ['i', Buffer.from('\u0130', 'utf8')],
  ['k', Buffer.from('\u212a', 'utf8')],
];

/**
 * True when the bytes hold U+0130 or U+212A and the lower-case ASCII needle holds the letter it
 * lowers to. Otherwise `toLowerCase()` of the decoded rows finds the needle exactly where the A-Z
 * folded bytes hold it: an ASCII byte always decodes to itself, and every other character (U+FFFD
 * for invalid bytes included) lowers to a non-empty string whose only ASCII character, if any, is
 * the `i` or `k` above, which such a needle never matches (a needle without `i` and `k`, as most
 * are, needs no look at the page).
 */
function lowersToAscii(page: Buffer, needle: string): boolean {
  return LOWERS_TO_ASCII.some(([letter, bytes]) => needle.includes(letter) && page.includes(bytes));
}

/** True when no non-empty row of [start, end) begins with a UTF-8 continuation byte. */
function rowsStartOnCharacters(bytes: Uint8Array, offsets: Int32Array, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const a = offsets[i]!;
    if (a < offsets[i + 1]! && (bytes[a]! & 0xc0) === 0x80) return false;
  }
  return true;
}

/**
 * Answers a text question about rows [start, end) of a utf8 column straight from its UTF-8 bytes,
 * without handing the rows to the isolate (bridge.textScan; docs/architecture.md "The runtime <->
 * prelude contract"). The answers are exactly those of the same test run on the decoded strings
 * (Node's decoder: invalid UTF-8 becomes U+FFFD, as in `textPage`):
 * - `len`: characters (code points) per row, -1 for a null row. An ASCII page is its offsets; a
 *   valid UTF-8 page whose rows all start on a character counts the bytes that start one; any
 *   other page decodes its rows.
 * - `units`: UTF-16 code units per row (the decoded string's `length`), -1 for a null row: as
 *   `len`, with one more per 4-byte sequence (a character outside the BMP is a surrogate pair);
 *   a page with invalid bytes or a row boundary inside a character decodes its rows.
 * - `contains`: 1 when the row holds `needle`, 0 when not, 2 for a null row. `fold` says how
 *   case is ignored: `none`; `regex` (a RegExp's `i` flag without `u`: ASCII letters fold,
 *   nothing outside ASCII folds to ASCII); `lower` (`toLowerCase().includes(needle.toLowerCase())`).
 *   Byte search (simdBytes.ts rowSearch, which marks the rows itself; `Buffer.indexOf` without
 *   WebAssembly SIMD) answers a case-sensitive needle on valid UTF-8 and an ASCII needle on any
 *   bytes (an ASCII byte always decodes to itself); folded ASCII needles are searched with A-Z of
 *   the page matching a-z of the needle (the page is not rewritten), for `lower` on any page
 *   without U+0130 or U+212A (the only characters `toLowerCase` maps to ASCII) or whose needle
 *   lacks the letter they lower to (lowersToAscii); other pages with `lower` decode their rows.
 * - `equals`: 1 when the row is exactly `needle`, 0 when not, 2 for a null row. Only rows whose
 *   byte length is the needle's are compared, byte for byte: a row whose bytes are the needle's
 *   UTF-8 is valid UTF-8 and decodes to it, and a row with invalid bytes decodes with a U+FFFD,
 *   so it can only equal a needle that holds one (such a needle, or one with a lone surrogate,
 *   is compared with the decoded rows).
 * - `distinct`: `[distinct non-null strings, 1 when a row is null else 0]` over the range, counted
 *   from the bytes (textDistinct.ts), as a count of the decoded strings gives.
 *
 * Returns null when this page cannot be answered here (a folded needle outside ASCII with `regex`):
 * the guest then reads the page and tests it itself. Only literal needles come here; regular
 * expressions never run on the host (they could backtrack outside the isolate's deadline).
 * @throws {RangeError} when the range is outside the column; {Error} for a column that is not utf8.
 * @example textScan(col, 0, 4096, { op: 'contains', needle: 'laser', fold: 'none' }) // Uint8Array
 */
export function textScan(
  data: ColumnData,
  start: number,
  end: number,
  req: TextScanRequest,
): Int32Array | Uint8Array | null {
  const { bytes, offsets, valid, buf, base, stop } = utf8Rows(data, start, end, 'textScan');
  if (req.op === 'distinct') {
    const rows = {
      kind: 'utf8' as const,
      type: 'string' as const,
      bytes,
      offsets: offsets.subarray(start, end + 1),
      valid: valid.subarray(start, end),
    };
    return textDistinct(rows);
  }
  if (req.op === 'equals' && typeof req.needle === 'string')
    return equalRows(buf, offsets, valid, start, end, req.needle);
  const page = buf.subarray(base, stop);
  if (req.op === 'len' || req.op === 'units') {
    const ascii = isAscii(page);
    const units = req.op === 'units';
    const out = new Int32Array(end - start);
    // every row well-formed: the page is, and no row starts inside a character (a page can be
    // valid UTF-8 while a row boundary splits one: both halves then decode to U+FFFD)
    const wellFormed = ascii || (isUtf8(page) && rowsStartOnCharacters(bytes, offsets, start, end));
    for (let i = start; i < end; i++) {
      if (!valid[i]) {
        out[i - start] = -1;
        continue;
      }
      const a = offsets[i]!;
      const b = offsets[i + 1]!;
      if (ascii) out[i - start] = b - a;
      else if (wellFormed) {
        let n = 0;
        // a 4-byte sequence (lead byte 0xf0-0xf4 in well-formed UTF-8) is a surrogate pair: 2 units
        if (units) for (let k = a; k < b; k++) n += (bytes[k]! & 0xc0) !== 0x80 ? (bytes[k]! >= 0xf0 ? 2 : 1) : 0;
        else for (let k = a; k < b; k++) if ((bytes[k]! & 0xc0) !== 0x80) n++;
        out[i - start] = n;
      } else {
        const v = buf.toString('utf8', a, b);
        out[i - start] = units ? v.length : codePoints(v);
      }
    }
    return out;
  }
  if (req.op !== 'contains' || typeof req.needle !== 'string') throw new Error('textScan: unknown request');
  const out = nullCodes(valid, start, end);
  const needle = req.needle;
  const asciiNeedle = ASCII_ONLY.test(needle);
  // a lone surrogate has no UTF-8 form: such a needle is tested on the decoded rows
  const encodable = !SURROGATE.test(needle);
  if (needle === '') {
    for (let i = 0; i < out.length; i++) if (out[i] === 0) out[i] = 1;
    return out;
  }
  const fold = req.fold;
  // (an ASCII needle needs no look at the page: a contains test of it is a byte search on any bytes)
  if (fold === 'none' && encodable && (asciiNeedle || isUtf8(page))) {
    const pattern = Buffer.from(needle, 'utf8');
    const flags = rowSearch(page, pattern, false, offsets, start, end, base);
    if (flags) return withFlags(out, flags);
    markHits(out, offsets, start, end, (from) => page.indexOf(pattern, from - base), pattern.length, base);
    return out;
  }
  if (fold !== 'none' && asciiNeedle && (fold === 'regex' || !lowersToAscii(page, needle.toLowerCase()))) {
    // A RegExp `i` flag (no `u`) folds ASCII letters and never folds a byte above 0x7f to ASCII, and
    // `toLowerCase` of a page without the two characters it lowers to ASCII is the same fold for an
    // ASCII needle: search the bytes with A-Z matching a-z of the lower-cased needle (non-ASCII
    // bytes match only themselves).
    const flags = rowSearch(page, Buffer.from(needle.toLowerCase(), 'latin1'), true, offsets, start, end, base);
    if (flags) return withFlags(out, flags);
    // no WebAssembly SIMD: the same fold through a RegExp over a Latin-1 view (one character per byte)
    const text = page.toString('latin1');
    const re = new RegExp(needle.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'), 'gi');
    const find = (from: number) => {
      re.lastIndex = from - base;
      const m = re.exec(text);
      return m ? m.index : -1;
    };
    markHits(out, offsets, start, end, find, needle.length, base);
    return out;
  }
  if (fold === 'regex') return null;
  const low = fold === 'lower' ? needle.toLowerCase() : needle;
  for (let i = start; i < end; i++) {
    if (!valid[i]) continue;
    const s = buf.toString('utf8', offsets[i]!, offsets[i + 1]!);
    if ((fold === 'lower' ? s.toLowerCase() : s).includes(low)) out[i - start] = 1;
  }
  return out;
}

/** textScan's `equals` over rows [start, end) of the column whose bytes are `buf`. */
function equalRows(
  buf: Buffer,
  offsets: Int32Array,
  valid: Uint8Array,
  start: number,
  end: number,
  needle: string,
): Uint8Array {
  const out = new Uint8Array(end - start);
  const bytewise = !SURROGATE.test(needle) && !needle.includes('\ufffd');
  const pattern = Buffer.from(needle, 'utf8');
  const len = pattern.length;
  for (let i = start; i < end; i++) {
    if (!valid[i]) {
      out[i - start] = 2;
      continue;
    }
    const a = offsets[i]!;
    const b = offsets[i + 1]!;
    if (bytewise) {
      if (b - a === len && buf.compare(pattern, 0, len, a, b) === 0) out[i - start] = 1;
    } else if (buf.toString('utf8', a, b) === needle) out[i - start] = 1;
  }
  return out;
}

/**
 * One byte per row of [start, end): 2 for a null row, else 0. The per-row loops of a scan live in
 * small functions like this one: a loop in textScan itself made V8 optimize the whole of it (and
 * of scanPage, which inlines it) while the first pass ran, ~50-130 ms of compiling on a loaded
 * machine's cores beside the pass (--trace-opt, docs/benchmarks.md session 25).
 */
function nullCodes(valid: Uint8Array, start: number, end: number): Uint8Array {
  const out = new Uint8Array(end - start);
  for (let i = start; i < end; i++) if (!valid[i]) out[i - start] = 2;
  return out;
}

/** `out` with 1 for each non-null row whose flag (rowSearch) is set. */
function withFlags(out: Uint8Array, flags: Uint8Array): Uint8Array {
  for (let i = 0; i < out.length; i++) if (flags[i] === 1 && out[i] === 0) out[i] = 1;
  return out;
}

/**
 * Marks the rows holding a hit (the search without WebAssembly SIMD): `find(from)` is the page-relative position of the next hit at or
 * after absolute byte `from` (-1: none); a hit counts when it ends inside its row.
 */
function markHits(
  out: Uint8Array,
  offsets: Int32Array,
  start: number,
  end: number,
  find: (from: number) => number,
  len: number,
  base: number,
): void {
  let row = start;
  let from = base;
  for (;;) {
    const rel = find(from);
    if (rel < 0) return;
    const pos = rel + base;
    while (row < end && offsets[row + 1]! <= pos) row++;
    if (row >= end) return;
    if (pos + len <= offsets[row + 1]!) {
      if (out[row - start] === 0) out[row - start] = 1;
      from = offsets[row + 1]!;
      row++;
      if (row >= end) return;
    } else from = pos + 1;
  }
}
