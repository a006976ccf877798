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
  NumberIsFinite,
  ObjectCreate,
  ObjectGetOwnPropertyDescriptor,
  ObjectGetOwnPropertyNames,
  ObjectGetPrototypeOf,
  ObjectPrototype,
  ReflectApply,
} from '../intrinsics.js';
import { keyCodes } from '../fast/keyCodes.js';
import type { Source } from '../fast/source.js';

/**
 * A loop's shape, as the preparation writes it: `[target, op, key, cond, term]`. target 'object' or
 * 'map'; op the `||` or `??` of `(acc op 0) + term`; key, cond (or null) and term expression trees
 * over the loop's fields by index: `['f', i]` field i, `['s', text]`, `['n', number]`, `['l', null |
 * true | false]`, `['b', op, a, b]` (comparisons and `+`), `['L', op, a, b]` (`&&`, `||`, `??`),
 * `['!', a]`.
 */
export type KeyedSpec = unknown[];

const COMPARE = new Set(['===', '!==', '==', '!=', '<', '<=', '>', '>=', '+']);
const LOGICAL = new Set(['&&', '||', '??']);
/** The most group slots (product of the key columns' cardinalities) a loop is answered with. */
const MAX_SLOTS = 1 << 24;
const MAX_COMPILED = 64;

const NewFunction = globalThis.Function;
const MapProto = NativeMap.prototype;
const MapGet = MapProto.get;
const MapSet = MapProto.set;

type Kernel = (
  vals: ArrayLike<unknown>[],
  codes: Int32Array[],
  mult: number[],
  idx: ArrayLike<number> | null,
  n: number,
  gid: Int32Array,
  first: Int32Array,
  acc: Float64Array,
) => number;
type KeyOf = (vals: ArrayLike<unknown>[], r: number) => unknown;

interface Compiled {
  kernel: Kernel;
  keyOf: KeyOf;
  /** Fields the key reads (grouped by their codes), in the order of their multipliers. */
  keyFields: number[];
  /** Fields the term reads (must be number columns). */
  termFields: number[];
}

const compiled = new NativeMap<string, Compiled>();
const MapClear = MapProto.clear;

/** A text that names `e` exactly (no Array.prototype method or toJSON of the run's is reached). */
function shapeText(e: unknown): string {
  if (!NativeArray.isArray(e)) {
    if (typeof e === 'string') return JSONStringify(e);
    return e !== null && (typeof e === 'object' || typeof e === 'function') ? '?' : typeof e + ':' + (e as string);
  }
  let out = '[';
  for (let i = 0; i < e.length; i++) out += shapeText(e[i]) + ',';
  return out + ']';
}

/** Whether `list` already holds `i` (no Array.prototype method: a run may have replaced them). */
function holds(list: number[], i: number): boolean {
  for (let k = 0; k < list.length; k++) if (list[k] === i) return true;
  return false;
}

/** The JavaScript of expression `e` over `v<i>[r]`, collecting the fields it reads; undefined for anything else. */
function code(e: unknown, fields: number, used: number[]): string | undefined {
  if (!NativeArray.isArray(e) || e.length < 2) return undefined;
  const tag = e[0];
  if (e.length !== (tag === 'b' || tag === 'L' ? 4 : 2)) return undefined;
  if (tag === 'f') {
    const i = e[1];
    if (typeof i !== 'number' || i % 1 !== 0 || i < 0 || i >= fields) return undefined;
    if (!holds(used, i)) used[used.length] = i;
    return `v${i}[r]`;
  }
  if (tag === 's') return typeof e[1] === 'string' ? JSONStringify(e[1]) : undefined;
  if (tag === 'n') {
    const v = e[1];
    if (typeof v !== 'number' || !NumberIsFinite(v)) return undefined;
    return v === 0 && 1 / v < 0 ? '(-0)' : `(${'' + v})`;
  }
  if (tag === 'l') return e[1] === null ? 'null' : e[1] === true ? 'true' : e[1] === false ? 'false' : undefined;
  if (tag === '!') {
    const a = code(e[1], fields, used);
    return a === undefined ? undefined : `(!${a})`;
  }
  if ((tag === 'b' && COMPARE.has(e[1] as string)) || (tag === 'L' && LOGICAL.has(e[1] as string))) {
    const a = code(e[2], fields, used);
    const b = code(e[3], fields, used);
    return a === undefined || b === undefined ? undefined : `(${a} ${e[1] as string} ${b})`;
  }
  return undefined;
}

/** A term is a number, a field, or `field || number` / `field ?? number`: never a string. */
function plainTerm(e: unknown): boolean {
  if (!NativeArray.isArray(e) || e.length < 2) return false;
  if (e[0] === 'n' || e[0] === 'f') return true;
  if (e.length !== 4) return false;
  if (e[0] !== 'L' || (e[1] !== '||' && e[1] !== '??')) return false;
  const a = e[2] as unknown[];
  const b = e[3] as unknown[];
  return NativeArray.isArray(a) && a[0] === 'f' && NativeArray.isArray(b) && b[0] === 'n';
}

/** The kernel and key function of `spec` over `fields` fields, compiled once per shape; undefined when it is not one. */
function compile(spec: KeyedSpec, fields: number): Compiled | undefined {
  const cacheKey = `${fields}\u0000${shapeText(spec)}`;
  const hit = ReflectApply(MapGet, compiled, [cacheKey]) as Compiled | undefined;
  if (hit) return hit;
  const [, op, key, cond, term] = spec;
  if (op !== '||' && op !== '??') return undefined;
  if (!plainTerm(term)) return undefined;
  const keyFields: number[] = [];
  const keyCode = code(key, fields, keyFields);
  const condFields: number[] = [];
  const condCode = cond === null ? 'true' : code(cond, fields, condFields);
  const termFields: number[] = [];
  const termCode = code(term, fields, termFields);
  if (keyCode === undefined || condCode === undefined || termCode === undefined || keyFields.length === 0)
    return undefined;
  let load = '';
  for (let i = 0; i < fields; i++) load += `const v${i} = vals[${i}]; `;
  let codesLoad = '';
  let slot = '0';
  for (let j = 0; j < keyFields.length; j++) {
    codesLoad += `const c${j} = codes[${j}], m${j} = mult[${j}]; `;
    slot += ` + c${j}[r] * m${j}`;
  }
  const kernel = NewFunction(
    'vals',
    'codes',
    'mult',
    'idx',
    'n',
    'gid',
    'first',
    'acc',
    `${load} ${codesLoad} let groups = 0;
    for (let k = 0; k < n; k++) {
      const r = idx === null ? k : idx[k];
      if (!${condCode}) continue;
      const s = ${slot};
      let g = gid[s] - 1;
      if (g < 0) { g = groups++; gid[s] = groups; first[g] = r; }
      acc[g] = (acc[g] ${op} 0) + ${termCode};
    }
    return groups;`,
  ) as Kernel;
  const keyOf = NewFunction('vals', 'r', `${load} return ${keyCode};`) as KeyOf;
  const c: Compiled = { kernel, keyOf, keyFields, termFields };
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
  if (ObjectGetOwnPropertyDescriptor(target, 'get') || ObjectGetOwnPropertyDescriptor(target, 'set')) return false;
  try {
    return ReflectApply(MapSizeGetter, target, []) === 0;
  } catch {
    return false;
  }
}

/**
 * Answers a keyed accumulation loop into `target` (see the file's comment): `vals[i]` are field i's
 * values by row (what the loop reads), `srcs[i]` its column (keys group by its codes), `idx` the
 * rows the loop visits in order (null: 0..n-1). True when `target` now holds exactly what the loop
 * would have left in it; false, with nothing written, when the loop must run as written.
 */
export function keyedLoop(
  spec: unknown,
  target: unknown,
  vals: ArrayLike<unknown>[],
  srcs: (Source | undefined)[],
  idx: ArrayLike<number> | null,
  n: number,
): boolean {
  if (!NativeArray.isArray(spec) || spec.length !== 5 || !freshTarget(spec[0], target)) return false;
  const fields = vals.length;
  if (srcs.length !== fields) return false;
  // every value read is a string, a number or null (no object: no valueOf or toString of the run's)
  for (let i = 0; i < fields; i++) {
    const s = srcs[i];
    if (s === undefined || (s.kind === 'num' && s.type === 'date')) return false;
  }
  const c = compile(spec, fields);
  if (!c) return false;
  for (let k = 0; k < c.termFields.length; k++) if (srcs[c.termFields[k]!]!.kind !== 'num') return false;
  const codes: Int32Array[] = [];
  const mult: number[] = [];
  let slots = 1;
  for (let j = c.keyFields.length - 1; j >= 0; j--) {
    const kc = keyCodes(srcs[c.keyFields[j]!]!);
    codes[j] = kc.codes;
    mult[j] = slots;
    slots *= kc.card;
    if (slots > MAX_SLOTS) return false;
  }
  const most = slots < n ? slots : n;
  // a group's id + 1 per slot (0: not seen yet)
  const gid = new Int32Array(slots);
  const first = new Int32Array(most);
  const acc = new Float64Array(most);
  const groups = c.kernel(vals, codes, mult, idx, n, gid, first, acc);
  // the keys as the loop computes them, from each group's first row; two groups whose keys meet (as
  // property keys, or as Map keys) or a key the object already has (its prototype's included) mean
  // the loop as written interleaves or reaches what is there: it runs as written instead
  const keys = new NativeArray<unknown>(groups);
  const seen = ObjectCreate(null) as Record<string, true>;
  const isObject = spec[0] === 'object';
  for (let g = 0; g < groups; g++) {
    const k = c.keyOf(vals, first[g]!);
    if (k !== null && typeof k === 'object') return false;
    const tag = isObject ? '' + (k as string) : (typeof k === 'string' ? 's' : 'o') + (k as string);
    if (seen[tag] === true || (isObject && tag in (target as object))) return false;
    seen[tag] = true;
    keys[g] = isObject ? tag : k;
  }
  if (isObject) {
    const o = target as Record<string, number>;
    for (let g = 0; g < groups; g++) o[keys[g] as string] = acc[g]!;
  } else for (let g = 0; g < groups; g++) ReflectApply(MapSet, target, [keys[g], acc[g]]);
  return true;
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
