/**
 * What a loop over a host date column may learn of each row without its Date: the numbers the Date's
 * own getters give, `getTime()` (also `valueOf()`, `+d` and the time a comparison reads), the UTC
 * and local-time fields (`getUTCFullYear()`, `getMonth()`, `getHours()`...) and
 * `getTimezoneOffset()`. Each is one Float64Array over the rows, filled from one real Date per
 * distinct time of the column (fast/dateCodes.ts: the getters themselves answer, in the isolate's
 * time zone, NaN times and times past the Date range included); the zone-free ones are kept per
 * column for the session. Used by data/dateLoop.ts (loops, src/runtime/prepare/dateLoops.ts).
 */
import {
  ArrayIsArray,
  NativeDate,
  SafeWeakMap,
  ObjectCreate,
  ObjectGetOwnPropertyDescriptor,
  ReflectApply,
} from '../intrinsics.js';
import { DATE_CALLS, DATE_FEATURES } from '../../schema/dateFeatures.js';
import { dateCodes } from './dateCodes.js';

/** One number of a row's Date: the name of the Date getter that gives it. */
export type DateFeature = (typeof DATE_FEATURES)[number];

const DateProto = NativeDate.prototype;
/** The Date.prototype members a rewritten loop reads or calls, and how a Date converts to a number. */
const WATCHED: Array<string | symbol> = [...DATE_FEATURES, 'valueOf', ...DATE_CALLS, Symbol.toPrimitive];
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

/** Parses a feature list the preparation wrote (`['getUTCFullYear', 'getTime']`); undefined if malformed. */
export function parseDateFeatures(spec: unknown): DateFeature[] | undefined {
  if (!ArrayIsArray(spec)) return undefined;
  const out: DateFeature[] = [];
  for (let k = 0; k < spec.length; k++) {
    const f = spec[k] as unknown;
    let known = false;
    for (let j = 0; j < DATE_FEATURES.length; j++) if (DATE_FEATURES[j] === f) known = true;
    if (!known) return undefined;
    out[out.length] = f as DateFeature;
  }
  return out;
}

/** The most bytes of answers kept per column (each feature: one Float64Array over its rows). */
const MEMO_BYTES = 32 << 20;

type Kept = { [f in DateFeature]?: Float64Array } & { bytes: number };
const memo = new SafeWeakMap<Float64Array, Kept>();
const weakGet = SafeWeakMap.prototype.get;
const weakSet = SafeWeakMap.prototype.set;

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
      // a table of millions of rows: answers past the budget are made again by the next loop; the
      // local-time ones too (the host of an inline session may change its zone between runs)
      if (zoneFree(f) && kept.bytes + got.byteLength <= MEMO_BYTES) {
        kept[f] = got;
        kept.bytes += got.byteLength;
      }
    }
    out[k] = got;
  }
  return out;
}

/** Each feature's getter as the session started with it, and whether its answer is the same in every zone (read at load: a run's changes to Array or String methods never reach them). */
const METHOD_OF = ObjectCreate(null) as Record<string, () => number>;
const ZONE_FREE = ObjectCreate(null) as Record<string, boolean>;
for (let k = 0; k < DATE_FEATURES.length; k++) {
  const f = DATE_FEATURES[k]!;
  METHOD_OF[f] = ORIGINAL[k] as () => number;
  ZONE_FREE[f] = f === 'getTime' || f.startsWith('getUTC');
}
const zoneFree = (f: DateFeature) => ZONE_FREE[f] === true;

const trunc = Math.trunc;

function featureOf(values: Float64Array, valid: Uint8Array, f: DateFeature): Float64Array {
  if (f === 'getTime') return times(values, valid);
  const { codes, times: distinct } = dateCodes(values, valid);
  const method = METHOD_OF[f]!;
  // the method itself on one Date per distinct time: its answer for every time, NaN and clipping included
  const byCode = new Float64Array(distinct.length);
  for (let c = 0; c < distinct.length; c++)
    byCode[c] = ReflectApply(method, new NativeDate(distinct[c]!), []) as number;
  const n = codes.length;
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const c = codes[i]!;
    out[i] = c < 0 ? NaN : byCode[c]!;
  }
  return out;
}

/**
 * `getTime()` of each row's Date without one: the Date constructor's TimeClip of the stored time (NaN
 * past 8.64e15 ms either way or not finite, else the time truncated towards zero, -0 as +0).
 */
function times(values: Float64Array, valid: Uint8Array): Float64Array {
  const n = values.length;
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const v = values[i]!;
    out[i] = !valid[i] || !(v <= 8.64e15 && v >= -8.64e15) ? NaN : trunc(v) + 0;
  }
  return out;
}
