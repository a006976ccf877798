/**
 * `s.str.split(sep)` and `.str.get(i)` on a dictionary column, once per distinct string instead of
 * once per row. The split Series gives every row its own array, made when the row is first read
 * (as the per-value path gives every row its own); `str.get` after it, while no row has been read
 * (so no array can have been changed), picks from each distinct string's parts and gives a Series
 * on new dictionary codes (each picked string once, in order of first appearance), so a count,
 * nunique or value_counts after it runs on codes too. The values are the per-value path's.
 */
import { SafeMap, SafeWeakMap } from '../intrinsics.js';
import { Series } from './Series.js';
import { typedOf } from './typed.js';

/** A split Series' source: its dictionary codes, visible rows and each distinct string's parts. */
interface SplitSource {
  codes: Int32Array;
  rows: Uint32Array | null;
  parts: readonly string[][];
  /** True once any row's array was handed out (it may have been changed since). */
  read: boolean;
}

const splits = new SafeWeakMap<Series, SplitSource>();

/** `split(value)` of each present value of a dictionary Series (missing stays null); undefined without codes. */
export function splitCodes(s: Series, split: (v: string) => string[]): Series | undefined {
  const t = typedOf(s);
  if (!t || t.kind !== 'dict') return undefined;
  const { codes, dict, rows } = t;
  const parts = new Array<string[]>(dict.length);
  for (let k = 0; k < dict.length; k++) parts[k] = split(dict[k]!);
  const made = new Array<string[] | null | undefined>(s.length);
  const src: SplitSource = { codes, rows, parts, read: false };
  const read = (i: number): unknown => {
    src.read = true;
    let v = made[i];
    if (v === undefined) {
      const c = codes[rows ? rows[i]! : i]!;
      v = c < 0 ? null : parts[c]!.slice();
      made[i] = v;
    }
    return v;
  };
  const out = new Series(read, s.length, s.name, s.labels, null, 'object');
  splits.set(out, src);
  return out;
}

/**
 * `pick(parts)` (after splitCodes) or `pick(string)` (a dictionary Series) for each present value,
 * as a Series on new codes; undefined when neither applies (or a split row was already read).
 */
export function pickCodes(s: Series, pick: (v: string | readonly string[]) => string | null): Series | undefined {
  const sp = splits.get(s);
  let codes: Int32Array;
  let rows: Uint32Array | null;
  let picked: (string | null)[];
  if (sp) {
    if (sp.read) return undefined;
    ({ codes, rows } = sp);
    picked = sp.parts.map(pick);
  } else {
    const t = typedOf(s);
    if (!t || t.kind !== 'dict') return undefined;
    ({ codes, rows } = t);
    picked = t.dict.map(pick);
  }
  const n = s.length;
  const remap = new Int32Array(picked.length).fill(-2); // -2: not met yet
  const index = new SafeMap<string, number>();
  const dict: string[] = [];
  const out = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const c = codes[rows ? rows[i]! : i]!;
    if (c < 0) {
      out[i] = -1;
      continue;
    }
    let m = remap[c]!;
    if (m === -2) {
      const x = picked[c]!;
      if (x === null) m = -1;
      else {
        const at = index.get(x);
        if (at === undefined) {
          m = dict.length;
          index.set(x, m);
          dict.push(x);
        } else m = at;
      }
      remap[c] = m;
    }
    out[i] = m;
  }
  const result = new Series(
    (i) => {
      const c = out[i]!;
      return c < 0 ? null : dict[c];
    },
    n,
    s.name,
    s.labels,
  );
  result.view = { kind: 'dict', codes: out, dict, rows: null };
  return result;
}
