/**
 * Dense per-row codes for key columns, computed once per column and kept for the session: a
 * dictionary column's codes shifted by one (0 is null), a float64 column's distinct values numbered
 * in first-appearance order (0 is null). Two rows share a code exactly when Arquero's key string
 * (`key(value) + ''`) is the same: distinct strings stay distinct, 0 and -0 meet, NaN is one value.
 */
import { SafeWeakMap } from '../intrinsics.js';
import { NumberKeys } from './numberKeys.js';
import type { Source } from './source.js';

/** Codes of one key column: `codes[row]` in [0, card), 0 = null. */
export interface KeyCodes {
  codes: Int32Array;
  card: number;
  /** True when some dictionary string contains a double quote (Arquero's multi-key strings can then collide). */
  quoted: boolean;
  /** The code of NaN in a number column (a value for Arquero's keys, missing for pandas), else -1. */
  nan: number;
  /** A number column's distinct values (key k is code k + 1), else null. */
  numbers: NumberKeys | null;
  /** numberRanks' answer once computed (kept with the codes for the session). */
  ranks?: Int32Array;
}

const cache = new SafeWeakMap<object, KeyCodes>();

/** The key codes of a column source (cached by its backing array). */
export function keyCodes(src: Source): KeyCodes {
  const owner = src.kind === 'dict' ? src.codes : src.values;
  let kc = cache.get(owner);
  if (!kc)
    cache.set(owner, (kc = src.kind === 'dict' ? dictCodes(src.codes, src.dict) : numCodes(src.values, src.valid)));
  return kc;
}

function dictCodes(raw: Int32Array, dict: readonly string[]): KeyCodes {
  const n = raw.length;
  const codes = new Int32Array(n);
  for (let i = 0; i < n; i++) codes[i] = raw[i] < 0 ? 0 : raw[i] + 1;
  let quoted = false;
  for (const s of dict)
    if (s.includes('"')) {
      quoted = true;
      break;
    }
  return { codes, card: dict.length + 1, quoted, nan: -1, numbers: null };
}

function numCodes(values: Float64Array, valid: Uint8Array): KeyCodes {
  const n = values.length;
  const codes = new Int32Array(n);
  const keys = new NumberKeys(n); // keys as a Map compares them: 0 and -0 meet, NaN is one
  for (let i = 0; i < n; i++) if (valid[i]) codes[i] = keys.add(values[i]!) + 1; // 0 = null
  return { codes, card: keys.size + 1, quoted: false, nan: keys.nan < 0 ? -1 : keys.nan + 1, numbers: keys };
}

/**
 * A number column's codes ranked by value: `ranks[code]` is the code's place among the column's
 * distinct numbers in ascending order (0 and -0 are one code), -1 for null (code 0) and NaN.
 * Sorted once natively and kept with the codes; undefined for a dictionary column.
 */
export function numberRanks(kc: KeyCodes): Int32Array | undefined {
  const keys = kc.numbers;
  if (keys === null) return undefined;
  if (kc.ranks) return kc.ranks;
  const sorted = keys.firsts.slice(0, keys.size).sort(); // NaN sorts last
  const ranks = new Int32Array(kc.card).fill(-1);
  let r = 0;
  for (let j = 0; j < sorted.length; j++) {
    const x = sorted[j]!;
    if (x === x) ranks[keys.keyOf(x) + 1] = r++;
  }
  kc.ranks = ranks;
  return ranks;
}
