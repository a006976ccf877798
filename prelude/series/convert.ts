/** Series conversions: arrays, a one-column table, an object, and the pandas properties. */
import { newTable, type Dtype } from '../frame/common.js';
import { Series } from './Series.js';
import { seriesText } from './seriesText.js';
import { isOpenRowLoop } from '../data/rowLoop.js';

type S = Series;

const PANDAS_DTYPE: Record<Dtype, string> = {
  number: 'float64',
  integer: 'int64',
  string: 'object',
  date: 'datetime64[ns]',
  boolean: 'bool',
  object: 'object',
};

/** Conversion methods installed on Series.prototype. */
export const CONVERT: Record<string, (this: S, ...a: never[]) => unknown> = {
  tolist(this: S, token?: unknown) {
    // a local the run only reads in bounds (prepare/sharedArrays.ts `listDeclarations`): array()'s token
    return isOpenRowLoop(token) ? this.toArray(token) : this.toArray();
  },
  to_numpy(this: S) {
    return this.toArray();
  },
  /** A one-column table (the Series' result form); name it with `to_frame('x')`. */
  to_frame(this: S, name?: unknown) {
    const n = typeof name === 'string' ? name : (this.name ?? '0');
    return newTable({ [n]: this.toArray() });
  },
  /** `{ label: value }` (labels are row positions, as in pandas). */
  to_dict(this: S) {
    const o: Record<string, unknown> = {};
    for (let i = 0; i < this.length; i++) o[String(this.label(i))] = this.get(i);
    return o;
  },
  copy(this: S) {
    return this.withValues(this.toArray());
  },
  rename(this: S, name: unknown) {
    const c = this.withValues(this.toArray());
    c.name = name === undefined || name === null ? null : String(name);
    return c;
  },
  /** pandas reset_index(drop=True): labels become 0..n-1. */
  reset_index(this: S) {
    return Series.of(this.toArray(), this.name);
  },
  text(this: S) {
    return seriesText(this);
  },
  toString(this: S) {
    return seriesText(this);
  },
  toJSON(this: S) {
    return this.toArray();
  },
};
CONVERT.to_list = CONVERT.tolist;

/** Properties installed as getters on Series.prototype. */
export const PROPERTIES: Record<string, (this: S) => unknown> = {
  values(this: S) {
    return this.toArray();
  },
  array(this: S) {
    return this.toArray();
  },
  size(this: S) {
    return this.length;
  },
  shape(this: S) {
    return [this.length];
  },
  empty(this: S) {
    return this.length === 0;
  },
  ndim() {
    return 1;
  },
  dtype(this: S) {
    return PANDAS_DTYPE[this.dtypeName];
  },
  hasnans(this: S) {
    for (const v of this) if (v === null) return true;
    return false;
  },
  /** The index labels (row positions of the original table). */
  index(this: S) {
    return Array.from({ length: this.length }, (_, i) => this.label(i));
  },
};
