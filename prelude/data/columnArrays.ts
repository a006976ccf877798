/**
 * `t.array(col)` over award_data's columns without Arquero's per-row scan: the column's values
 * are decoded once per session (data/lazyColumn.ts) and every call returns a fresh copy (a
 * `slice`, a memcpy of pointers), so a guest that sorts or writes into the array it got cannot
 * change what a later call or a later run reads. Long text is copied from its cached pages.
 */
import type { ColumnTable } from 'arquero';
import { NativeArray, NativeWeakMap, ReflectApply } from '../intrinsics.js';
import { LazyColumn } from './lazyColumn.js';

/** Where an array `t.array(col)` handed out came from: every row of a host column, in row order. */
export interface ArrayOrigin {
  table: ColumnTable;
  name: string;
}

const origins = new NativeWeakMap<object, ArrayOrigin>();

/**
 * The table and column an array came from, when it is one `t.array(col)` returned over all rows of
 * an unfiltered, unordered table (fast/arrayChain.ts checks it still holds those values).
 */
export function arrayOrigin(a: object): ArrayOrigin | undefined {
  return origins.get(a);
}

type ArrayMethod = (this: ColumnTable, name: string, constructor?: unknown) => unknown;

/** Replaces ColumnTable.prototype.array (idempotent); other columns and typed-array constructors keep Arquero's path. */
export function installColumnArrays(proto: Record<string, unknown>): void {
  const orig = proto.array as ArrayMethod & { __sbirtools?: boolean };
  if (typeof orig !== 'function' || orig.__sbirtools) return;
  const array = function array(this: ColumnTable, name: string, constructor: unknown = NativeArray): unknown {
    const col = this.column(name) as unknown;
    if (!(col instanceof LazyColumn) || constructor !== NativeArray)
      return ReflectApply(orig, this, [name, constructor]);
    if (this.isFiltered() || this.isOrdered()) return col.pick(this.indices());
    const out = col.values();
    origins.set(out, { table: this, name });
    return out;
  } as ArrayMethod & { __sbirtools?: boolean };
  array.__sbirtools = true;
  Object.defineProperty(proto, 'array', { value: array, writable: true, configurable: true });
}
