/**
 * What a loop over a host date column may learn of each row without its Date: the numbers the Date's
 * own methods give, `getTime()` (also `valueOf()`, `+d` and the time a comparison reads),
 * `getUTCFullYear()`, `getUTCMonth()`, `getUTCDate()`, `getUTCDay()`. Each is one Float64Array over the
 * rows, filled from one real Date per distinct time of the column (fast/dateCodes.ts: the methods
 * themselves answer, NaN times and times past the Date range included) and kept per column for the
 * session. Used by data/dateLoop.ts (loops, src/runtime/prepare/dateLoops.ts).
 */
import {
  ArrayIsArray,
  NativeDate,
  NativeWeakMap,
  ObjectCreate,
  ObjectGetOwnPropertyDescriptor,
  ReflectApply,
} from '../intrinsics.js';
import { dateCodes } from './dateCodes.js';

/** One number of a row's Date: the method that gives it. */
export type DateFeature = 'time' | 'year' | 'month' | 'date' | 'day';

const DateProto = NativeDate.prototype;
const METHODS: Record<DateFeature, () => number> = {
  time: DateProto.getTime,
  year: DateProto.getUTCFullYear,
  month: DateProto.getUTCMonth,
  date: DateProto.getUTCDate,
  day: DateProto.getUTCDay,
};

/**
 * The Date.prototype methods a rewritten loop reads or may call on a row's Date (prepare/dateLoops.ts
 * METHODS and CALLS), and how a Date converts to a number: each as the session started with it.
 */
const WATCHED: Array<string | symbol> = [
  'getTime',
  'valueOf',
  'getUTCFullYear',
  'getUTCMonth',
  'getUTCDate',
  'getUTCDay',
  'toISOString',
  'toJSON',
  'toDateString',
  'toUTCString',
  'toString',
  'toLocaleDateString',
  'toLocaleString',
  'getFullYear',
  'getMonth',
  'getDate',
  'getDay',
  'getHours',
  'getUTCHours',
  'getMinutes',
  'getUTCMinutes',
  'getSeconds',
  'getUTCSeconds',
  'getMilliseconds',
  'getUTCMilliseconds',
  'getTimezoneOffset',
  Symbol.toPrimitive,
];
const ORIGINAL = WATCHED.map((k) => ObjectGetOwnPropertyDescriptor(DateProto, k)?.value as unknown);

/**
 * Whether every watched Date method is still the session's own (a run may replace
 * `Date.prototype.getUTCFullYear`: the code as written would then call that one). Read as
 * descriptors: no getter of the run's runs.
 */
export function dateMethodsIntact(): boolean {
  for (let k = 0; k < WATCHED.length; k++) {
    const d = ObjectGetOwnPropertyDescriptor(DateProto, WATCHED[k]!);
    if (!d || d.value !== ORIGINAL[k]) return false;
  }
  return true;
}

/** Parses a feature list the preparation wrote (`['year', 'month']`); undefined if malformed. */
export function parseDateFeatures(spec: unknown): DateFeature[] | undefined {
  if (!ArrayIsArray(spec)) return undefined;
  const out: DateFeature[] = [];
  for (let k = 0; k < spec.length; k++) {
    const f = spec[k] as unknown;
    if (f !== 'time' && f !== 'year' && f !== 'month' && f !== 'date' && f !== 'day') return undefined;
    out[out.length] = f;
  }
  return out;
}

/** The most bytes of answers kept per column (each feature: one Float64Array over its rows). */
const MEMO_BYTES = 32 << 20;

type Kept = { [f in DateFeature]?: Float64Array } & { bytes: number };
const memo = new NativeWeakMap<Float64Array, Kept>();
const weakGet = NativeWeakMap.prototype.get;
const weakSet = NativeWeakMap.prototype.set;

/**
 * Each feature's number per row of the date column with times `values` and validity `valid` (a null
 * row reads NaN: never read, the code as written runs for it).
 */
export function dateFeatures(
  values: Float64Array,
  valid: Uint8Array,
  features: readonly DateFeature[],
): Float64Array[] {
  let kept = ReflectApply(weakGet, memo, [values]) as Kept | undefined;
  if (!kept) {
    // no prototype: a run's setter on Object.prototype never sees a feature
    kept = ObjectCreate(null) as Kept;
    kept.bytes = 0;
    ReflectApply(weakSet, memo, [values, kept]);
  }
  const out: Float64Array[] = [];
  for (let k = 0; k < features.length; k++) {
    const f = features[k]!;
    let got = kept[f];
    if (!got) {
      got = featureOf(values, valid, f);
      // a table of millions of rows: answers past the budget are made again by the next loop
      if (kept.bytes + got.byteLength <= MEMO_BYTES) {
        kept[f] = got;
        kept.bytes += got.byteLength;
      }
    }
    out[k] = got;
  }
  return out;
}

function featureOf(values: Float64Array, valid: Uint8Array, f: DateFeature): Float64Array {
  const { codes, times } = dateCodes(values, valid);
  const method = METHODS[f];
  // the method itself on one Date per distinct time: its answer for every time, NaN and clipping included
  const byCode = new Float64Array(times.length);
  for (let c = 0; c < times.length; c++) byCode[c] = ReflectApply(method, new NativeDate(times[c]!), []) as number;
  const n = codes.length;
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const c = codes[i]!;
    out[i] = c < 0 ? NaN : byCode[c]!;
  }
  return out;
}
