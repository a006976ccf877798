/**
 * Masks of host columns kept for the session. `award_data['Award Amount'].gt(1e6)` is a function of
 * the column's values and the literal and nothing else, and a host column (data/lazyColumn.ts) cannot
 * be written: a warm run asking it again compared 219,590 values again, and `and`/`or`, `t[mask]`
 * packed the bytes and built the row index again. The session now keeps, per mask, its bytes and its
 * count of true values, and for `t[mask]` the filter's words and row index (frame/bitWords.ts).
 *
 * What a key holds: a comparison `eq/ne/lt/le/gt/ge` of a Series that is a whole host column (its
 * table neither filtered nor ordered, no view set on it, not a date column: a Date's `valueOf` may be
 * replaced), or arithmetic with numbers on one that is still a pending chain (`.div(1e6).gt(2)`), with a number that is not NaN (-0 keyed apart from 0, though every operator treats them
 * alike) or a string (typed: `'5'` and `5` are two keys); `and`/`or`/`xor` of two kept masks and
 * `not` of one, by the kept masks' ids. The column is keyed by identity (a table made by
 * select/derive over the same host columns shares them) and its row count.
 *
 * What is handed out: a new Series per call whose values read the kept bytes, with a frozen view
 * whose `bits` getter hands a copy (made with the TypedArray `set` captured when the prelude loaded)
 * and marks the Series opened: an opened Series, or one whose `view` or `length` a run replaced, is
 * no longer taken for its key, so what a run writes into the copy stays its own. The last `KEPT`
 * masks are kept, most recent first, and no more than `KEPT_BYTES` of bytes, words and indices.
 */
import type { ColumnTable } from 'arquero';
import { LazyColumn } from '../data/lazyColumn.js';
import { keepStorageRows, keepStorageWords, storageWords } from '../frame/bitWords.js';
import { ReflectApply, SafeWeakMap, TypedArraySet } from '../intrinsics.js';
import { countTrue } from './filterNumbers.js';
import { pendingChain } from './numberChain.js';
import { Series } from './Series.js';
import type { BoolView } from './typed.js';

const KEPT = 24;
const KEPT_BYTES = 16 << 20;
const ObjectFreeze = Object.freeze;

/** A kept mask: its bytes (never handed out), their count of 1s and, once asked, `t[mask]`'s words and index. */
interface Kept {
  key: string;
  id: number;
  bits: Uint8Array;
  trues: number;
  words: Uint32Array | null;
  index: Uint32Array | null;
}

/** What a handed-out mask stands for, until it is opened. */
interface Handed {
  kept: Kept;
  view: BoolView;
  opened: boolean;
}

const entries: Kept[] = [];
const derived = new SafeWeakMap<Series, { key: string; chain: object; n: number }>();
const handed = new SafeWeakMap<Series, Handed>();
const columnIds = new SafeWeakMap<LazyColumn, number>();
let nextColumn = 0;
let nextId = 0;

/** The key part of a Series that is a whole host column (not a date), or null. */
function hostColumnKey(s: Series): string | null {
  const src = s.source;
  // the source first: a pending chain's `view` is a getter that computes it (numberChain.ts)
  if (src === null || s.labels !== null || s.view !== null) return null;
  const t = src.table;
  if (t.isFiltered() || t.isOrdered() || t.isGrouped() || t.numRows() !== s.length) return null;
  const col = t.column(src.column) as unknown;
  if (!(col instanceof LazyColumn) || col.type === 'date') return null;
  let id = columnIds.get(col);
  if (id === undefined) columnIds.set(col, (id = ++nextColumn));
  return `c${id}:${s.length}`;
}

/** The key of `column <method> x` for a literal the comparison keys exactly, or null. */
export function comparisonKey(column: string, method: string, x: unknown): string | null {
  if (typeof x === 'number') return x === x ? `${column}|${method}|n${x === 0 && 1 / x < 0 ? '-0' : x}` : null;
  return typeof x === 'string' ? `${column}|${method}|s${x}` : null;
}

/**
 * The key of a Series that is a whole host column, or arithmetic with numbers on one still pending
 * (numberChain.ts: `award_data['Award Amount'].div(1e6)`), or null.
 */
export function valuesKey(s: Series): string | null {
  const d = derived.get(s);
  // a chain forced (its `view` read or written) is a plain Series whose view a run may have replaced
  if (d !== undefined) return pendingChain(s) === d.chain && s.length === d.n ? d.key : null;
  return hostColumnKey(s);
}

/** Records that `out` is `s <method> x` (x a number, not NaN) when `s` has a key and `out` is a pending chain. */
export function noteArithmetic(s: Series, method: string, x: number, out: Series): void {
  const base = valuesKey(s);
  const chain = pendingChain(out);
  if (base !== null && chain !== undefined)
    derived.set(out, { key: `${base}|${method}|n${x === 0 && 1 / x < 0 ? '-0' : x}`, chain, n: out.length });
}

/** The kept mask `m` stands for (it was handed out by keptMask and is untouched), or undefined. */
function keptOf(m: unknown): Kept | undefined {
  if (!(m instanceof Series)) return undefined;
  const h = handed.get(m);
  if (h === undefined || h.opened || m.view !== h.view || m.length !== h.kept.bits.length) return undefined;
  return h.kept;
}

/** The key of `a <method> b` (and, or, xor) for two kept masks, or of `not a` (b undefined), or null. */
export function logicalKey(method: string, a: Series, b?: unknown): string | null {
  const p = keptOf(a);
  if (p === undefined) return null;
  if (method === 'not') return `!${p.id}`;
  const q = keptOf(b);
  return q === undefined || q.bits.length !== p.bits.length ? null : `${method}${p.id},${q.id}`;
}

/** The bytes of a kept mask `m` stands for (only to read), or undefined. */
export function keptBits(m: unknown): Uint8Array | undefined {
  return keptOf(m)?.bits;
}

/**
 * The mask kept under `key` (moved to the front), or the one `make` computes, kept; handed out as a
 * new Series with the name and labels of `like`. `make`'s Series is never handed out.
 */
export function keptMask(key: string, like: Series, make: () => Series | undefined): Series | undefined {
  let kept: Kept | undefined;
  for (let e = 0; e < entries.length; e++) {
    if (entries[e]!.key !== key) continue;
    // a Series whose length a run replaced: its mask as computed, neither kept nor read from the kept one
    if (entries[e]!.bits.length !== like.length) return make();
    kept = entries[e]!;
    for (let j = e; j > 0; j--) entries[j] = entries[j - 1]!;
    entries[0] = kept;
    break;
  }
  if (kept === undefined) {
    const m = make();
    const v = m?.view;
    if (m === undefined || v?.kind !== 'bool' || v.bits.length !== like.length) return m;
    const bits = v.bits;
    kept = { key, id: ++nextId, bits, trues: v.trues ?? countTrue(bits, bits.length), words: null, index: null };
    for (let j = entries.length; j > 0; j--) entries[j] = entries[j - 1]!;
    entries[0] = kept;
    bound();
  }
  return handOut(kept, like);
}

function handOut(kept: Kept, like: Series): Series {
  const bits = kept.bits;
  let copy: Uint8Array | null = null;
  // the kept bytes until the view's are asked for, then those (a run may write them)
  const s = new Series((i) => (copy ?? bits)[i] === 1, bits.length, like.name, like.labels, null, 'boolean');
  const h: Handed = { kept, view: null as unknown as BoolView, opened: false };
  h.view = ObjectFreeze({
    kind: 'bool' as const,
    get bits(): Uint8Array {
      h.opened = true;
      if (copy === null) {
        copy = new Uint8Array(bits.length);
        ReflectApply(TypedArraySet, copy, [bits]);
      }
      return copy;
    },
    trues: kept.trues,
  });
  s.view = h.view;
  handed.set(s, h);
  return s;
}

/**
 * `t[mask]` for a kept mask over the whole of an unfiltered, unordered `t` of its length: the table
 * from the kept words and index (copies), made and kept the first time; or undefined.
 */
export function keptRowsWhere(t: ColumnTable, m: Series): ColumnTable | undefined {
  const kept = keptOf(m);
  if (kept === undefined || t.isFiltered() || t.isOrdered() || t.totalRows() !== kept.bits.length) return undefined;
  if (kept.words !== null && kept.index !== null) return keepStorageWords(t, kept.words, kept.index);
  const out = keepStorageRows(t, kept.bits);
  const copied = storageWords(out);
  if (copied !== null) {
    kept.words = copied.words;
    kept.index = copied.index;
    bound();
  }
  return out;
}

/** Drops the oldest masks past KEPT entries or KEPT_BYTES bytes (the newest is always kept). */
function bound(): void {
  let bytes = 0;
  for (let e = 0; e < entries.length; e++) {
    const k = entries[e]!;
    bytes += k.bits.length + (k.words?.byteLength ?? 0) + (k.index?.byteLength ?? 0);
    if (e > 0 && (e >= KEPT || bytes > KEPT_BYTES)) {
      entries.length = e;
      return;
    }
  }
}
