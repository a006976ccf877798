/**
 * The groupings of every row of a table by host key columns, kept for the session (fast/groups.ts
 * `fastGroups`), and the per-group answers a rollup computed over one of them. A grouping handed to a
 * table reads the kept group ids until someone reads its `keys` (Arquero's verbs, a run through
 * `t.groups().keys`): that read makes the grouping's own copy, and from then on the grouping is
 * an ordinary one. While no one has read them, nothing outside the prelude can have changed them,
 * so a rollup over every row in storage order reads the kept ids, and the answer of the same
 * aggregate of the same column again (a count, a sum: `groupby(k).count()` asked in a later run) is
 * a copy of the kept one instead of a pass over every row.
 */
import {
  ArrayPrototypeSlice,
  ObjectDefineProperty,
  ObjectGetOwnPropertyDescriptor,
  ReflectApply,
  SafeWeakMap,
  TypedArraySet,
} from '../intrinsics.js';

/** Arquero's grouping object (Table#groups(); fast/groups.ts `Grouping`). */
interface Grouping {
  keys: Uint32Array;
  get: Array<(row: number) => unknown>;
  names: string[];
  rows: number[];
  size: number;
}

/** One kept grouping: the key column objects and row count it is for, its ids and first rows. */
export interface KeptGrouping {
  cols: readonly unknown[];
  n: number;
  ids: Uint32Array;
  first: number[];
  /**
   * The kept filter's words whose rows it groups (frame/keptFilterRows.ts), or null for every row:
   * `ids` are meaningful at those rows only (0 elsewhere, as Arquero's own grouping of a filtered table).
   */
  within: Uint32Array | null;
  /** Aggregates computed over it: the op's text, the column's typed array it read (null: count). */
  answers: Array<{ op: string; owner: object | null; out: object }>;
}

const KEPT_GROUPINGS = 4;
const kept: KeptGrouping[] = [];
/** Answers are kept for groupings of at most this many groups, at most this many per grouping. */
const ANSWER_GROUPS = 1 << 16;
const ANSWERS = 12;

/**
 * The kept grouping by these column objects of every row (`within` null) or of a kept filter's rows
 * (its words), or undefined.
 */
export function keptGrouping(
  cols: readonly unknown[],
  n: number,
  within: Uint32Array | null = null,
): KeptGrouping | undefined {
  for (let e = 0; e < kept.length; e++) {
    const k = kept[e]!;
    if (k.n === n && k.within === within && sameColumns(k.cols, cols)) return k;
  }
  return undefined;
}

function sameColumns(a: readonly unknown[], b: readonly unknown[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Keeps a grouping the caller made and hands it no longer (the last KEPT_GROUPINGS). */
export function keepGrouping(
  cols: readonly unknown[],
  n: number,
  ids: Uint32Array,
  first: number[],
  within: Uint32Array | null = null,
): KeptGrouping {
  const k: KeptGrouping = { cols, n, ids, first, within, answers: [] };
  if (kept.length >= KEPT_GROUPINGS) kept.pop();
  kept.unshift(k);
  return k;
}

/** Groupings whose `keys` no one has read yet, with their kept grouping and the getter they hold. */
const unread = new SafeWeakMap<object, { kept: KeptGrouping; getter: unknown }>();

/** Arquero's grouping object over a kept grouping, its `keys` copied when first read. */
export function lazyGrouping(k: KeptGrouping, get: Grouping['get'], names: string[]): Grouping {
  let own: Uint32Array | undefined;
  const settle = (keys: Uint32Array): void => {
    unread.delete(grouping);
    try {
      ObjectDefineProperty(grouping, 'keys', { value: keys, writable: true, enumerable: true, configurable: true });
    } catch {
      own = keys; // a frozen or sealed grouping: its accessor keeps answering the same copy
    }
  };
  // property order as Arquero's own object: keys, get, names, rows, size
  const grouping = {
    get keys(): Uint32Array {
      if (own === undefined) settle((own = copyIds(k.ids)));
      return own;
    },
    set keys(v: Uint32Array) {
      settle(v);
    },
    get,
    names,
    rows: ReflectApply(ArrayPrototypeSlice, k.first, []) as number[],
    size: k.first.length,
  };
  unread.set(grouping, { kept: k, getter: ObjectGetOwnPropertyDescriptor(grouping, 'keys')!.get });
  return grouping;
}

/**
 * The kept grouping `groups` still reads, when no one has read or replaced its `keys` and it groups
 * `n` rows in its kept number of groups; else undefined (read `groups.keys`).
 */
export function unreadGrouping(groups: object, n: number): KeptGrouping | undefined {
  const u = unread.get(groups);
  // `size` is a plain property a run may have changed: the kept answers have one value per kept group
  if (u === undefined || u.kept.n !== n || (groups as Grouping).size !== u.kept.first.length) return undefined;
  const d = ObjectGetOwnPropertyDescriptor(groups, 'keys');
  return d !== undefined && d.get === u.getter ? u.kept : undefined;
}

/**
 * The answer of `op` (its name and parameters as text) over `owner`'s values (a host column's typed
 * array, or null for a count) per group of `k`, visiting every row in storage order: the kept one,
 * copied, or `compute()`'s, kept. Only primitives may be kept (the caller never asks for Dates).
 */
export function keptAnswer(k: KeptGrouping, op: string, owner: object | null, compute: () => unknown[]): unknown[] {
  const out = keptValue(k, op, owner, compute); // only ever copied: the kept array is never handed out
  return ReflectApply(ArrayPrototypeSlice, out, []) as unknown[];
}

/**
 * keptAnswer's value itself, not copied: for callers that only read it and hand out arrays of their
 * own (fast/agg.ts).
 */
export function keptValue<T extends object>(k: KeptGrouping, op: string, owner: object | null, compute: () => T): T {
  for (let i = 0; i < k.answers.length; i++) {
    const a = k.answers[i]!;
    if (a.op === op && a.owner === owner) return a.out as T;
  }
  const out = compute();
  if (k.first.length > ANSWER_GROUPS) return out;
  if (k.answers.length >= ANSWERS) k.answers.pop();
  k.answers.unshift({ op, owner, out });
  return out;
}

// through the TypedArray `set` captured at load: a run may replace `slice` (frame/bitWords.ts)
function copyIds(a: Uint32Array): Uint32Array {
  const out = new Uint32Array(a.length);
  ReflectApply(TypedArraySet, out, [a]);
  return out;
}
