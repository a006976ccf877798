/**
 * A pandas-like Series: one column's values, read through the column's own accessor (no copy for a
 * column of a table), with pandas' positional index labels kept for idxmax/loc. Methods are added by
 * the other files of this folder (see installSeries.ts); this file is the core: construction, length,
 * values, iteration and the guard against JavaScript operators (which cannot be overloaded).
 */
import type { ColumnTable } from 'arquero';
import { GuestError } from '../errors/guestError.js';
import { dtypeOf, inferDtype, isNull, type Dtype } from '../frame/common.js';
import { brandSeries } from './brand.js';
import { maskToken } from './maskRegistry.js';
import { maskByValue, type TypedView } from './typed.js';
import { LazyColumn } from '../data/lazyColumn.js';

type At = (i: number) => unknown;

/** Where a column Series reads from: table helpers are used on it directly (their fast paths). */
export interface SeriesSource {
  table: ColumnTable;
  column: string;
}

/** One column of values (pandas Series). */
export class Series {
  /** pandas `name`: the column name, or null. */
  name: string | null;
  readonly length: number;
  /** Index labels (original row positions); null means 0..length-1. */
  readonly labels: ArrayLike<number> | null;
  /** Set when this Series is exactly a table's column (filter and order applied). */
  readonly source: SeriesSource | null;
  /** Typed arrays behind the values, when the Series was computed into them (typed.ts). */
  view: TypedView | null = null;
  private readonly read: At;
  private dtypeOrThunk: Dtype | (() => Dtype) | null;

  constructor(
    read: At,
    length: number,
    name: string | null,
    labels: ArrayLike<number> | null = null,
    source: SeriesSource | null = null,
    dtype: Dtype | (() => Dtype) | null = null,
  ) {
    this.read = read;
    this.length = length;
    this.name = name;
    this.labels = labels;
    this.source = source;
    this.dtypeOrThunk = dtype;
    brandSeries(this);
  }

  /** A Series over an array (or typed array) of values. */
  static of(
    values: ArrayLike<unknown>,
    name: string | null = null,
    labels: ArrayLike<number> | null = null,
    dtype: Dtype | null = null,
  ): Series {
    return new Series((i) => values[i], values.length, name, labels, null, dtype);
  }

  /** A mask over a byte array (1 true, 0 false), with the labels and name of `like`. */
  static bools(bits: Uint8Array, like: Series): Series {
    const s = new Series((i) => bits[i] === 1, bits.length, like.name, like.labels, null, 'boolean');
    s.view = { kind: 'bool', bits };
    return s;
  }

  /**
   * A mask whose bytes are built by `make` the first time they are read, with its count of true
   * values known now (so `sum()`/`mean()` of it read no byte).
   */
  static lazyBools(make: () => Uint8Array, trues: number, like: Series): Series {
    let bits: Uint8Array | null = null;
    const get = (): Uint8Array => (bits ??= make());
    const s = new Series((i) => get()[i] === 1, like.length, like.name, like.labels, null, 'boolean');
    s.view = {
      kind: 'bool',
      get bits() {
        return get();
      },
      trues,
    };
    return s;
  }

  /** Numbers in a Float64Array (`valid[i] === 0` is missing, as null), with the labels of `like`. */
  static numbers(
    values: Float64Array,
    valid: Uint8Array | null,
    like: Series,
    name: string | null = like.name,
    dtype: 'number' | 'integer' = 'number',
  ): Series {
    const read: At = valid ? (i) => (valid[i] ? values[i] : valid[i] === 0 ? null : undefined) : (i) => values[i];
    const s = new Series(read, values.length, name, like.labels, null, dtype);
    s.view = { kind: 'num', type: dtype, values, valid, rows: null };
    return s;
  }

  /** The column `name` of table `t`, in table order, without copying it. */
  static column(t: ColumnTable, name: string): Series {
    const col = t.column(name)!;
    const plain = !t.isFiltered() && !t.isOrdered();
    const dtype = () => dtypeOf(t, name);
    if (plain) return new Series((i) => col.at(i), t.numRows(), name, null, { table: t, column: name }, dtype);
    const idx = t.indices() as Uint32Array;
    return new Series((i) => col.at(idx[i]), idx.length, name, idx, { table: t, column: name }, dtype);
  }

  /** The value at position i (0-based; negative counts from the end). */
  get(i: number): unknown {
    const k = i < 0 ? i + this.length : i;
    return k >= 0 && k < this.length ? this.read(k) : undefined;
  }

  /** The value at position i, 0 <= i < length (no bounds check: the hot loops' accessor). */
  at0(i: number): unknown {
    return this.read(i);
  }

  /**
   * A boolean Series computed position by position into a byte array (the fast form of a mask:
   * no array of booleans, no second scan to check it is boolean).
   */
  mask(test: (v: unknown, i: number) => boolean): Series {
    const n = this.length;
    const bits = new Uint8Array(n);
    for (let i = 0; i < n; i++) if (test(this.read(i), i)) bits[i] = 1;
    return Series.bools(bits, this);
  }

  /** mask() for a test of the value alone: reads the typed arrays when there are some (typed.ts). */
  maskValues(test: (v: unknown) => boolean): Series {
    const bits = maskByValue(this, test);
    return bits ? Series.bools(bits, this) : this.mask(test);
  }

  /** The label of position i. */
  label(i: number): number {
    return this.labels ? this.labels[i] : i;
  }

  /**
   * All values as a new array (missing values are null); with `token` (tolist's, a row loop token the
   * preparation opened) a column of a host table hands it to array(), which may answer the column's
   * kept values themselves.
   */
  toArray(token?: unknown): unknown[] {
    // a column of award_data: the column's decoded values, copied (data/columnArrays.ts)
    const src = this.source;
    if (src && src.table.column(src.column) instanceof LazyColumn && src.table.numRows() === this.length)
      // the token goes where array() reads it (data/columnArrays.ts: its second parameter)
      return (
        token === undefined ? src.table.array(src.column) : src.table.array(src.column, token as ArrayConstructor)
      ) as unknown[];
    const n = this.length;
    const out = new Array<unknown>(n);
    for (let i = 0; i < n; i++) {
      const v = this.read(i);
      out[i] = v === undefined ? null : v;
    }
    return out;
  }

  /** The logical dtype (number, integer, string, date, boolean, object). */
  get dtypeName(): Dtype {
    const d = this.dtypeOrThunk;
    const resolved = d === null ? inferDtype(this.toArray(), 1000) : typeof d === 'function' ? d() : d;
    this.dtypeOrThunk = resolved;
    return resolved;
  }

  /** A Series of the same labels and name with new values. */
  withValues(
    values: ArrayLike<unknown>,
    name: string | null = this.name,
    dtype: Dtype | null = this.dtypeName,
  ): Series {
    return Series.of(values, name, this.labels, dtype);
  }

  /** Values mapped one by one (labels and name kept). */
  mapValues(
    f: (v: unknown, i: number) => unknown,
    name: string | null = this.name,
    dtype: Dtype | null = null,
  ): Series {
    const n = this.length;
    const out = new Array<unknown>(n);
    for (let i = 0; i < n; i++) out[i] = f(this.read(i) ?? null, i);
    return Series.of(out, name, this.labels, dtype);
  }

  /** True when every value is a boolean or missing (a mask). */
  isBoolean(): boolean {
    if (this.dtypeOrThunk === 'boolean' || this.view?.kind === 'bool') return true;
    for (let i = 0; i < this.length; i++) {
      const v = this.read(i);
      if (typeof v !== 'boolean' && !isNull(v)) return false;
    }
    return true;
  }

  *[Symbol.iterator](): Iterator<unknown> {
    for (let i = 0; i < this.length; i++) yield this.read(i) ?? null;
  }

  /**
   * `t[mask]` converts the mask to a property key: a boolean Series becomes a registered token that
   * the table's column access turns back into the filter. Arithmetic and comparison operators cannot
   * be overloaded in JavaScript, so they fail loudly instead of comparing the object.
   */
  [Symbol.toPrimitive](hint: string): string {
    if (hint === 'string') return this.isBoolean() ? maskToken(this) : (this as unknown as { text(): string }).text();
    throw new GuestError(
      'TypeError',
      `JavaScript operators (>, <, ==, +, -, &, |, !) do not work on a Series (column '${this.name ?? ''}'): JavaScript cannot overload them`,
      "Use the methods: s.gt(1e6), s.lt(x), s.eq('DOD'), s.ne(x), s.ge/le, s.between(a, b), s.isin([...]); combine masks with m1.and(m2), m1.or(m2), m.not(); arithmetic with s.add(x), s.sub(x), s.mul(x), s.div(x). Then award_data.filter(mask) or award_data[mask].",
    );
  }
}
