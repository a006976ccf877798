/** head/tail/shape/columns/dtypes/info/len: the first look at a table. */
import { BitSet, type ColumnTable } from 'arquero';
import { emit } from '../output/output.js';
import { topRows } from '../fast/topN.js';
import { assertTable, dtypeOf, isNull, isTable, values, type Dtype } from './common.js';

/**
 * Rows [start, end) in table order (Array.slice semantics). Ungrouped tables get a filter mask
 * instead of Arquero's copy, so award_data's columns stay lazy and keep their dtypes; grouped
 * tables use Arquero's per-group slice.
 */
export function sliceRows(
  t: ColumnTable,
  slice: (this: ColumnTable, s?: number, e?: number) => ColumnTable,
  start = 0,
  end = Infinity,
): ColumnTable {
  if (t.isGrouped()) return slice.call(t, start, end);
  if (start >= 0 && end >= 0 && end < t.numRows()) t = topRows(t, end) ?? t; // top-n, not a full sort
  const whole = !t.isFiltered() && !t.isOrdered();
  // the whole table in storage order: position i is row i (no index array to build)
  const idx = whole ? null : t.indices();
  const n = idx ? idx.length : t.totalRows();
  const s = Math.max(0, start < 0 ? start + n : Math.min(start, n));
  const e = Math.min(n, Math.max(0, end < 0 ? end + n : end));
  const bits = new BitSet(t.totalRows());
  if (!idx) setRange(bits, s, e);
  else for (let i = s; i < e; i++) bits.set(idx[i]);
  const out = t.create({ filter: bits });
  // the rows kept, ascending when `t` is not ordered: the index Arquero would find bit by bit when
  // first asked (every column read and Series of the result asks); Arquero keeps it in `_index`
  const holder = out as unknown as { _index?: Uint32Array | null };
  if (!t.isOrdered() && holder._index === null && e > s) {
    if (!idx) {
      const rows = new Uint32Array(e - s);
      for (let i = 0; i < rows.length; i++) rows[i] = s + i;
      holder._index = rows;
    } else holder._index = idx.slice(s, e);
  }
  return out;
}

/** Sets bits [s, e) of an Arquero BitSet a word at a time (row i is bit 0x80000000 >>> (i & 31) of word i >> 5). */
function setRange(bits: BitSet, s: number, e: number): void {
  const words = (bits as unknown as { _bits?: Uint32Array })._bits;
  if (!(words instanceof Uint32Array) || words.length * 32 < e) {
    for (let i = s; i < e; i++) bits.set(i);
    return;
  }
  let i = s;
  for (; i < e && i & 31; i++) bits.set(i);
  for (; i + 32 <= e; i += 32) words[i >> 5] = 0xffffffff;
  for (; i < e; i++) bits.set(i);
}

/** The first n rows (all but the last |n| when n < 0), like pandas; per group when grouped. @example award_data.head(3) */
export function head(t: unknown, n = 5): ColumnTable {
  assertTable(t, 'head');
  return t.slice(0, n);
}

/** The last n rows. @example award_data.tail(3) */
export function tail(t: unknown, n = 5): ColumnTable {
  assertTable(t, 'tail');
  return n <= 0 ? t.slice(t.numRows()) : t.slice(-n);
}

/** [rows, columns]. @example shape(award_data) // [5, 7] */
export function shape(t: unknown): [number, number] {
  assertTable(t, 'shape');
  return [t.numRows(), t.numCols()];
}

/** Column names. @example columns(award_data) */
export function columns(t: unknown): string[] {
  assertTable(t, 'columns');
  return t.columnNames();
}

/** { column: dtype } with dtypes 'number' | 'integer' | 'string' | 'date' | 'boolean' | 'object'. */
export function dtypes(t: unknown): Record<string, Dtype> {
  assertTable(t, 'dtypes');
  const out: Record<string, Dtype> = {};
  for (const c of t.columnNames()) out[c] = dtypeOf(t, c);
  return out;
}

/** Number of rows of a table, length of a string/array, size of a Map/Set, null for null. */
export function len(x: unknown): number | null {
  if (isTable(x)) return x.numRows();
  if (isNull(x)) return null;
  if (typeof x === 'string' || Array.isArray(x) || ArrayBuffer.isView(x)) return (x as ArrayLike<unknown>).length;
  if (x instanceof Map || x instanceof Set) return x.size;
  if (typeof x === 'object') return Object.keys(x as object).length;
  return String(x).length;
}

/**
 * Prints a pandas-style summary: rows, each column's non-null count and dtype.
 * @example award_data.info()
 */
export function info(t: unknown): void {
  assertTable(t, 'info');
  const names = t.columnNames();
  const n = t.numRows();
  const rows = names.map((c, i) => {
    const nonNull = values(t, c).filter((v) => !isNull(v)).length;
    return [` ${i}`, c, `${nonNull} non-null`, dtypeOf(t, c)];
  });
  const head = [' #', 'Column', 'Non-Null Count', 'Dtype'];
  const rule = ['---', '------', '--------------', '-----'];
  const w = rule.map((r0, j) => Math.max(r0.length, ...rows.map((r) => r[j].length)));
  const fmt = (r: string[]) =>
    r
      .map((c, j) => c.padEnd(w[j]))
      .join('  ')
      .trimEnd();
  const counts = new Map<string, number>();
  rows.forEach((r) => counts.set(r[3], (counts.get(r[3]) ?? 0) + 1));
  const lines = [
    `<class 'arquero.ColumnTable'>`,
    `RangeIndex: ${n} entries${n ? `, 0 to ${n - 1}` : ''}`,
    `Data columns (total ${names.length} columns):`,
    fmt(head),
    fmt(rule),
    ...rows.map(fmt),
    `dtypes: ${[...counts].map(([k, v]) => `${k}(${v})`).join(', ')}`,
  ];
  emit('stdout', lines.join('\n') + '\n');
}
