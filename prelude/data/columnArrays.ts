/**
 * `t.array(col)` over award_data's columns without Arquero's per-row scan: the column's values
 * are decoded once per session (data/lazyColumn.ts) and every call returns a fresh copy (a
 * `slice`, a memcpy of pointers), so a guest that sorts or writes into the array it got cannot
 * change what a later call or a later run reads. Long text is copied from its cached pages.
 */
import type { ColumnTable } from 'arquero';
import { NativeArray, ReflectApply } from '../intrinsics.js';
import { LazyColumn } from './lazyColumn.js';

type ArrayMethod = (this: ColumnTable, name: string, constructor?: unknown) => unknown;

/** Replaces ColumnTable.prototype.array (idempotent); other columns and typed-array constructors keep Arquero's path. */
export function installColumnArrays(proto: Record<string, unknown>): void {
  const orig = proto.array as ArrayMethod & { __sbirtools?: boolean };
  if (typeof orig !== 'function' || orig.__sbirtools) return;
  const array = function array(this: ColumnTable, name: string, constructor: unknown = NativeArray): unknown {
    const col = this.column(name) as unknown;
    if (!(col instanceof LazyColumn) || constructor !== NativeArray)
      return ReflectApply(orig, this, [name, constructor]);
    return this.isFiltered() || this.isOrdered() ? col.pick(this.indices()) : col.values();
  } as ArrayMethod & { __sbirtools?: boolean };
  array.__sbirtools = true;
  Object.defineProperty(proto, 'array', { value: array, writable: true, configurable: true });
}
