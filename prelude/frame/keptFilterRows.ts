/**
 * Which kept filter a table still shows. A filter the session keeps (fast/filterKept.ts for
 * `t.filter(d => ...)`, series/maskKept.ts for `t[mask]`) makes its table again from kept words and a
 * kept row index (frame/bitWords.ts `keepStorageWords`: copies, the kept arrays are never handed
 * out). The kept words array is that filter's identity for the session: what is computed over its rows
 * (a grouping's ids, a per-group count or sum, a column's value counts) is a function of those rows
 * and the host columns read, so it can be kept by the words array and asked again in a later run.
 *
 * A table is taken for its kept filter only while it still shows exactly those rows: its BitSet is
 * one `keepStorageWords` made from them (by identity: a groupby's table shares its parent's), the
 * BitSet's words are still the kept ones (a run can write into `t.mask()`; compared every time, n/32
 * words), the table is not ordered, its row count is the index's and its own row index (Arquero's
 * `_index`, which `t.indices()` hands out and a run may write into) is still the kept one.
 *
 * The table `keepStorageWords` makes is lent the kept index (`lendIndex`): its `_index` is an accessor
 * whose first read (Arquero's `indices()` or `scan()`, a fast path, a run) makes the table's own copy
 * and turns it into a plain data property, as an assignment does with the value assigned; a frozen
 * table keeps answering its one copy. While the accessor is still the table's own, no one has read
 * the index, so nothing can have been written into it: a groupby or a count over the kept filter then
 * reads the kept index and the table never pays for its copy. An index that was read is compared
 * with the kept one; a table made from it (a groupby's) has none until asked.
 */
import type { BitSet, ColumnTable } from 'arquero';
import {
  ObjectDefineProperty,
  ObjectGetOwnPropertyDescriptor,
  ReflectApply,
  SafeWeakMap,
  TypedArraySet,
  typedArrayName,
} from '../intrinsics.js';

/** A kept filter's rows: its words (the identity) and row index, both only ever read. */
export interface KeptFilterRows {
  words: Uint32Array;
  index: Uint32Array;
}

const made = new SafeWeakMap<object, KeptFilterRows>();
/** Tables lent a kept index, with the `_index` getter they hold while no one has read it. */
const lent = new SafeWeakMap<object, unknown>();

/**
 * Records that `keep`, the BitSet of `table`, was filled from a kept filter's `words` and `index`
 * (keepStorageWords), and lends `table` the index when it has none yet.
 */
export function noteKeptFilter(table: ColumnTable, keep: BitSet, words: Uint32Array, index: Uint32Array): void {
  made.set(keep, { words, index });
  const holder = table as unknown as { _index?: Uint32Array | null };
  if (holder._index === null && table.numRows() === index.length) lendIndex(table, index);
}

function lendIndex(table: ColumnTable, index: Uint32Array): void {
  let own: Uint32Array | undefined;
  const settle = (v: unknown): void => {
    lent.delete(table);
    try {
      ObjectDefineProperty(table, '_index', { value: v, writable: true, enumerable: true, configurable: true });
    } catch {
      own = v as Uint32Array; // a frozen or sealed table: its accessor keeps answering the same value
    }
  };
  ObjectDefineProperty(table, '_index', {
    get(): Uint32Array {
      if (own === undefined) settle((own = copyOf(index)));
      return own;
    },
    set(v: unknown) {
      settle(v);
    },
    enumerable: true,
    configurable: true,
  });
  lent.set(table, ObjectGetOwnPropertyDescriptor(table, '_index')!.get);
}

/** The kept filter whose rows `t` shows, unchanged and unordered, or undefined. */
export function keptFilterRows(t: ColumnTable): KeptFilterRows | undefined {
  const mask = t.mask();
  if (mask === null || typeof mask !== 'object') return undefined;
  const kept = made.get(mask);
  if (kept === undefined || t.isOrdered() || t.numRows() !== kept.index.length) return undefined;
  const words = (mask as unknown as { _bits?: unknown })._bits;
  if (typedArrayName(words) !== 'Uint32Array' || !same(words as Uint32Array, kept.words)) return undefined;
  const getter = lent.get(t);
  if (getter !== undefined && ObjectGetOwnPropertyDescriptor(t, '_index')?.get === getter) return kept;
  const index = (t as unknown as { _index?: unknown })._index;
  if (index === null) return kept;
  return typedArrayName(index) === 'Uint32Array' && same(index as Uint32Array, kept.index) ? kept : undefined;
}

/**
 * The words of the kept filter `t`'s BitSet was filled from when the first `n` of `rows` are that
 * filter's index (the row map of a Series of `t`'s column, `t[mask]['Award Amount']`: compared, it was
 * handed out with the Series), or undefined. What is summed at those rows may then be kept by them.
 */
export function keptFilterOfRows(t: ColumnTable, rows: Uint32Array, n: number): Uint32Array | undefined {
  const mask = t.mask();
  const kept = mask !== null && typeof mask === 'object' ? made.get(mask) : undefined;
  if (kept === undefined || kept.index.length !== n || rows.length !== n) return undefined;
  return same(rows, kept.index) ? kept.words : undefined;
}

// a loop that ends its function (docs/architecture.md, "Inside the prelude")
function same(a: Uint32Array, b: Uint32Array): boolean {
  if (a.length !== b.length) return false;
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  return i === a.length;
}

// through the TypedArray `set` captured at load: a run may replace `slice` (frame/bitWords.ts)
function copyOf(a: Uint32Array): Uint32Array {
  const out = new Uint32Array(a.length);
  ReflectApply(TypedArraySet, out, [a]);
  return out;
}
