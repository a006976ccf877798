/**
 * The sorts and `Math.min`/`Math.max` spreads user code writes by hand, without a comparator call per
 * pair or an argument per element: the guest side of src/runtime/prepare/sortCalls.ts. The preparation
 * rewrites (inserting text only; every character of the user's code stays)
 *   xs.sort((a, b) => b[1] - a[1])   as   __sbirtools_sort.by(xs, 1, "1").sort((a, b) => b[1] - a[1])
 *   Math.min(...ys)                  as   Math.min(...__sbirtools_sort.min(ys))
 * and the helpers here answer exactly what the call as written would, or hand back their argument so
 * the call runs as written. See docs/architecture.md ("Sorts and min/max written by hand").
 */
import {
  HAND_SORT_GLOBAL,
  HAND_SORT_MIN_LENGTH,
  HAND_SPREAD_MAX_LENGTH,
  HAND_SPREAD_MIN_LENGTH,
} from '../../schema/handSort.js';
import {
  ArrayIsArray,
  arrayIterationIntact,
  ObjectDefineProperty,
  ObjectGetOwnPropertyDescriptor,
  ObjectGetPrototypeOf,
  ObjectPrototype,
  ReflectApply,
} from '../intrinsics.js';
import { copyOf, sortNumbers } from './numberSort.js';
import { radixOrder } from './radixOrder.js';
import { keepSort, keptSort } from './sortMemo.js';
import {
  chainToSort,
  isLent,
  keepChainSort,
  keepLentSort,
  keptChainSort,
  lendChainSort,
  lentExtreme,
  releaseLent,
  sortLent,
  type MemoEntry,
} from './arrayChain.js';

const G = globalThis;
const ArrayPrototype = G.Array.prototype;
const NativeSort = ArrayPrototype.sort;
const IntrinsicMath = G.Math;
const NativeMin = IntrinsicMath.min;
const NativeMax = IntrinsicMath.max;
const ObjectIsExtensible = G.Object.isExtensible;
/**
 * Whether the guest's JavaScript is compiled (V8, which has Error.captureStackTrace), not interpreted
 * (QuickJS): only then do the radix sort and the scan beat the native calls.
 */
const COMPILED = typeof (G.Error as { captureStackTrace?: unknown }).captureStackTrace === 'function';
const SORT_MIN = COMPILED ? HAND_SORT_MIN_LENGTH : Infinity;
const SPREAD_MIN = COMPILED ? HAND_SPREAD_MIN_LENGTH : Infinity;
/** Reads the global binding `Math` as global code sees it (a top-level `class Math` of an earlier run shadows the property). */
const readMath = G.Function('return Math') as () => unknown;

/** Whether `o`'s own property `key` is a data property holding `value` (reads no getter: `o` is ordinary). */
function holds(o: object, key: PropertyKey, value: unknown): boolean {
  const d = ObjectGetOwnPropertyDescriptor(o, key);
  return d !== undefined && 'value' in d && d.value === value;
}

/**
 * Whether `x.sort` is the native sort of a real, extensible Array: then reading it runs nothing and
 * the call sorts `x` as Array.prototype.sort does. A Proxy of an array passes Array.isArray; its
 * getPrototypeOf and getOwnPropertyDescriptor traps see these checks (docs/architecture.md).
 */
function nativeSortOf(x: unknown): x is unknown[] {
  return (
    ArrayIsArray(x) &&
    ObjectGetPrototypeOf(x) === ArrayPrototype &&
    ObjectGetOwnPropertyDescriptor(x, 'sort') === undefined &&
    holds(ArrayPrototype, 'sort', NativeSort) &&
    ObjectIsExtensible(x)
  );
}

/** `o[key]` when `o` is a plain object or array whose own `key` is a data property holding a number, else NaN. */
function plainNumberKey(o: unknown, key: string): number {
  if (o === null || typeof o !== 'object') return NaN;
  const proto = ObjectGetPrototypeOf(o);
  if (proto !== (ArrayIsArray(o) ? ArrayPrototype : ObjectPrototype) && proto !== null) return NaN;
  const d = ObjectGetOwnPropertyDescriptor(o, key);
  if (d === undefined || !('value' in d)) return NaN;
  const v = d.value as unknown;
  return typeof v === 'number' ? v : NaN;
}

/**
 * Sorts `x` as `x.sort(cmp)` does (Array.prototype.sort, ES2019+): read `length`, then each present
 * element once in index order; sort those that are not undefined; write them back in order, then the
 * undefined ones, then delete the rest (the holes). When every element (or every element's `key`) is
 * a number that is not NaN, `cmp` (of the shape `a - b`, `b - a`, `a[key] - b[key]`...) orders them as
 * a stable sort by number with -0 equal to 0, and a radix sort gives that order without calling it.
 * Otherwise the native sort orders the same elements with `cmp` (the calls it would make on `x`).
 */
/** Whether the last sortArray sorted nothing but numbers other than NaN (no undefined, no hole): chainSorter keeps those. */
let numbersOnly = false;

function sortArray(x: unknown[], cmp: unknown, desc: boolean, key: string | undefined): unknown[] {
  const len = x.length;
  const keys = new Float64Array(len);
  // a number sort keeps its numbers in `keys` only, until an element is not one
  let items: unknown[] | null = key === undefined ? null : [];
  let m = 0;
  let undef = 0;
  let fast = true;
  for (let k = 0; k < len; k++) {
    const v = x[k];
    if (v === undefined) {
      if (k in x) undef++;
      continue;
    }
    if (items === null) {
      // NaN: `cmp` answers NaN, taken as "equal", for every pair it is in: no order to copy
      if (typeof v === 'number' && v === v) {
        keys[m++] = v;
        continue;
      }
      items = [];
      for (let j = 0; j < m; j++) items[j] = keys[j];
      fast = false;
    }
    items[m] = v;
    if (fast) {
      const n = key === undefined ? NaN : plainNumberKey(v, key);
      if (n !== n) fast = false;
      else keys[m] = n;
    }
    m++;
  }
  if (fast && items === null) {
    // equal numbers are the same number (a -0 keeps its place: numberSort.ts), so the sorted values are the answer
    const sorted = sortNumbers(m === len ? keys : copyOf(keys, m), desc);
    // an integer in int32 back as a small integer (data/boxNumbers.ts): no heap number per value
    for (let j = 0; j < m; j++) {
      const v = sorted[j]!;
      const s = v | 0;
      x[j] = s === v && (s !== 0 || 1 / v > 0) ? s : v;
    }
    numbersOnly = m === len;
  } else if (fast) {
    const held = m === len ? keys : copyOf(keys, m);
    const tag = desc ? 'order-desc' : 'order-asc';
    let order = keptSort(held, tag);
    if (order === undefined) keepSort(held, tag, (order = radixOrder(held, !desc)));
    for (let j = 0; j < m; j++) x[j] = items![order[j]!];
  } else {
    ReflectApply(NativeSort, items, [cmp]);
    for (let j = 0; j < m; j++) x[j] = items![j];
  }
  for (let j = m; j < m + undef; j++) x[j] = undefined;
  for (let j = m + undef; j < len; j++) delete x[j];
  return x;
}

/** What `by` returns for an array it sorts: `.sort(cmp)` sorts that array. */
interface Sorter {
  sort(cmp: unknown): unknown[];
}

/**
 * `x` itself when `x.sort(...)` is not the native sort of a real array of at least
 * HAND_SORT_MIN_LENGTH elements, or on QuickJS (the call then runs as written), else an object whose `sort(cmp)`
 * sorts `x` in place and returns it.
 */
function by(x: unknown, desc: unknown, key: unknown): unknown {
  // `e(<chain>, 2)` (fast/arrayChain.ts): the chain itself, whose array is made here (it reaches no other code)
  const chain = chainToSort(x);
  if (chain !== undefined) return chainSorter(chain, desc === 1, key, sortLent(x));
  if (!nativeSortOf(x) || x.length < SORT_MIN) return x;
  const k = typeof key === 'string' ? key : undefined;
  const sorter: Sorter = {
    sort(cmp: unknown) {
      if (typeof cmp !== 'function') return ReflectApply(NativeSort, x, [cmp]) as unknown[];
      return sortArray(x, cmp, desc === 1, k);
    },
  };
  return sorter;
}

/**
 * `by` of a chain's array sorted at once by a number comparator (no key): the sort the session kept for
 * the same chain and direction, a fresh copy, when the sort would be the native one (the array the
 * chain makes is a fresh real array of Array.prototype, so nativeSortOf reduces to that); else the
 * array the chain makes, sorted as `by` sorts it, and that sort kept for the next time.
 */
function chainSorter(
  chain: { array(): unknown[]; kept(): MemoEntry | undefined },
  desc: boolean,
  key: unknown,
  lend: boolean,
): unknown {
  if (key === undefined && COMPILED && holds(ArrayPrototype, 'sort', NativeSort)) {
    const entry = chain.kept();
    // `lend` (`e(<chain>, 4, 2)`): a name that only reads it gets the kept sort itself, not a copy
    const sorted = entry === undefined ? undefined : lend ? lendChainSort(entry, desc) : keptChainSort(entry, desc);
    if (sorted !== undefined) {
      const sorter: Sorter = {
        sort(cmp: unknown) {
          // the comparator is an inline function of the shape (sortCalls.ts): `sorted` is what it gives
          return typeof cmp === 'function' ? sorted : (ReflectApply(NativeSort, chain.array(), [cmp]) as unknown[]);
        },
      };
      return sorter;
    }
  }
  const xs = chain.array();
  const sorter = by(xs, desc ? 1 : 0, key);
  if (sorter === xs || key !== undefined) return sorter;
  return {
    sort(cmp: unknown) {
      numbersOnly = false;
      const out = (sorter as Sorter).sort(cmp);
      // every element a number other than NaN: the stable sort is a function of the numbers alone
      const entry = numbersOnly ? chain.kept() : undefined;
      if (entry !== undefined && lend && key === undefined) keepLentSort(entry, desc, out);
      else if (entry !== undefined) keepChainSort(entry, desc, out);
      return out;
    },
  } satisfies Sorter;
}

/**
 * What to spread into `Math.min(...)` / `Math.max(...)` in place of `xs`: a one-element array holding
 * the answer when the callee is the native function and every element a number; otherwise `xs` itself
 * (before any element is read) or, once elements were read, an array of the values read, in order (the
 * spread then reads nothing twice). The preparation rewrites only a spread of a variable in a program
 * that never binds `Math`, so nothing runs between reading `Math.min` and this call.
 */
function extreme(xs: unknown, max: boolean): unknown {
  if (isLent(xs)) {
    // a bound chain's array, the session's kept copy (fast/arrayChain.ts): the answer kept with the
    // chain's evaluation; else the run's own array from here on, and the spread as below
    const known = nativeSpread(xs, max) ? lentExtreme(xs, max) : undefined;
    if (known !== undefined) return [known];
    releaseLent(xs);
  }
  if (!ArrayIsArray(xs) || xs.length < SPREAD_MIN || xs.length > HAND_SPREAD_MAX_LENGTH) return xs;
  if (!nativeSpread(xs, max)) return xs;
  const n = xs.length;
  if (scratch.length < n) scratch = new Float64Array(n > scratch.length * 2 ? n : scratch.length * 2);
  const seen = scratch;
  const i = max ? scanMax(xs, seen, n) : scanMin(xs, seen, n);
  // Math.min(best) is best (a getter that added elements past n stopped the scan: i < xs.length)
  if (i === xs.length) return [scanBest];
  const out: unknown[] = [];
  for (let j = 0; j < i; j++) out[j] = seen[j];
  for (let j = i; j < xs.length; j++) out[j] = j === i && scanHeld ? scanValue : xs[j];
  return out;
}

/**
 * Whether `Math.min(...xs)` / `Math.max(...xs)` runs nothing but the native spread and callee: `xs` an
 * Array of Array.prototype with no own iterator, the array iterator and its `next`, the global `Math`
 * and its `min`/`max` the native ones.
 */
function nativeSpread(xs: unknown[], max: boolean): boolean {
  if (ObjectGetPrototypeOf(xs) !== ArrayPrototype || ObjectGetOwnPropertyDescriptor(xs, Symbol.iterator) !== undefined)
    return false;
  // the spread of the array returned must iterate as the native spread does; the callee was the native function
  if (!arrayIterationIntact()) return false;
  if (!holds(G, 'Math', IntrinsicMath) || readMath() !== IntrinsicMath) return false;
  return holds(IntrinsicMath, max ? 'max' : 'min', max ? NativeMax : NativeMin);
}

/** Where the scans keep the values they read (one buffer for the session, made on the first scan). */
let scratch = new Float64Array(0);

/** What the last scan found: the answer, and the element it stopped at (when it read one that is not a number). */
let scanBest = 0;
let scanHeld = false;
let scanValue: unknown;

/**
 * Reads `xs` as the spread does (`length` before each element: a getter may change it) into `seen`
 * while the elements are numbers, and at most `n` of them (the length when the scan began); answers
 * where it stopped (`xs.length` when it read them all, the least in scanBest: NaN if any, -0 below 0).
 * One function per direction keeps the loop monomorphic.
 */
function scanMin(xs: unknown[], seen: Float64Array, n: number): number {
  let best = Infinity;
  let nan = false;
  let i = 0;
  scanHeld = false;
  for (; i < xs.length; i++) {
    if (i === n) break; // a getter added elements: they are read after, not twice
    const v = xs[i];
    if (typeof v !== 'number') {
      scanHeld = true;
      scanValue = v;
      break;
    }
    seen[i] = v;
    if (v < best) best = v;
    else if (v !== v) nan = true;
    else if (v === 0 && best === 0 && 1 / v < 0) best = v;
  }
  scanBest = nan ? NaN : best;
  return i;
}

/** scanMin for the greatest (+0 above -0). */
function scanMax(xs: unknown[], seen: Float64Array, n: number): number {
  let best = -Infinity;
  let nan = false;
  let i = 0;
  scanHeld = false;
  for (; i < xs.length; i++) {
    if (i === n) break;
    const v = xs[i];
    if (typeof v !== 'number') {
      scanHeld = true;
      scanValue = v;
      break;
    }
    seen[i] = v;
    if (v > best) best = v;
    else if (v !== v) nan = true;
    else if (v === 0 && best === 0 && 1 / best < 0) best = v;
  }
  scanBest = nan ? NaN : best;
  return i;
}

/**
 * Defines `__sbirtools_sort` (non-writable and non-enumerable: a run cannot replace it; an object,
 * not a function, so error hints never suggest it). It hands out nothing but the arrays given to it.
 */
export function installHandSort(): void {
  const entry = {
    by,
    min: (xs: unknown) => extreme(xs, false),
    max: (xs: unknown) => extreme(xs, true),
  };
  ObjectDefineProperty(G, HAND_SORT_GLOBAL, {
    value: Object.freeze(entry),
    writable: false,
    enumerable: false,
    configurable: false,
  });
}
