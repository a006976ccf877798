/**
 * Keyed accumulation loops answered from the columns: the guest side of
 * src/runtime/prepare/keyedLoops.ts. A loop such as
 *   for (const r of t.select('Agency', 'Award Amount').objects())
 *     totals[r.Agency] = (totals[r.Agency] || 0) + (r['Award Amount'] || 0);
 * (or over `t.array(col)`, or an index loop over arrays `t.array(col)` returned) reaches here with
 * its shape as data (`KeyedSpec`): the rows each group of the key takes, in row order, accumulate
 * into a Float64Array indexed by a dense group id made from the key columns' dictionary codes
 * (fast/keyCodes.ts), each row's update computed as written on the values the loop would read; then
 * the object or Map gets one assignment per group, in the order the groups first appear, so its
 * property or entry order is the loop's. Everything the loop as written could do besides
 * (a setter or key on the object's prototype chain, a replaced `Map.prototype.set/get`, keys that
 * meet as property keys, a value that is not a number or string or null) makes `keyedLoop` answer
 * false before it writes anything: the loop then runs as written.
 */
import {
  JSONStringify,
  MapSizeGetter,
  NativeArray,
  NativeMap,
  NativeSet,
  NewFunction,
  ObjectCreate,
  ObjectDefineProperty,
  ObjectGetOwnPropertyDescriptor,
  ObjectGetOwnPropertyNames,
  ObjectGetPrototypeOf,
  ObjectPrototype,
  ReflectApply,
  SafeMap,
  SafeSet,
} from '../intrinsics.js';
import { keyCodes } from '../fast/keyCodes.js';
import type { Source } from '../fast/source.js';
import {
  code,
  literalCodes,
  type Columns,
  arraysOf,
  columnsOf,
  type Copies,
  type Gen,
  holds,
  loads,
  plainTerm,
  rawFields,
  sessionMath,
  shapeText,
} from './keyedCode.js';
import { pickAtLoop, pickLoop, pushLoop, scalarLoop } from './scalarLoop.js';
import { setAddLoop } from './setAddLoop.js';
import { latestLoop } from './dateExtremeLoop.js';
import { deferGroups, forgetGroups, noteGroups, onObjectPrototype } from './keyedTop.js';

/**
 * A loop's shape, as the preparation writes it: `[target, op, key, cond, term]`. target 'object' or
 * 'map'; op the `||` or `??` of `(acc op 0) + term`, or 'entry' (one array or object per key whose
 * slots the loop adds terms into): term is then `['e', 'a' | 'o', slot names, first values,
 * [[slot, term], ...]]`, the entry `[n, ...]` or `{name: n, ...}` made as the key first appears; key, cond (or null) and term expression trees
 * over the loop's fields by index: `['f', i]` field i, `['s', text]`, `['n', number]`, `['l', null |
 * true | false]`, `['b', op, a, b]` (comparisons and `+`), `['L', op, a, b]` (`&&`, `||`, `??`),
 * `['!', a]`.
 */
export type KeyedSpec = unknown[];

const MAX_COMPILED = 64;

const MapProto = NativeMap.prototype;
const MapGet = MapProto.get;
const MapSet = MapProto.set;
const MapHas = MapProto.has;
const MapClear = MapProto.clear;
const SetHas = NativeSet.prototype.has;
const SetAdd = NativeSet.prototype.add;

type Kernel = (
  c: Columns,
  L: number[],
  mult: number[],
  idx: ArrayLike<number> | null,
  n: number,
  gid: Int32Array,
  first: Int32Array,
  acc: Float64Array,
) => number;
type KeyOf = (c: Columns, L: number[], r: number) => unknown;

interface Compiled {
  kernel: Kernel;
  /** Slots per group (1 for a sum); with an entry, the group's object or array made from its slots. */
  width: number;
  make: ((acc: Float64Array, at: number) => unknown) | null;
  /** Whether the kernel calls Math.max or Math.min (the run's Math must then be the session's). */
  math: boolean;
  keyOf: KeyOf;
  /** Fields the key reads (grouped by their codes), in the order of their multipliers. */
  keyFields: number[];
  /** Fields the term reads (must be number columns). */
  termFields: number[];
  /** The literals a condition compares a dictionary field with by code: `[field, text]`, in L's order. */
  lits: [number, string][];
}

const compiled = new SafeMap<string, Compiled>();

/** An entry's shape (spec[4] of an 'entry' loop, see KeyedSpec): validated, or undefined. */
interface EntryShape {
  shape: 'a' | 'o';
  names: string[];
  values: unknown[];
  updates: ([number, unknown] | [number, unknown, 'max' | 'min'])[];
}

function entryOf(e: unknown): EntryShape | undefined {
  if (!NativeArray.isArray(e) || e.length !== 5 || e[0] !== 'e' || (e[1] !== 'a' && e[1] !== 'o')) return undefined;
  const [, shape, names, values, updates] = e as [unknown, 'a' | 'o', unknown, unknown, unknown];
  if (!NativeArray.isArray(names) || !NativeArray.isArray(values) || !NativeArray.isArray(updates)) return undefined;
  if (names.length === 0 || names.length > 16 || values.length !== names.length || updates.length === 0)
    return undefined;
  const seen: unknown[] = [];
  for (let j = 0; j < names.length; j++) {
    const name = names[j] as unknown;
    if (typeof name !== 'string' || name === '__proto__' || (shape === 'a' && name !== '' + j)) return undefined;
    for (let k = 0; k < seen.length; k++) if (seen[k] === name) return undefined;
    seen[seen.length] = name;
    const v = values[j] as unknown;
    if (!NativeArray.isArray(v) || v.length !== 2 || v[0] !== 'n') return undefined;
  }
  for (let k = 0; k < updates.length; k++) {
    const u = updates[k] as unknown;
    if (!NativeArray.isArray(u) || (u.length !== 2 && (u.length !== 3 || (u[2] !== 'max' && u[2] !== 'min'))))
      return undefined;
    const at = u[0] as unknown;
    if (typeof at !== 'number' || at % 1 !== 0 || at < 0 || at >= names.length || !plainTerm(u[1])) return undefined;
  }
  return { shape, names: names as string[], values, updates: updates as EntryShape['updates'] };
}

/** The kernel and key function of `spec` over fields of `kinds`, compiled once per shape; undefined when it is not one. */
function compile(spec: KeyedSpec, kinds: string, verify: boolean): Compiled | undefined {
  const cacheKey = `${kinds}\u0000${verify ? 'v' : ''}\u0000${shapeText(spec)}`;
  const hit = ReflectApply(MapGet, compiled, [cacheKey]) as Compiled | undefined;
  if (hit) return hit;
  const [, op, key, cond, term] = spec;
  const entry = op === 'entry' ? entryOf(term) : undefined;
  if (entry === undefined && ((op !== '||' && op !== '??') || !plainTerm(term))) return undefined;
  // one list of literals: every L<j> a compiled function names is loaded
  const lits: [number, string][] = [];
  const keyGen: Gen = { kinds, used: [], lits, raw: [] };
  const keyCode = code(key, keyGen);
  const condGen: Gen = { kinds, used: [], lits, raw: verify ? rawFields(cond, kinds.length) : [] };
  const condCode = cond === null ? 'true' : code(cond, condGen);
  const termGen: Gen = { kinds, used: [], lits, raw: [] };
  // a sum: `acc[g] = (acc[g] op 0) + term`; an entry: its slots at g * width set as it is made, then
  // each update in the written order (`e[0] += term`, `e.n++` adds 1)
  let width = 1;
  let made = '';
  let updates = '';
  let make: Compiled['make'] = null;
  let math = false;
  if (entry === undefined) {
    const termCode = code(term, termGen);
    if (termCode === undefined) return undefined;
    updates = `acc[g] = (acc[g] ${op as string} 0) + ${termCode};`;
  } else {
    width = entry.names.length;
    let parts = '';
    for (let j = 0; j < width; j++) {
      const v = code(entry.values[j], termGen);
      if (v === undefined) return undefined;
      made += ` acc[b + ${j}] = ${v};`;
      parts += `${entry.shape === 'a' ? '' : `[${JSONStringify(entry.names[j])}]: `}a[b + ${j}], `;
    }
    updates = `const b = g * ${width};`;
    for (let k = 0; k < entry.updates.length; k++) {
      const [at, t, fn] = entry.updates[k]!;
      const termCode = code(t, termGen);
      if (termCode === undefined) return undefined;
      if (fn === undefined) updates += ` acc[b + ${at}] += ${termCode};`;
      else {
        math = true;
        updates += ` acc[b + ${at}] = ${fn === 'max' ? 'MX' : 'MN'}(acc[b + ${at}], ${termCode});`;
      }
    }
    make = NewFunction('a', 'b', entry.shape === 'a' ? `return [${parts}];` : `return {${parts}};`) as Compiled['make'];
  }
  const keyFields = keyGen.used;
  if (keyCode === undefined || condCode === undefined || keyFields.length === 0) return undefined;
  // each field the loop reads at a row, compared with the kept value there (Object.is: -0 and NaN as
  // themselves): a condition's fields at every row, the key's and the term's at the rows that pass
  let checks = '';
  let passed = '';
  if (verify)
    for (let i = 0; i < kinds.length; i++) {
      const check = `
      { const x = X${i}[r], a = A${i}[r]; if (x !== a ? x === x || a === a : x === 0 && 1 / x !== 1 / a) return -1; }`;
      if (holds(condGen.used, i) && !holds(condGen.raw, i)) checks += check;
      else if (holds(keyGen.used, i) || holds(termGen.used, i)) passed += check;
    }
  let litLoad = '';
  for (let j = 0; j < lits.length; j++) litLoad += `const L${j} = L[${j}]; `;
  let multLoad = '';
  let slot = '0';
  for (let j = 0; j < keyFields.length; j++) {
    multLoad += `const m${j} = mult[${j}]; `;
    slot += ` + K${keyFields[j]!}[r] * m${j}`;
  }
  const kernel = NewFunction(
    'c',
    'L',
    'mult',
    'idx',
    'n',
    'gid',
    'first',
    'acc',
    `${loads(kinds, verify)} ${litLoad} ${multLoad} const MX = c.MX, MN = c.MN; let groups = 0;
    for (let k = 0; k < n; k++) {
      const r = idx === null ? k : idx[k];${checks}
      if (!${condCode}) continue;${passed}
      const s = ${slot};
      let g = gid[s] - 1;
      if (g < 0) { g = groups++; gid[s] = groups; first[g] = r;${made ? ` const b = g * ${width};${made}` : ''} }
      ${updates}
    }
    return groups;`,
  ) as Kernel;
  const keyOf = NewFunction('c', 'L', 'r', `${loads(kinds, false)} ${litLoad} return ${keyCode};`) as KeyOf;
  const c: Compiled = { kernel, width, make, math, keyOf, keyFields, termFields: termGen.used, lits };
  if ((ReflectApply(MapSizeGetter, compiled, []) as number) >= MAX_COMPILED) ReflectApply(MapClear, compiled, []);
  ReflectApply(MapSet, compiled, [cacheKey, c]);
  return c;
}

/** Whether `target` is still what the loop's `{}` or `new Map()` made, untouched, with the methods the loop would call the session's own. */
function freshTarget(kind: unknown, target: unknown): boolean {
  if (target === null || typeof target !== 'object') return false;
  if (kind === 'object')
    return ObjectGetPrototypeOf(target) === ObjectPrototype && ObjectGetOwnPropertyNames(target).length === 0;
  if (kind !== 'map') return false;
  // `new Map()` of a Map the run replaced could have made a Proxy: its prototype is not asked then
  if (ObjectGetOwnPropertyDescriptor(globalThis, 'Map')?.value !== NativeMap) return false;
  if (ObjectGetPrototypeOf(target) !== MapProto) return false;
  if (ObjectGetOwnPropertyDescriptor(MapProto, 'get')?.value !== MapGet) return false;
  if (ObjectGetOwnPropertyDescriptor(MapProto, 'set')?.value !== MapSet) return false;
  if (ObjectGetOwnPropertyDescriptor(MapProto, 'has')?.value !== MapHas) return false;
  if (
    ObjectGetOwnPropertyDescriptor(target, 'get') ||
    ObjectGetOwnPropertyDescriptor(target, 'set') ||
    ObjectGetOwnPropertyDescriptor(target, 'has')
  )
    return false;
  try {
    return ReflectApply(MapSizeGetter, target, []) === 0;
  } catch {
    return false;
  }
}

/** Whether a key expression is one field read as it is. */
const isKeyField = (e: unknown) => NativeArray.isArray(e) && e.length === 2 && e[0] === 'f';

/** The most group slots (product of the key fields' cardinalities) for `n` rows: a few per row, else the loop runs as written. */
const maxSlots = (n: number) => 4 * n + 65_536;

/**
 * Answers a keyed accumulation loop into `target` (see the file's comment): `srcs[i]` is the column
 * of field i, whose values are those the loop reads (rows by raw index), `idx` the rows the loop
 * visits in order (null: 0..n-1). True when `target` now holds exactly what the loop would have left
 * in it; false, with nothing written, when the loop must run as written.
 */
export function keyedLoop(
  spec: unknown,
  target: unknown,
  srcs: (Source | undefined)[],
  idx: ArrayLike<number> | null,
  n: number,
  copies: Copies | null = null,
): boolean {
  forgetGroups();
  // `['defer', spec]`: only the statement right after the loop reads the target (prepare/keyedTop.ts)
  let defer = false;
  if (NativeArray.isArray(spec) && spec.length === 2 && spec[0] === 'defer') {
    defer = true;
    spec = spec[1];
  }
  // a scalar accumulation (numbers in locals, data/scalarLoop.ts) shares the token and the sources
  if (NativeArray.isArray(spec) && spec[0] === 'scalar') return scalarLoop(spec, target, srcs, idx, n, copies);
  if (NativeArray.isArray(spec) && spec[0] === 'pick') return copies === null && pickLoop(spec, target, srcs, idx, n);
  if (NativeArray.isArray(spec) && spec[0] === 'push') return copies === null && pushLoop(spec, target, srcs, idx, n);
  if (NativeArray.isArray(spec) && spec[0] === 'add') return copies === null && setAddLoop(spec, target, srcs, idx, n);
  if (NativeArray.isArray(spec) && spec[0] === 'latest')
    return copies === null && latestLoop(spec, target, srcs, idx, n);
  // an index loop keeping an index (data/keyedArrays.ts only: every row, in order)
  if (NativeArray.isArray(spec) && spec[0] === 'pickAt')
    return idx === null && pickAtLoop(spec, target, srcs, n, copies);
  if (!NativeArray.isArray(spec) || spec.length !== 5 || !freshTarget(spec[0], target)) return false;
  const read = columnsOf(srcs, copies);
  if (read === undefined) return false;
  const { kinds, cols } = read;
  const c = compile(spec, kinds, copies !== null);
  if (!c || (c.math && !sessionMath())) return false;
  for (let k = 0; k < c.termFields.length; k++) if (kinds[c.termFields[k]!] !== 'n') return false;
  // over every row with no copy to check, the same loop again answers from what the session kept
  const keyText = idx === null && copies === null ? `${kinds}\u0000${shapeText(spec)}` : null;
  const arrays = keyText === null ? null : arraysOf(srcs);
  const hit = keyText === null ? null : keptGroups(keyText, arrays!, n);
  if (hit !== null) return settle(spec[0] === 'object', target, hit.keys, hit.acc, c, defer);
  const L = literalCodes(c.lits, srcs);
  const mult: number[] = [];
  let slots = 1;
  for (let j = c.keyFields.length - 1; j >= 0; j--) {
    const i = c.keyFields[j]!;
    const kc = keyCodes(srcs[i]!);
    cols.K[i] = kc.codes;
    mult[j] = slots;
    slots *= kc.card;
    if (slots > maxSlots(n)) return false;
  }
  const most = slots < n ? slots : n;
  // a group's id + 1 per slot (0: not seen yet)
  const gid = new Int32Array(slots);
  const first = new Int32Array(most);
  const acc = new Float64Array(most * c.width);
  const groups = c.kernel(cols, L, mult, idx, n, gid, first, acc);
  if (groups < 0) return false;
  // the keys as the loop computes them, from each group's first row; two groups whose keys meet (as
  // property keys, or as Map keys) or a key the object already has (its prototype's included) mean
  // the loop as written interleaves or reaches what is there: it runs as written instead. One key
  // field's distinct codes are distinct Map keys, and distinct property keys but for null and 'null'.
  const keys = new NativeArray<unknown>(groups);
  const isObject = spec[0] === 'object';
  const one = c.keyFields.length === 1 && isKeyField(spec[2]);
  const seen = one ? null : new SafeSet<unknown>();
  let nulls = 0;
  for (let g = 0; g < groups; g++) {
    const k = c.keyOf(cols, L, first[g]!);
    const key = isObject ? '' + (k as string) : k;
    if (seen !== null) {
      if (ReflectApply(SetHas, seen, [key])) return false;
      ReflectApply(SetAdd, seen, [key]);
    } else if (isObject && key === 'null' && ++nulls > 1) return false;
    keys[g] = key;
  }
  // the groups' slots alone (an index loop, no typed-array method a run may have replaced)
  const sums = new Float64Array(groups * c.width);
  for (let j = 0; j < sums.length; j++) sums[j] = acc[j]!;
  if (keyText !== null) keepGroups({ key: keyText, arrays: arrays!, n, keys, acc: sums });
  return settle(isObject, target, keys, sums, c, defer);
}

/**
 * Writes a keyed loop's groups into `target` in first-occurrence order: `o[key] = total` (or the entry
 * `make` builds from the group's slots, fresh each time) on the object, the session's `set` on the Map.
 * False, with nothing written, when a key is already on the object (its prototype's included: a key
 * the loop as written would read, and maybe a setter of the run's).
 */
function settle(
  isObject: boolean,
  target: unknown,
  keys: unknown[],
  acc: Float64Array,
  c: Compiled,
  defer = false,
): boolean {
  const groups = keys.length;
  const make = c.make;
  if (isObject) {
    const o = target as Record<string, unknown>;
    // a fresh `{}` (freshTarget): a key `in` it is a property of Object.prototype
    if (onObjectPrototype(keys)) return false;
    // written later, when the top statement after the loop runs as written or the run ends
    if (defer) {
      deferGroups(o, keys, acc, c.width, make !== null, () => defineTotals(o, keys, acc, c));
      return true;
    }
    for (let g = 0; g < groups; g++) o[keys[g] as string] = make === null ? acc[g]! : make(acc, g * c.width);
  } else if (defer) {
    deferGroups(target as object, keys, acc, c.width, make !== null, () => {
      for (let g = 0; g < groups; g++)
        ReflectApply(MapSet, target, [keys[g], make === null ? acc[g] : make(acc, g * c.width)]);
    });
    return true;
  } else
    for (let g = 0; g < groups; g++)
      ReflectApply(MapSet, target, [keys[g], make === null ? acc[g] : make(acc, g * c.width)]);
  // the totals or entries written, for a top statement right after the loop (data/keyedTop.ts)
  noteGroups(target as object, keys, acc, c.width, make !== null);
  return true;
}

/**
 * A deferred object's totals (or entries), made as the loop's assignments made them (own data properties, in the
 * groups' order): assigned when no key is on the prototype chain now, else defined, so no setter a
 * later run put on Object.prototype meanwhile runs (the loop checked the chain at its start).
 */
function defineTotals(o: Record<string, unknown>, keys: unknown[], acc: Float64Array, c: Compiled): void {
  const groups = keys.length;
  const make = c.make;
  const value = (g: number) => (make === null ? acc[g] : make(acc, g * c.width));
  if (!onObjectPrototype(keys)) {
    for (let g = 0; g < groups; g++) o[keys[g] as string] = value(g);
    return;
  }
  const d = ObjectCreate(null) as PropertyDescriptor;
  d.writable = true;
  d.enumerable = true;
  d.configurable = true;
  for (let g = 0; g < groups; g++) {
    d.value = value(g);
    ObjectDefineProperty(o, keys[g] as string, d);
  }
}

/**
 * A keyed loop answered over every row of host columns, kept (session 19): the same loop again in the
 * session (an agent re-running a cell) finds its groups' keys and accumulators by the shape, the
 * columns' arrays (a session's host columns never change) and the row count, and writes them into its
 * fresh object or Map (`settle`, which checks the object's prototype chain each time). The keys and
 * sums are never handed out: entries are made anew from the sums each time.
 */
interface KeptGroups {
  key: string;
  arrays: unknown[];
  n: number;
  keys: unknown[];
  acc: Float64Array;
}
const KEPT_GROUPS = 8;
const keptList: KeptGroups[] = [];

/** The kept groups of this loop, most recent first (moved to the front), or null. */
function keptGroups(key: string, arrays: unknown[], n: number): KeptGroups | null {
  for (let e = 0; e < keptList.length; e++) {
    const k = keptList[e]!;
    if (k.key !== key || k.n !== n || k.arrays.length !== arrays.length) continue;
    let same = true;
    for (let j = 0; j < arrays.length && same; j++) same = k.arrays[j] === arrays[j];
    if (!same) continue;
    for (let j = e; j > 0; j--) keptList[j] = keptList[j - 1]!;
    keptList[0] = k;
    return k;
  }
  return null;
}

/** Keeps groups as the most recent (the oldest falls off); no Array.prototype method (a run may replace them). */
function keepGroups(k: KeptGroups): void {
  const n = keptList.length < KEPT_GROUPS ? keptList.length + 1 : KEPT_GROUPS;
  for (let j = n - 1; j > 0; j--) keptList[j] = keptList[j - 1]!;
  keptList[0] = k;
}

/** An iterator that is done at once: what a loop answered here iterates. */
export function doneIterator(): Iterator<unknown> {
  const res = { done: true, value: undefined };
  const it = {
    next: () => res,
    [Symbol.iterator]: () => it,
  };
  return it;
}
