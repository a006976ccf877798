/**
 * An Arquero column (`{ length, at(row) }`) whose data is fetched from the host on first access.
 *
 * Arquero's Table constructor spreads the column map (`{ ...columns }`), which would invoke getters,
 * so laziness lives in the column object, not in the map: `award_data` is built from LazyColumns
 * and every derived table shares them. Decoded representations (documented in docs/prelude.md):
 * - float64 'number' | 'integer': the Float64Array itself when no value is null, else a JS array with null
 *   (built after the first 1,024 row reads, which read the typed arrays);
 * - float64 'date': a fresh Date object (UTC ms) per read, or null;
 * - dict: rows map codes to dictionary strings decoded when first read (data/dictStrings.ts; code -1 is null);
 * - utf8: with bridge.fetchTextPage, pages of row strings decoded natively by the host and cached in the
 *   session (data/textPages.ts); else with bridge.fetchColumnRange, pages of UTF-8 decoded here per
 *   row (data/pagedText.ts); else the whole column, decoded per row on first access;
 * - bool: true / false / null.
 * A column whose meta has `kindPending` (a lazily decoded Parquet text column) asks the host for its
 * kind (`kindOf`, else by fetching it) on first use, then reads as that kind.
 * `values()` (behind `t.array(col)`) hands out a fresh copy of an array decoded once per session.
 */
import type { ColumnData, ColumnMeta, ColumnType } from '../../schema/columnar.js';
import type { CardColumnData } from '../../schema/dataCard.js';
import { utf8Decode } from '../polyfills/utf8.js';
import { ArrayPrototypeSlice, NativeDate, SafeWeakMap, ReflectApply, TypedArrayIndexOf } from '../intrinsics.js';
import { boxNumbers } from './boxNumbers.js';
import { pagedText, type FetchRange } from './pagedText.js';
import { TextPages, type FetchTextPage, type ScanText } from './textPages.js';
import { DictStrings } from './dictStrings.js';
import { RowWindows, WHOLE, type FetchWindow } from './rowWindows.js';
import type { TextCache } from './textCache.js';

/** Reads one column's data from the host (bridge.fetchColumn). */
export type ColumnFetcher = () => ColumnData;

/** How a utf8 column may be read besides whole: raw pages, and natively decoded pages. */
export interface TextAccess {
  fetchRange?: FetchRange;
  fetchText?: FetchTextPage;
  scanText?: ScanText;
  /** The column's dictionary form built by the host from its bytes (bridge.textCodes), or null. */
  codesOf?: () => ColumnData | null;
  cache?: TextCache;
  /** The column's kind from the host, for a meta with `kindPending` (bridge.columnKind). */
  kindOf?: () => ColumnData['kind'];
  /** A few rows of a non-text column read alone before it is loaded (bridge.fetchRowWindow). */
  fetchWindow?: FetchWindow;
}

type Getter = (row: number) => unknown;

/**
 * What a prelude scan (fast/, closure/) reads instead of calling `at(row)` per row; never handed to
 * the guest, and only read: `pages` = text in the session's page cache (row r is
 * `pages.page(r >> PAGE_SHIFT)[r & (PAGE_ROWS - 1)]`), `all` = the cached array of every value
 * (`all[r]` is what `at(r)` returns: the same strings, numbers and null; never for a date column).
 */
export type ScanSource = { kind: 'pages'; pages: TextPages } | { kind: 'all'; all: readonly unknown[] };

/** A lazily fetched and decoded column of a host table. */
export class LazyColumn {
  /** Number of rows (known from the table metadata, no fetch needed). */
  readonly length: number;
  /** The logical type from the host schema, reported by `dtypes`. */
  readonly type: ColumnType;
  readonly name: string;
  private getter: Getter | null = null;
  private raw: ColumnData | null = null;
  /** Every value in row order, decoded once (not for dates: Date objects are mutable). */
  private all: unknown[] | null = null;
  private paged: ReturnType<typeof pagedText> | null = null;
  private text: TextPages | null = null;
  private utf8 = false;
  private known: ColumnData['kind'];
  /** Until the kind is known (kindPending): how to read text once it is. */
  private pending: TextAccess | null = null;
  /** Rows read a window at a time until the column is loaded whole (data/rowWindows.ts). */
  private windows: RowWindows | null = null;
  private readonly codesOf: (() => ColumnData | null) | undefined;
  /** The host's dictionary form of paged text (hostCodes), undefined until asked, null when it has none. */
  private coded: Extract<ColumnData, { kind: 'dict' }> | null | undefined = undefined;

  constructor(
    meta: ColumnMeta,
    numRows: number,
    private readonly fetch: ColumnFetcher,
    access: TextAccess | FetchRange = {},
  ) {
    const a: TextAccess = typeof access === 'function' ? { fetchRange: access } : access;
    this.name = meta.name;
    this.type = meta.type;
    this.length = numRows;
    this.known = meta.kind;
    this.codesOf = a.codesOf;
    if (meta.kindPending) this.pending = a;
    else this.setUp(meta.kind, a);
  }

  /** The transfer kind (float64, dict, utf8, bool); for a `kindPending` column, asking decides it. */
  get kind(): ColumnData['kind'] {
    if (this.pending) this.resolve();
    return this.known;
  }

  private setUp(kind: ColumnData['kind'], a: TextAccess): void {
    this.known = kind;
    const utf8 = kind === 'utf8';
    this.utf8 = utf8;
    this.text = utf8 && a.fetchText && a.cache ? new TextPages(this.length, a.fetchText, a.cache, a.scanText) : null;
    this.paged = utf8 && a.fetchRange ? pagedText(this.length, a.fetchRange) : null;
    this.windows = !utf8 && a.fetchWindow ? new RowWindows(a.fetchWindow, this.length, this.type === 'date') : null;
    if (this.text) {
      const text = this.text;
      this.getter = (row) => text.get(row);
    } else if (this.paged) {
      this.getter = this.paged.get;
    }
  }

  /** Learns a `kindPending` column's kind from the host (fetching the column when the host has no kindOf). */
  private resolve(): void {
    const a = this.pending!;
    this.pending = null;
    let kind: ColumnData['kind'];
    if (a.kindOf) kind = a.kindOf();
    else {
      this.raw = this.fetch();
      kind = this.raw.kind;
    }
    this.setUp(kind, a);
    if (this.raw !== null && this.getter === null) this.getter = decode(this.raw, this.length);
  }

  /** The kind if known without asking the host (undefined for a `kindPending` column not yet asked). */
  get knownKind(): ColumnData['kind'] | undefined {
    return this.pending ? undefined : this.known;
  }

  /**
   * The whole column in transfer form, text included (fetched whole from the host when it is read
   * in pages; not kept: the caller, concat's gather, keeps what it builds from it).
   */
  transfer(): ColumnData {
    if (this.pending) this.resolve();
    return this.raw ?? (this.utf8 ? this.fetch() : (this.load(), this.raw!));
  }

  /** The data in transfer form for describeData() (paged text stays paged). */
  data(): CardColumnData {
    if (this.pending) this.resolve();
    if (this.paged) {
      const text = this.text;
      return {
        kind: 'utf8-pages',
        type: this.type,
        pages: this.paged.pages,
        text: text ? (row) => text.get(row) ?? null : this.paged.text,
      };
    }
    // the typed arrays alone: the row getter (and its scan for nulls) is built when a row is read
    if (this.raw === null) {
      this.raw = this.fetch();
      this.windows = null;
    }
    return this.raw;
  }

  /** The value at `row` (Arquero's column interface). */
  at(row: number): unknown {
    const get = this.getter;
    if (get !== null) return get(row);
    const windows = this.windows;
    if (windows !== null && row >= 0 && row < this.length && row % 1 === 0) {
      const v = windows.read(row);
      if (v !== WHOLE) return v;
    }
    return this.load()(row);
  }

  *[Symbol.iterator](): Iterator<unknown> {
    for (let i = 0; i < this.length; i++) yield this.at(i);
  }

  /** All values as an array (Arquero calls this for Arrow export). */
  toArray(): unknown[] {
    return this.values();
  }

  /** A fresh array of every value, in row order: the caller owns it (writes never reach the column). */
  values(): unknown[] {
    if (this.pending) this.resolve();
    if (this.text) return this.text.copy();
    if (this.type === 'date') return this.dates(null);
    return ReflectApply(ArrayPrototypeSlice, this.allValues(), []) as unknown[];
  }

  /** A fresh array of the values at `indices` (the rows of a filtered or ordered table). */
  pick(indices: ArrayLike<number>): unknown[] {
    if (this.pending) this.resolve();
    if (this.text) return this.text.pick(indices);
    if (this.type === 'date') return this.dates(indices);
    const all = this.allValues();
    const out = new Array<unknown>(indices.length);
    for (let k = 0; k < indices.length; k++) out[k] = all[indices[k]!];
    return out;
  }

  /** True when the column is long text read through the session's page cache (asking fetches nothing). */
  get textPaged(): boolean {
    if (this.pending) this.resolve();
    return this.text !== null;
  }

  /**
   * The values behind `at(row)` for a scan over many rows (see ScanSource), or null when only
   * `at` reads them cheaply (text decoded per row in the isolate: a scan of a few rows must not
   * decode the whole column).
   */
  scanSource(): ScanSource | null {
    if (this.pending) this.resolve();
    if (this.text) return { kind: 'pages', pages: this.text };
    // a date column's values would be Dates kept for the session, and a scan hands them to code
    // (a filter's closure, a row cache's rows): a Date is mutable, each read makes its own
    if (this.utf8 || this.type === 'date') return null;
    return { kind: 'all', all: this.allValues() };
  }

  /**
   * The values `scanSource` reads (`{ kind: 'all' }`) when they are built already, else null: builds
   * nothing. For a path that can read the column's typed arrays instead and would otherwise box a
   * number column (a copy of every value, kept for the session) only to copy from it once.
   */
  builtValues(): unknown[] | null {
    if (this.pending || this.text || this.utf8 || this.type === 'date') return null;
    return this.all;
  }

  /**
   * The column's text pages when the host can scan them (bridge `textScan`) and they hold `rows`
   * rows, else null. Builds nothing: a column that is not paged text returns null at once.
   */
  hostScanPages(rows: number): TextPages | null {
    if (this.pending) this.resolve();
    const t = this.text;
    return t !== null && t.scans && t.numRows === rows ? t : null;
  }

  /**
   * Long text read in pages as a dictionary column (codes per row, each distinct string once),
   * built by the host from its UTF-8 bytes (bridge.textCodes), for the paths that group or count a
   * column (fast/source.ts groupSourceOf): a group-by, value_counts() or unique() of a 20M-row
   * column of millions of values then reads codes instead of a string per row. Asked once and kept
   * for the session; row reads (`at`) then read the dictionary too (the same strings: the host
   * codes a row by its decoded text). null when the column is not paged text or the host cannot.
   * @throws {Error} when the host's answer is malformed.
   */
  hostCodes(): Extract<ColumnData, { kind: 'dict' }> | null {
    if (this.pending) this.resolve();
    if (this.coded !== undefined) return this.coded;
    if (this.text === null || this.codesOf === undefined) return (this.coded = null);
    const raw = this.codesOf();
    if (raw === null || raw === undefined) return (this.coded = null);
    const ranks = (raw as { ranks?: unknown }).ranks;
    if (
      raw.kind !== 'dict' ||
      !(raw.codes instanceof Int32Array) ||
      raw.codes.length !== this.length ||
      !(raw.dictBytes instanceof Uint8Array) ||
      !(raw.dictOffsets instanceof Int32Array) ||
      raw.dictOffsets.length < 1 ||
      raw.dictOffsets[raw.dictOffsets.length - 1] !== raw.dictBytes.length ||
      !(ranks === undefined || (ranks instanceof Int32Array && ranks.length === raw.dictOffsets.length - 1))
    )
      throw new Error(`textCodes returned malformed data for column ${this.name}`);
    this.coded = raw;
    // off the rows (or between them) undefined, as the text pages' `get` gives
    const read = decode(raw, this.length);
    const n = this.length;
    this.getter = (row) => (row >= 0 && row < n && row === (row | 0) ? read(row) : undefined);
    return raw;
  }

  private allValues(): unknown[] {
    if (this.all) return this.all;
    const get = this.getter ?? this.load();
    // a loaded column's values read straight from its arrays (what its getter returns, one pass
    // with no call per row: this loop runs cold in a new isolate); text and kindPending getters
    // that decode per row go through the getter
    const raw = this.raw;
    const all = raw !== null && this.text === null && this.paged === null ? valuesOf(raw, this.length) : null;
    if (all !== null) return (this.all = all);
    const out = new Array<unknown>(this.length);
    for (let i = 0; i < this.length; i++) out[i] = get(i);
    this.all = out;
    return out;
  }

  /** Fresh Date objects (a guest may call setFullYear on one; the next run must not see it). */
  private dates(indices: ArrayLike<number> | null): unknown[] {
    if (this.raw === null) this.load();
    const raw = this.raw as Extract<ColumnData, { kind: 'float64' }>;
    const n = indices ? indices.length : this.length;
    const out = new Array<unknown>(n);
    for (let k = 0; k < n; k++) {
      const i = indices ? indices[k]! : k;
      out[k] = raw.valid[i] ? new NativeDate(raw.values[i]!) : null;
    }
    return out;
  }

  private load(): Getter {
    if (this.pending) {
      this.resolve();
      if (this.getter) return this.getter;
    }
    const raw = this.raw ?? this.fetch(); // data() may have fetched it
    this.raw = raw;
    this.windows = null;
    this.getter = decode(raw, this.length);
    return this.getter;
  }
}

const dictionaries = new SafeWeakMap<Int32Array, DictStrings>();

/**
 * The strings of a dictionary column, decoded when read and shared by every reader of the same
 * codes in this session (the row getter here and the fast paths' `sourceOf`).
 */
export function dictStrings(
  c: Pick<Extract<ColumnData, { kind: 'dict' }>, 'codes' | 'dictBytes' | 'dictOffsets'>,
): DictStrings {
  let d = dictionaries.get(c.codes);
  if (!d) dictionaries.set(c.codes, (d = new DictStrings(c.dictBytes, c.dictOffsets)));
  return d;
}

function decode(c: ColumnData, n: number): Getter {
  switch (c.kind) {
    case 'float64':
      return decodeFloat(c.values, c.valid, c.type === 'date', n);
    case 'dict': {
      const dict = dictStrings(c);
      const { strings } = dict;
      const codes = c.codes;
      return (row) => {
        const k = codes[row];
        return k < 0 || k === undefined ? null : (strings[k] ?? dict.get(k));
      };
    }
    case 'utf8': {
      // per-row decode with a cache: undefined = not decoded yet, null = null value
      const cache = new Array<string | null | undefined>(n);
      const { bytes, offsets, valid } = c;
      return (row) => {
        let s = cache[row];
        if (s === undefined) {
          if (row < 0 || row >= n || row !== (row | 0)) return undefined;
          s = valid[row] ? utf8Decode(bytes, offsets[row], offsets[row + 1]) : null;
          cache[row] = s;
        }
        return s;
      };
    }
    case 'bool': {
      const { values, valid } = c;
      return (row) => (row >= 0 && row < n ? (valid[row] ? values[row] !== 0 : null) : undefined);
    }
  }
}

function decodeFloat(values: Float64Array, valid: Uint8Array, isDate: boolean, n: number): Getter {
  let allValid = !isDate;
  if (allValid)
    for (let i = 0; i < n; i++)
      if (!valid[i]) {
        allValid = false;
        break;
      }
  if (allValid) return (row) => values[row];
  // a date is a fresh Date per read (a guest may call setFullYear on one; no other read sees it), made
  // when read: a first touch that reads one row (`s.max()`, `t.get(col, 0)`) builds one, not one per row
  if (isDate)
    return (row) =>
      row >= 0 && row < n && row === (row | 0) ? (valid[row] ? new NativeDate(values[row]!) : null) : undefined;
  // the values with null are built once the column is read row by row (a loop, objects()), not at
  // load nor for a few reads (`t.get(col, 0)`, a head()): those read the typed arrays, which give
  // the same value for any index (undefined off the rows); the typed-array paths (Series
  // reductions, masks, the fast verbs) never read a row this way
  let arr: unknown[] | null = null;
  let reads = 0;
  return (row) => {
    if (arr !== null) return arr[row];
    if (++reads > BOX_AFTER_READS) return (arr = boxFloats(values, valid, n))[row];
    const x = values[row];
    return x === undefined ? undefined : valid[row] ? x : null;
  };
}

/** Row reads of a number column with nulls served from its typed arrays before it is boxed. */
const BOX_AFTER_READS = 1024;

/**
 * A number column's values with null, built once per column: the row getter and allValues read
 * the same array (neither hands it out: values() copies it), so a column is boxed once, not once
 * for the getter and again for allValues.
 */
const boxed = new SafeWeakMap<Float64Array, unknown[]>();

function boxFloats(values: Float64Array, valid: Uint8Array, n: number): unknown[] {
  let arr = boxed.get(values);
  if (arr !== undefined) return arr;
  arr = boxNumbers(values, valid, n);
  boxed.set(values, arr);
  return arr;
}

/**
 * Every value of a loaded column as its getter (decode) reads it, in one loop over the arrays;
 * null for utf8 (decoded per row by the getter, with its own cache).
 */
function valuesOf(c: ColumnData, n: number): unknown[] | null {
  switch (c.kind) {
    case 'float64': {
      const { values, valid } = c;
      if (c.type === 'date') {
        const out = new Array<unknown>(n);
        for (let i = 0; i < n; i++) out[i] = valid[i] ? new NativeDate(values[i]!) : null;
        return out;
      }
      // a null anywhere: the boxed values the row getter shares (found by the builtin, not a cold loop)
      if (ReflectApply(TypedArrayIndexOf, valid, [0]) !== -1) return boxFloats(values, valid, n);
      return boxNumbers(values, null, n);
    }
    case 'dict': {
      // every entry at once (DictStrings.all: a slice of one string per ASCII entry)
      const dict = dictStrings(c);
      const strings = dict.all();
      const codes = c.codes;
      const out = new Array<unknown>(n);
      for (let i = 0; i < n; i++) {
        const k = codes[i]!;
        out[i] = k < 0 ? null : (strings[k] ?? dict.get(k));
      }
      return out;
    }
    case 'bool': {
      const { values, valid } = c;
      const out = new Array<unknown>(n);
      for (let i = 0; i < n; i++) out[i] = valid[i] ? values[i] !== 0 : null;
      return out;
    }
    case 'utf8':
      return null;
  }
}
