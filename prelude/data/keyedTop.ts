/**
 * The top entries of a keyed loop's object or Map, read from the groups the loop just wrote: the
 * guest side of src/runtime/prepare/keyedTop.ts. A program such as
 *   const by = new Map();
 *   for (const r of t.objects()) by.set(r.Company, (by.get(r.Company) || 0) + (r['Award Amount'] || 0));
 *   [...by].sort((a, b) => b[1] - a[1]).slice(0, 5)
 * made 36,479 entry arrays and sorted them all to keep five. The loop's answer (data/keyedLoop.ts
 * `settle`) notes the keys and totals it wrote into its target; the statement right after the loop
 * (nothing of the run's runs between) asks `top(target, [kind, desc, K])`, which hands the K entries
 * the spread (or `Object.entries`), the stable sort and the slice would give, as fresh `[key, total]`
 * arrays, or null when the statement must run as written: another target, a total that is NaN (the
 * comparator is then no order), or a method the statement as written would call that is not the
 * session's own (read as descriptors: `sort`, `slice` and the species they construct with, the Map's
 * iterator and its `next`, `Object` and `Object.entries`).
 */
import {
  arrayIterationIntact,
  JSONStringify,
  NativeArray,
  NewFunction,
  NativeMap,
  ObjectCreate,
  ObjectGetOwnPropertyDescriptor,
  ObjectGetOwnPropertyNames,
  ObjectGetPrototypeOf,
  ObjectPrototype,
  ReflectApply,
  SafeMap,
  SafeSet,
  SafeWeakMap,
} from '../intrinsics.js';
import { holdRows } from './pendingRows.js';

const G = globalThis;
const ArrayPrototype = NativeArray.prototype;
const ArraySort = ArrayPrototype.sort;
const ArraySlice = ArrayPrototype.slice;
const ArrayMap = ArrayPrototype.map;
const ArrayFrom = NativeArray.from;
const SpeciesGetter = ObjectGetOwnPropertyDescriptor(NativeArray, Symbol.species)?.get;
const NativeObject = G.Object;
const ObjectEntries = G.Object.entries;
const MapProto = NativeMap.prototype;
const MapEntries = MapProto.entries;
const MapIteratorProto = ObjectGetPrototypeOf(ReflectApply(MapEntries, new NativeMap(), [])) as object;
const MapIteratorNext = ObjectGetOwnPropertyDescriptor(MapIteratorProto, 'next')?.value as unknown;

/**
 * What the last keyed loop wrote: its target, each group's key in the order written, and its slots
 * (`width` per group: a total, or an entry's slots when `entry`).
 */
interface Noted {
  target: object;
  keys: unknown[];
  acc: Float64Array;
  width: number;
  entry: boolean;
}
let noted: Noted | null = null;

/** Notes the groups a keyed loop just wrote into `target` (`acc[g * width + j]` slot j of `keys[g]`'s value). */
export function noteGroups(target: object, keys: unknown[], acc: Float64Array, width = 1, entry = false): void {
  noted = { target, keys, acc, width, entry };
}

/**
 * Targets whose totals are not written yet (a loop whose target only its top statement reads: the
 * preparation's proof), each with the function that writes them.
 */
const pending = new SafeWeakMap<object, () => void>();

/**
 * Notes the groups as noteGroups does and leaves `target` empty until `fill` writes them: at the top
 * statement when it runs as written, else when the run writes the target back (releaseKeyed).
 */
export function deferGroups(
  target: object,
  keys: unknown[],
  acc: Float64Array,
  width: number,
  entry: boolean,
  fill: () => void,
): void {
  noteGroups(target, keys, acc, width, entry);
  pending.set(target, fill);
}

/** Writes a deferred target's totals now (nothing when it has none pending). */
function fillNow(target: unknown): void {
  if (target === null || typeof target !== 'object') return;
  const fill = pending.get(target);
  if (fill === undefined) return;
  pending.delete(target);
  fill();
}

/**
 * The write-back of a keyed loop's target at the end of its run (`__sbirtools_rowLoop.release`):
 * totals still deferred stay so on the global `name` until its first read (data/pendingRows.ts
 * holdRows), or are written now. Any other value is returned as it is.
 */
export function releaseKeyed(value: unknown, name: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  const fill = pending.get(value);
  if (fill === undefined) return value;
  pending.delete(value);
  if (typeof name !== 'string' || !holdRows(value as unknown[], fill, name)) fill();
  return value;
}

/** Forgets the noted groups (a keyed loop starts: what it writes, if anything, is noted anew). */
export function forgetGroups(): void {
  noted = null;
}

/** Whether `o`'s own `key` is a data property holding `value`. */
function holds(o: object, key: PropertyKey, value: unknown): boolean {
  const d = ObjectGetOwnPropertyDescriptor(o, key);
  return d !== undefined && 'value' in d && d.value === value;
}

/** Whether `sort` and `slice` on a fresh array call nothing of the run's (the species `slice` constructs with included). */
function sortAndSliceNative(): boolean {
  if (!holds(ArrayPrototype, 'sort', ArraySort) || !holds(ArrayPrototype, 'slice', ArraySlice)) return false;
  if (!holds(ArrayPrototype, 'constructor', NativeArray)) return false;
  const species = ObjectGetOwnPropertyDescriptor(NativeArray, Symbol.species);
  return species !== undefined && species.get === SpeciesGetter;
}

/** Whether `[...m]` runs the session's Map iterator over `m` (a Map of the session's, as the loop checked). */
function spreadNative(m: object): boolean {
  return (
    ObjectGetPrototypeOf(m) === MapProto &&
    ObjectGetOwnPropertyDescriptor(m, Symbol.iterator) === undefined &&
    holds(MapProto, Symbol.iterator, MapEntries) &&
    holds(MapIteratorProto, 'next', MapIteratorNext)
  );
}

/** Whether `Object.entries` is the session's own (the global `Object` too). */
function entriesNative(): boolean {
  return holds(G, 'Object', NativeObject) && holds(NativeObject, 'entries', ObjectEntries);
}

/** An array index as a property key ('0'...'4294967294'): such keys come first in an object's own order. */
function indexOf(key: string): number {
  const n = +key;
  return n >>> 0 === n && n !== 4294967295 && '' + n === key ? n : -1;
}

/**
 * The K entries `[...target].sort(cmp).slice(0, K)` (kind 'map') or `Object.entries(target)...`
 * ('object') would give, cmp ordering by the value descending (desc 1) or ascending, when target is
 * the one the last keyed loop wrote; else null. Consumes the note either way.
 */
export function keyedTop(target: unknown, spec: unknown): unknown[] | null {
  const top = topEntries(target, spec);
  // the statement as written reads the target: its totals first
  if (top === null) fillNow(target);
  return top;
}

function topEntries(target: unknown, spec: unknown): unknown[] | null {
  const n = noted;
  noted = null;
  if (n === null || n.target !== target || !NativeArray.isArray(spec) || spec.length < 3 || spec.length > 4)
    return null;
  const kind = spec[0] as unknown;
  const desc = spec[1] === 1;
  const k = spec[2] as unknown;
  if (typeof k !== 'number' || !(k >= 0 && k <= 100) || k % 1 !== 0) return null;
  if (kind === 'map' ? !spreadNative(n.target) : kind !== 'object' || !entriesNative()) return null;
  if (!sortAndSliceNative()) return null;
  const keys = n.keys;
  const groups = keys.length;
  // the values sorted: the totals, or what `.map(([k, v]) => [k, VALUE])` makes of each entry
  let acc = n.acc;
  if (spec.length === 4) {
    const tree = spec[3] as unknown;
    // the callback destructures each entry (and an array entry) through the array iterator
    if (!plainTree(tree, n.width) || !holds(ArrayPrototype, 'map', ArrayMap) || !arrayIterationIntact()) return null;
    const value = compiled(tree as unknown[]);
    acc = new Float64Array(groups);
    for (let g = 0; g < groups; g++) acc[g] = value(n.acc, g * n.width);
  } else if (n.entry) return null;
  const band = placesOf(keys, kind === 'object');
  // the first K in a stable sort by value: a buffer of the best so far, a new entry after its equals
  const top = new Int32Array(k);
  let m = 0;
  for (let g = 0; g < groups; g++) {
    const v = acc[g]!;
    if (v !== v) return null;
    if (m === k && !before(v, band[g]!, acc[top[m - 1]!]!, band[top[m - 1]!]!, desc)) continue;
    let j = m < k ? m++ : m - 1;
    while (j > 0 && before(v, band[g]!, acc[top[j - 1]!]!, band[top[j - 1]!]!, desc)) {
      top[j] = top[j - 1]!;
      j--;
    }
    top[j] = g;
  }
  // fresh arrays, defined as literals and Array.from define them (no setter of the run's runs)
  const from = ObjectCreate(null) as { length: number };
  from.length = m;
  return ReflectApply(ArrayFrom, NativeArray, [
    from,
    (_: unknown, j: number) => [keys[top[j]!], acc[top[j]!]],
  ]) as unknown[];
}

/** Whether `t` is a value tree over `width` slots (src/runtime/prepare/keyedTop.ts mapShape). */
function plainTree(t: unknown, width: number): boolean {
  if (!NativeArray.isArray(t)) return false;
  switch (t[0]) {
    case 'n':
      // a literal's number: finite, never -0 (compiled through its JSON text)
      return t.length === 2 && typeof t[1] === 'number' && t[1] - t[1] === 0 && !(t[1] === 0 && 1 / t[1] < 0);
    case 's':
      return t.length === 2 && typeof t[1] === 'number' && t[1] % 1 === 0 && t[1] >= 0 && t[1] < width;
    case '-':
      return t.length === 2 && plainTree(t[1], width);
    case 'b':
      return (
        t.length === 4 &&
        (t[1] === '+' || t[1] === '-' || t[1] === '*' || t[1] === '/') &&
        plainTree(t[2], width) &&
        plainTree(t[3], width)
      );
    default:
      return false;
  }
}

type Value = (acc: Float64Array, b: number) => number;
/** Compiled value trees by their text (a few shapes per session; cleared past 32). */
const values = new SafeMap<string, Value>();

/**
 * A plainTree's function of the slots starting at `acc[b]`: the same operations on the same numbers
 * (compiled from the validated tree, never from text of the run's: numbers through JSONStringify,
 * operators from plainTree's list).
 */
function compiled(t: unknown[]): Value {
  const text = JSONStringify(t) as string;
  let f = values.get(text);
  if (f === undefined) {
    if (values.size >= 32) values.clear();
    f = NewFunction('a', 'b', `return ${valueCode(t)};`) as Value;
    values.set(text, f);
  }
  return f;
}

function valueCode(t: unknown[]): string {
  switch (t[0]) {
    case 'n':
      return `(${JSONStringify(t[1]) as string})`;
    case 's':
      return `a[b + ${t[1] as number}]`;
    case '-':
      return `(-${valueCode(t[1] as unknown[])})`;
    default:
      return `(${valueCode(t[2] as unknown[])} ${t[1] as string} ${valueCode(t[3] as unknown[])})`;
  }
}

/** placesOf's answers by the keys array (a kept loop's keys: never handed out, never changed). */
const places = new SafeWeakMap<unknown[], Float64Array>();

/**
 * Each entry's place in the order the entries come in: the groups' order, but for an object its
 * array-index keys first, ascending (by index), then the rest in the groups' order.
 */
function placesOf(keys: unknown[], isObject: boolean): Float64Array {
  const groups = keys.length;
  if (!isObject) {
    const band = new Float64Array(groups);
    for (let g = 0; g < groups; g++) band[g] = g;
    return band;
  }
  let band = places.get(keys);
  if (band !== undefined) return band;
  band = new Float64Array(groups);
  for (let g = 0; g < groups; g++) {
    const i = indexOf(keys[g] as string);
    band[g] = i < 0 ? 4294967296 + g : i;
  }
  places.set(keys, band);
  return band;
}

/** keySet's answers by the keys array, as placesOf's. */
const keySets = new SafeWeakMap<unknown[], Set<unknown>>();

/**
 * Whether one of `keys` (property keys) is a property of Object.prototype (what `key in o` finds on a
 * fresh `{}`: Object.prototype has no prototype of its own), found from its own names, a dozen unless
 * a run added some, instead of one lookup per key.
 */
export function onObjectPrototype(keys: unknown[]): boolean {
  let set = keySets.get(keys);
  if (set === undefined) {
    set = new SafeSet<unknown>();
    for (let g = 0; g < keys.length; g++) set.add(keys[g]);
    keySets.set(keys, set);
  }
  const names = ObjectGetOwnPropertyNames(ObjectPrototype);
  for (let i = 0; i < names.length; i++) if (set.has(names[i])) return true;
  return false;
}

/** Whether value v at place p comes before value w at place q (equal values: by place). */
function before(v: number, p: number, w: number, q: number, desc: boolean): boolean {
  if (v === w) return p < q; // -0 and 0 too: `b[1] - a[1]` is 0
  return desc ? v > w : v < w;
}
