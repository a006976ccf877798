/**
 * The typed arrays behind a Series, for the methods that scan every value: a host column's float64
 * values or dictionary codes (fast/source.ts) with the table's visible rows, long text read page
 * by page from the session's cache, a mask's byte array, or a computed numeric result. A Series
 * without one (values from user arrays, closures) keeps the per-value path.
 */
import { LazyColumn } from '../data/lazyColumn.js';
import { SafeMap, SafeWeakMap, ReflectApply } from '../intrinsics.js';
import { PAGE_SHIFT } from '../data/pagedText.js';
import type { TextPages } from '../data/textPages.js';
import { groupSourceOf, sourceOf, visibleRows } from '../fast/source.js';
import type { ColumnTable } from 'arquero';

const PAGE_MASK = (1 << PAGE_SHIFT) - 1;

/** float64 values, `valid[i] === 0` (when given) is missing; `rows` maps positions to storage rows. */
export interface NumView {
  kind: 'num';
  type: 'number' | 'integer' | 'date';
  values: Float64Array;
  valid: Uint8Array | null;
  rows: Uint32Array | null;
}
/** Dictionary codes (-1 is missing). */
export interface DictView {
  kind: 'dict';
  codes: Int32Array;
  dict: readonly string[];
  rows: Uint32Array | null;
  /** True when no two codes the rows hold are one string (a host column's codes: fast/source.ts). */
  oneCodePerString?: boolean;
}
/** A mask: 1 true, 0 false; no missing values. */
export interface BoolView {
  kind: 'bool';
  bits: Uint8Array;
  /** How many bytes are 1, when known without reading `bits` (isna/notna of a number column). */
  trues?: number;
}
/** Text: `forEach` visits every position with its string or null, reading whole pages at a time. */
export interface TextView {
  kind: 'text';
  length: number;
  /** `narrow` is true when the value's page has no text outside Latin-1 (so no surrogate pairs). */
  forEach(f: (v: string | null, i: number, narrow: boolean) => void): void;
}

export type TypedView = NumView | DictView | BoolView | TextView;

/** What typedOf reads of a Series (structural, so this file needs no import of Series.ts). */
export interface Viewed {
  readonly view: TypedView | null;
  readonly source: { table: ColumnTable; column: string } | null;
  readonly length: number;
}

/**
 * The typed view of `s`, or null when only per-value reads are possible. `counting`: a method that
 * counts values (unique, mode, a distinct count) reads long text as the host's dictionary codes
 * (fast/source.ts groupSourceOf).
 */
export function typedOf(s: Viewed, counting = false): TypedView | null {
  if (s.view) return s.view;
  const src = s.source;
  if (!src) return null;
  const rows = visibleRows(src.table, true);
  const raw = counting ? groupSourceOf(src.table, src.column) : sourceOf(src.table, src.column);
  if (raw)
    return raw.kind === 'dict'
      ? { kind: 'dict', codes: raw.codes, dict: raw.dict, rows, oneCodePerString: true }
      : { kind: 'num', type: raw.type, values: raw.values, valid: raw.valid, rows };
  const col = src.table.column(src.column) as unknown;
  if (!(col instanceof LazyColumn)) return null;
  const scan = col.scanSource();
  if (!scan || (scan.kind === 'all' && col.type !== 'string')) return null;
  const n = s.length;
  if (scan.kind === 'all') {
    const all = scan.all;
    return {
      kind: 'text',
      length: n,
      forEach: (f) => {
        for (let i = 0; i < n; i++) {
          const v = all[rows ? rows[i]! : i];
          f(typeof v === 'string' ? v : null, i, false);
        }
      },
    };
  }
  const pages = scan.pages;
  return {
    kind: 'text',
    length: n,
    forEach(f) {
      if (rows) {
        for (let i = 0; i < n; i++) {
          const r = rows[i]!;
          f(pages.page(r >> PAGE_SHIFT)[r & PAGE_MASK] ?? null, i, false);
        }
        return;
      }
      for (let p = 0, i = 0; i < n; p++) {
        const page = pages.page(p);
        const narrow = pages.narrow(p);
        for (let k = 0; k < page.length; k++, i++) f(page[k] ?? null, i, narrow);
      }
    },
  };
}

/** The numeric view of a number/integer Series (dates excluded: their reductions return Dates). */
export function numView(s: Viewed): NumView | null {
  const v = typedOf(s);
  return v && v.kind === 'num' && v.type !== 'date' ? v : null;
}

/**
 * The bytes of `test(value)` for every position, reading the typed arrays: a dictionary column
 * tests each distinct string once, then maps its codes; text is visited page by page; numbers
 * are read from the Float64Array (missing as null). null when `s` has no typed view.
 */
export function maskByValue(s: Viewed, test: (v: unknown) => boolean): Uint8Array | null {
  const t = typedOf(s);
  if (!t) return null;
  const n = s.length;
  const bits = new Uint8Array(n);
  switch (t.kind) {
    case 'dict': {
      const { codes, dict, rows } = t;
      const hit = new Uint8Array(dict.length);
      for (let k = 0; k < dict.length; k++) hit[k] = test(dict[k]) ? 1 : 0;
      codeBits(codes, rows, hit, test(null) ? 1 : 0, bits);
      return bits;
    }
    case 'text':
      t.forEach((v, i) => {
        if (test(v)) bits[i] = 1;
      });
      return bits;
    case 'bool': {
      const b = t.bits;
      const yes = test(true) ? 1 : 0;
      const no = test(false) ? 1 : 0;
      for (let i = 0; i < n; i++) bits[i] = b[i] ? yes : no;
      return bits;
    }
    case 'num': {
      if (t.type === 'date') return null; // values are Date objects there
      const { values, valid, rows } = t;
      for (let i = 0; i < n; i++) {
        const r = rows ? rows[i]! : i;
        if (test(valid === null || valid[r] ? values[r] : null)) bits[i] = 1;
      }
      return bits;
    }
  }
}

/**
 * `bits[i]` = the hit of the code at position i (`nullHit` for a missing one). One code hit and
 * none for missing (`eq('Phase II')`) compares each code to it; a loop per case, with or without a
 * row index, so each stays a plain typed-array loop.
 */
function codeBits(
  codes: Int32Array,
  rows: Uint32Array | null,
  hit: Uint8Array,
  nullHit: number,
  bits: Uint8Array,
): void {
  const n = bits.length;
  let one = -1;
  let hits = 0;
  for (let k = 0; k < hit.length; k++)
    if (hit[k]) {
      one = k;
      hits++;
    }
  if (nullHit === 0 && hits <= 1) {
    if (hits === 0) return;
    if (rows) for (let i = 0; i < n; i++) bits[i] = +(codes[rows[i]!] === one);
    else for (let i = 0; i < n; i++) bits[i] = +(codes[i] === one);
    return;
  }
  if (rows)
    for (let i = 0; i < n; i++) {
      const c = codes[rows[i]!]!;
      bits[i] = c < 0 ? nullHit : hit[c]!;
    }
  else
    for (let i = 0; i < n; i++) {
      const c = codes[i]!;
      bits[i] = c < 0 ? nullHit : hit[c]!;
    }
}

/** The host's pages of a whole, unfiltered text column that the host can scan (bridge.textScan), or null. */
function scannable(s: Viewed): TextPages | null {
  if (s.view || !s.source) return null;
  const { table, column } = s.source;
  if (visibleRows(table, true) !== null) return null;
  const col = table.column(column) as unknown;
  if (!(col instanceof LazyColumn)) return null;
  return col.hostScanPages(s.length);
}

/**
 * `[distinct non-null strings, 1 when a row is null else 0]` of a whole text column, counted by the
 * host from its UTF-8 bytes (no row enters the isolate: a 20M-row column of 4.9M values took
 * 85-145 s as strings), or null when the column cannot be scanned on the host.
 */
export function scanDistinct(s: Viewed): [number, number] | null {
  if (s.view || !s.source) return null;
  const { table, column } = s.source;
  // the order of the rows does not change their distinct values: an ordered view counts as its table
  if (visibleRows(table, false) !== null) return null;
  const col = table.column(column) as unknown;
  const pages = col instanceof LazyColumn ? col.hostScanPages(s.length) : null;
  return pages ? pages.distinct() : null;
}

/**
 * Characters per row of a whole text column, answered by the host from the UTF-8 bytes page by
 * page (no row enters the isolate); a page the session already holds is counted here with `f`
 * (`narrowF` when the page fits Latin-1). null when the column cannot be scanned on the host.
 */
export function scanLengths(
  s: Viewed,
  f: (v: string) => number,
  narrowF: (v: string) => number,
): { values: Float64Array; valid: Uint8Array } | null {
  const pages = scannable(s);
  if (!pages) return null;
  const n = s.length;
  const values = new Float64Array(n);
  const valid = new Uint8Array(n);
  // the loop ends its own function: code after a loop in the same function deopted the loop's
  // compiled code on every warm call (docs/architecture.md, "Inside the prelude")
  pageLengths(pages, n, f, narrowF, values, valid);
  return { values, valid };
}

/** scanLengths' page loop: fills `values` and `valid` for the first `n` rows. */
function pageLengths(
  pages: TextPages,
  n: number,
  f: (v: string) => number,
  narrowF: (v: string) => number,
  values: Float64Array,
  valid: Uint8Array,
): void {
  for (let p = 0, i = 0; i < n; p++) {
    const got = pages.scan(p, { op: 'len' });
    if (got) {
      for (let k = 0; k < got.length; k++, i++)
        if (got[k]! >= 0) {
          values[i] = got[k]!;
          valid[i] = 1;
        }
      continue;
    }
    const rows = pages.page(p);
    const g = pages.narrow(p) ? narrowF : f;
    for (let k = 0; k < rows.length; k++, i++) {
      const v = rows[k];
      if (typeof v === 'string') {
        values[i] = g(v);
        valid[i] = 1;
      }
    }
  }
}

/**
 * The mask of a literal contains over a whole text column, answered by the host from the bytes
 * (`fold` as in TextScanRequest), pages the session holds included: a page the host leaves to the
 * guest (a folded needle outside ASCII) is tested here with `test`. Missing rows get `missing`.
 * The answers are kept for the session (the text never changes), as the loops' features are
 * (fast/textFeatures.ts): asking again costs one pass over the kept bytes. null when the column
 * cannot be scanned on the host.
 */
export function scanContains(
  s: Viewed,
  needle: string,
  fold: 'none' | 'regex' | 'lower',
  test: (v: string) => boolean,
  missing: boolean,
): Uint8Array | null {
  const pages = scannable(s);
  if (!pages) return null;
  const n = s.length;
  const raw = containsAnswers(pages, n, needle, fold, test);
  const bits = new Uint8Array(n);
  const na = missing ? 1 : 0;
  for (let i = 0; i < n; i++) {
    const g = raw[i]!;
    bits[i] = g === 2 ? na : g;
  }
  return bits;
}

/** The most bytes of contains answers kept per column (one byte a row each). */
const KEPT_BYTES = 32 << 20;
const kept = new SafeWeakMap<TextPages, { bytes: number; answers: Map<string, Uint8Array> }>();
const weakGet = SafeWeakMap.prototype.get;
const weakSet = SafeWeakMap.prototype.set;

/** Each row's contains answer (1/0, 2 for a null row) over the `n` rows of `pages`, kept per column. */
function containsAnswers(
  pages: TextPages,
  n: number,
  needle: string,
  fold: 'none' | 'regex' | 'lower',
  test: (v: string) => boolean,
): Uint8Array {
  let k = ReflectApply(weakGet, kept, [pages]) as { bytes: number; answers: Map<string, Uint8Array> } | undefined;
  if (!k) {
    k = { bytes: 0, answers: new SafeMap() };
    ReflectApply(weakSet, kept, [pages, k]);
  }
  const key = `${fold}\u0000${needle}`;
  const had = k.answers.get(key);
  if (had && had.length === n) return had;
  const raw = new Uint8Array(n);
  for (let p = 0, i = 0; i < n; p++) {
    // a held page too: testing its strings here costs more than the host's (kept) answer
    const got = pages.scan(p, { op: 'contains', needle, fold }, true);
    if (got) {
      raw.set(got, i);
      i += got.length;
      continue;
    }
    const rows = pages.page(p);
    for (let r = 0; r < rows.length; r++, i++) {
      const v = rows[r];
      raw[i] = typeof v === 'string' ? (test(v) ? 1 : 0) : 2;
    }
  }
  if (k.bytes + n > KEPT_BYTES) {
    k.answers.clear();
    k.bytes = 0;
  }
  if (n <= KEPT_BYTES) {
    k.answers.set(key, raw);
    k.bytes += n;
  }
  return raw;
}

/**
 * The mask of `v === needle` over a whole text column (`equals` true) or of a missing value
 * (`needle` null), answered by the host: an equality from the rows of the needle's byte length,
 * a missing value from the stored lengths (no text read); a page the session holds is tested here.
 * `yes`, `no` and `missing` are the mask's byte for an equal, an unequal and a null row. null when
 * the column cannot be scanned on the host.
 */
export function scanEquals(
  s: Viewed,
  needle: string | null,
  yes: number,
  no: number,
  missing: number,
): Uint8Array | null {
  const pages = scannable(s);
  if (!pages) return null;
  const n = s.length;
  const bits = new Uint8Array(n);
  for (let p = 0, i = 0; i < n; p++) {
    if (needle === null) {
      const got = pages.scan(p, { op: 'len' });
      if (got) {
        for (let k = 0; k < got.length; k++, i++) bits[i] = got[k]! < 0 ? missing : no;
        continue;
      }
    } else {
      const got = pages.scan(p, { op: 'equals', needle });
      if (got) {
        for (let k = 0; k < got.length; k++, i++) {
          const g = got[k]!;
          bits[i] = g === 2 ? missing : g === 1 ? yes : no;
        }
        continue;
      }
    }
    const rows = pages.page(p);
    for (let k = 0; k < rows.length; k++, i++) {
      const v = rows[k];
      bits[i] = typeof v !== 'string' ? missing : v === needle ? yes : no;
    }
  }
  return bits;
}
