/**
 * What a loop or a callback over one long-text value may learn of each row without its string: its
 * class (null, empty, any other string) and, per feature, its UTF-16 length (`s.length`), whether it
 * holds a literal (`s.includes(lit)`, `s.toLowerCase().includes(lit)` with `lit` already lower
 * case) or equals one (`s === lit`). Each is one typed array over the rows, filled a page at a time
 * from the host's scans of the column's bytes (bridge.textScan `units`, `contains`, `equals`), a page
 * the host leaves to the guest from its strings: the same answers, no row decoded in the isolate.
 * Used by data/textLoop.ts (loops, src/runtime/prepare/textLoops.ts) and fast/textClasses.ts
 * (callbacks of array and objects() chains).
 */
import type { TextScanRequest } from '../../schema/columnar.js';
import type { TextPages } from '../data/textPages.js';
import { PAGE_SHIFT } from '../data/pagedText.js';
import { ArrayIsArray, MathMin, ReflectApply, SafeMap, SafeWeakMap } from '../intrinsics.js';

const PAGE_ROWS = 1 << PAGE_SHIFT;

/** A row class: the value is null, the empty string, or another string. */
export const NULL_ROW = 0;
export const EMPTY_ROW = 1;
export const OTHER_ROW = 2;

/**
 * One feature: `['u']` the UTF-16 length, `['c', lit, 'none' | 'lower']` whether the value (lower
 * cased) holds `lit`, `['e', lit]` whether it equals `lit`.
 */
export type Feature = readonly ['u'] | readonly ['c', string, 'none' | 'lower'] | readonly ['e', string];

/** The rows' classes and each feature's answer per row (a length: -1 for a null row; a test: 1 when it holds). */
export interface RowFeatures {
  classes: Uint8Array;
  values: Array<Int32Array | Uint8Array>;
}

const StringIncludes = String.prototype.includes;
const StringToLowerCase = String.prototype.toLowerCase;
const StringIndexOf = String.prototype.indexOf;
const StringProto = String.prototype;

/**
 * Whether the string methods a feature stands for are still the session's own (a run may replace
 * `String.prototype.includes`; the code as written would then call that one).
 */
export function stringMethodsIntact(): boolean {
  return (
    StringProto.includes === StringIncludes &&
    StringProto.toLowerCase === StringToLowerCase &&
    StringProto.indexOf === StringIndexOf
  );
}

/** Parses a feature list the preparation wrote (`[['u'], ['c', 'x', 'none']]`); undefined if malformed. */
export function parseFeatures(spec: unknown): Feature[] | undefined {
  if (!ArrayIsArray(spec)) return undefined;
  const out: Feature[] = [];
  for (let k = 0; k < spec.length; k++) {
    const f = spec[k] as unknown;
    if (!ArrayIsArray(f)) return undefined;
    if (f[0] === 'u' && f.length === 1) out[out.length] = ['u'];
    else if (f[0] === 'c' && typeof f[1] === 'string' && f[1] !== '' && (f[2] === 'none' || f[2] === 'lower')) {
      // a folded needle is lower case already: `toLowerCase().includes(lit)` is the host's `lower` fold then
      if (f[2] === 'lower' && ReflectApply(StringToLowerCase, f[1], []) !== f[1]) return undefined;
      out[out.length] = ['c', f[1], f[2]];
    } else if (f[0] === 'e' && typeof f[1] === 'string' && f[1] !== '' && f.length === 2) out[out.length] = ['e', f[1]];
    else return undefined;
  }
  return out;
}

/**
 * The classes of the `n` rows of `pages` and the answer of each feature per row, or undefined when a
 * row is neither a string nor null (the caller then runs the code as written).
 */
export function rowFeatures(pages: TextPages, n: number, features: readonly Feature[]): RowFeatures | undefined {
  // answers kept per column for the session (its text never changes): a later run reads them again
  let kept = ReflectApply(weakGet, memo, [pages]) as KeptFeatures | undefined;
  if (!kept || kept.n !== n) {
    kept = { n, classes: null, values: new SafeMap(), bytes: 0 };
    ReflectApply(weakSet, memo, [pages, kept]);
  }
  const values: Array<Int32Array | Uint8Array> = [];
  const missing: Feature[] = [];
  const at: number[] = [];
  for (let k = 0; k < features.length; k++) {
    const had = kept.values.get(key(features[k]!));
    if (had) values[k] = had;
    else {
      at[missing.length] = k;
      missing[missing.length] = features[k]!;
    }
  }
  let classes = kept.classes;
  if (missing.length > 0 || classes === null) {
    const got = scanFeatures(pages, n, missing);
    if (!got) return undefined;
    classes = got.classes;
    for (let m = 0; m < missing.length; m++) values[at[m]!] = got.values[m]!;
    // kept within a budget per column (a table of millions of rows: one answer is megabytes)
    let bytes = n;
    for (let m = 0; m < missing.length; m++) bytes += got.values[m]!.byteLength;
    if (kept.bytes + bytes > MEMO_BYTES) {
      kept.values.clear();
      kept.classes = null;
      kept.bytes = 0;
    }
    if (bytes <= MEMO_BYTES) {
      if (kept.classes === null) kept.classes = classes;
      for (let m = 0; m < missing.length; m++) kept.values.set(key(missing[m]!), got.values[m]!);
      kept.bytes += bytes;
    }
  }
  return { classes, values };
}

/** The most bytes of answers kept per column (the classes and each feature: one typed array over its rows). */
const MEMO_BYTES = 32 << 20;

interface KeptFeatures {
  n: number;
  bytes: number;
  classes: Uint8Array | null;
  values: Map<string, Int32Array | Uint8Array>;
}

const memo = new SafeWeakMap<TextPages, KeptFeatures>();
const weakGet = SafeWeakMap.prototype.get;
const weakSet = SafeWeakMap.prototype.set;
const key = (f: Feature) => `${f[0]}\u0000${f[1] ?? ''}\u0000${f[2] ?? ''}`;

function scanFeatures(pages: TextPages, n: number, features: readonly Feature[]): RowFeatures | undefined {
  const classes = new Uint8Array(n);
  const values: Array<Int32Array | Uint8Array> = [];
  let units = -1;
  for (let k = 0; k < features.length; k++) {
    const f = features[k]!;
    if (f[0] === 'u') {
      values[k] = new Int32Array(n);
      units = k;
    } else values[k] = new Uint8Array(n);
  }
  for (let p = 0, lo = 0; lo < n; p++) {
    const hi = MathMin(n, lo + PAGE_ROWS);
    if (
      !hostPage(pages, p, lo, features, units, classes, values) &&
      !guestPage(pages.page(p), lo, hi, features, classes, values)
    )
      return undefined;
    lo = hi;
  }
  return { classes, values };
}

/** The request that answers feature `f` on the host. */
function request(f: Feature): TextScanRequest {
  if (f[0] === 'u') return { op: 'units' };
  if (f[0] === 'c') return { op: 'contains', needle: f[1], fold: f[2] };
  return { op: 'equals', needle: f[1] };
}

function hostPage(
  pages: TextPages,
  p: number,
  lo: number,
  features: readonly Feature[],
  units: number,
  classes: Uint8Array,
  values: Array<Int32Array | Uint8Array>,
): boolean {
  // the classes from the UTF-16 lengths when they are asked for anyway, else from the stored lengths
  const len = pages.scan(p, units >= 0 ? { op: 'units' } : { op: 'len' }, true);
  if (!len) return false;
  const got: Array<Int32Array | Uint8Array> = [];
  for (let k = 0; k < features.length; k++) {
    if (k === units) continue;
    const r = pages.scan(p, request(features[k]!), true);
    if (!r) return false;
    got[k] = r;
  }
  const m = len.length;
  for (let i = 0; i < m; i++) {
    const g = len[i]!;
    classes[lo + i] = g < 0 ? NULL_ROW : g === 0 ? EMPTY_ROW : OTHER_ROW;
  }
  for (let k = 0; k < features.length; k++) {
    const out = values[k]!;
    const from = k === units ? len : got[k]!;
    // a contains answer is 2 for a null row: never read (the code as written runs for it)
    for (let i = 0; i < m; i++) out[lo + i] = from[i]!;
  }
  return true;
}

function guestPage(
  rows: ReadonlyArray<unknown>,
  lo: number,
  hi: number,
  features: readonly Feature[],
  classes: Uint8Array,
  values: Array<Int32Array | Uint8Array>,
): boolean {
  for (let i = lo; i < hi; i++) {
    const s = rows[i - lo];
    if (s === null) {
      classes[i] = NULL_ROW;
      for (let k = 0; k < features.length; k++) values[k]![i] = features[k]![0] === 'u' ? -1 : 2;
      continue;
    }
    if (typeof s !== 'string') return false;
    classes[i] = s === '' ? EMPTY_ROW : OTHER_ROW;
    for (let k = 0; k < features.length; k++) {
      const f = features[k]!;
      const out = values[k]!;
      if (f[0] === 'u') out[i] = s.length;
      else if (f[0] === 'e') out[i] = s === f[1] ? 1 : 0;
      else {
        const v = f[2] === 'lower' ? (ReflectApply(StringToLowerCase, s, []) as string) : s;
        out[i] = ReflectApply(StringIncludes, v, [f[1]]) ? 1 : 0;
      }
    }
  }
  return true;
}
