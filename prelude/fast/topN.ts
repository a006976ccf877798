/**
 * Top-n instead of a full sort: `t.orderby(aq.desc('Award Amount')).slice(0, 10)`,
 * `sort_values(...).head(n)` and `nlargest` select the first n rows with a bounded heap over the
 * table's own comparator (ties broken by row index, which is where the stable full sort puts them),
 * then let Arquero sort those n rows. Only orders known to be consistent qualify: plain host columns
 * (strings, numbers, dates, nulls), marked when the order is set.
 */
import { BitSet, type ColumnTable } from 'arquero';
import { SafeWeakMap } from '../intrinsics.js';
import { plainNumberSource } from './plainNumbers.js';
import { sourceOf } from './source.js';
import { typedTop, type TopKey } from './typedTop.js';

type Comparator = (a: number, b: number, data: unknown) => number;

const consistent = new SafeWeakMap<object, true>();
/** The one sort key of a marked order, when it has one: topRows then selects on typed data (typedTop.ts). */
const oneKey = new SafeWeakMap<object, TopKey>();

/** Marks `out` (= t.orderby(...args)) when every sort key is a plain host column. */
export function noteOrder(t: ColumnTable, out: ColumnTable, args: unknown[]): void {
  const names: string[] = [];
  const flat = args.flat();
  for (const a of flat) {
    if (typeof a === 'string') names.push(a);
    else if (typeof a === 'number') {
      const n = t.columnName(a);
      if (n === undefined) return;
      names.push(n);
    } else if (
      a &&
      typeof a === 'object' &&
      typeof (a as { expr?: unknown }).expr === 'string' &&
      Object.keys(a).every((k) => k === 'expr' || k === 'desc' || k === 'field')
    )
      names.push((a as { expr: string }).expr);
    else return;
  }
  const only = flat.length === 1 ? (flat[0] as { desc?: unknown } | string | number) : undefined;
  noteOrderColumns(out, t, names, {
    desc: typeof only === 'object' && only !== null && only.desc === true,
    nulls: 'low',
  });
}

/**
 * Marks `out` when every column in `names` is a host dictionary or number/date column of `t` (or,
 * under sort_values' order, a plain array of numbers);
 * with one name, `how` (its direction and where nulls go) lets topRows select on typed data.
 */
export function noteOrderColumns(
  out: ColumnTable,
  t: ColumnTable,
  names: readonly string[],
  how?: Omit<TopKey, 'name'>,
): void {
  // a plain number column (a group-by's sums) under sort_values' order, whose comparator
  // (compareValues, nulls and NaN together) typedTop.ts and the heap below both follow; under
  // Arquero's orderby as its one key (null and undefined below NaN, NaN below every number:
  // arquero's expression/compare.js), where typedTop.ts places them as for a host column
  const plainOk = how !== undefined && (how.nulls !== 'low' || names.length === 1);
  const typed = (n: string) => sourceOf(t, n) !== undefined || (plainOk && plainNumberSource(t, n) !== undefined);
  if (!(names.length && names.every(typed))) return;
  consistent.set(out, true);
  if (names.length === 1 && how) oneKey.set(out, { name: names[0], ...how });
}

/**
 * `t` restricted to its first `end` rows in table order (a filter of those rows, order kept), or
 * undefined when a full sort is what runs (unmarked order, grouped, few rows, large n).
 */
export function topRows(t: ColumnTable, end: number): ColumnTable | undefined {
  if (!consistent.has(t) || t.isGrouped() || !(end >= 0) || end !== Math.floor(end)) return undefined;
  const total = t.numRows();
  if (total < 1024 || end * 8 > total) return undefined;
  const cmp = (t as unknown as { _order: Comparator })._order;
  if (typeof cmp !== 'function') return undefined;
  const key = oneKey.get(t);
  const top = key ? typedTop(t, key, end) : undefined;
  if (top) {
    const keep = new BitSet(t.totalRows());
    for (let j = 0; j < top.length; j++) keep.set(top[j]);
    const out = t.create({ filter: keep });
    consistent.set(out, true);
    return out;
  }
  const data = t.data();
  // max-heap on (cmp, row): the root is the worst of the best `end` rows seen
  const heap = new Uint32Array(end);
  let size = 0;
  const worse = (a: number, b: number) => {
    const c = cmp(a, b, data);
    return c > 0 || (c === 0 && a > b);
  };
  const up = (j: number) => {
    const r = heap[j];
    while (j > 0) {
      const p = (j - 1) >> 1;
      if (!worse(r, heap[p])) break;
      heap[j] = heap[p];
      j = p;
    }
    heap[j] = r;
  };
  const down = (r: number) => {
    let j = 0;
    for (;;) {
      const l = 2 * j + 1;
      if (l >= size) break;
      const m = l + 1 < size && worse(heap[l + 1], heap[l]) ? l + 1 : l;
      if (!worse(heap[m], r)) break;
      heap[j] = heap[m];
      j = m;
    }
    heap[j] = r;
  };
  const visit = (i: number) => {
    if (size < end) {
      heap[size] = i;
      up(size++);
    } else if (end > 0 && worse(heap[0], i)) down(i);
  };
  const bits = t.mask();
  if (bits) for (let i = bits.next(0); i >= 0; i = bits.next(i + 1)) visit(i);
  else for (let i = 0, n = t.totalRows(); i < n; i++) visit(i);
  const keep = new BitSet(t.totalRows());
  for (let j = 0; j < size; j++) keep.set(heap[j]);
  const out = t.create({ filter: keep });
  consistent.set(out, true);
  return out;
}

/** True when `t` has no order, or an order marked consistent (a stable sort restricted to any subset agrees with it). */
export function orderIsConsistent(t: ColumnTable): boolean {
  return !t.isOrdered() || consistent.has(t);
}
