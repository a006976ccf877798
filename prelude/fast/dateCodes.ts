/**
 * A host date column as codes of its distinct times, built once per column and kept for the
 * session (the column's arrays never change): `codes[row]` indexes `times`, -1 is a null row. A
 * function of the date (`op.year`, `op.month`, ...) then runs once per distinct time and is looked
 * up by code, as a dictionary column's functions are (fast/deriveEval.ts `perDate`): the SBIR
 * file's 219,590 award dates hold about 16,000 distinct days.
 */
import { SafeWeakMap } from '../intrinsics.js';
import { NumberKeys } from './numberKeys.js';

/** The distinct times of a date column and each row's code (-1: null). */
export interface DateCodes {
  codes: Int32Array;
  times: Float64Array;
}

const built = new SafeWeakMap<Float64Array, DateCodes>();

/**
 * The codes of the date column with times `values` and validity `valid` (cached per column). Times
 * are keyed as NumberKeys keys them: -0 with 0 (the same Date), every NaN as one (an Invalid Date).
 */
export function dateCodes(values: Float64Array, valid: Uint8Array): DateCodes {
  let c = built.get(values);
  if (c === undefined) {
    const n = values.length;
    const keys = new NumberKeys(n);
    const codes = new Int32Array(n);
    for (let i = 0; i < n; i++) codes[i] = valid[i] ? keys.add(values[i]!) : -1;
    built.set(values, (c = { codes, times: keys.firsts.subarray(0, keys.size) }));
  }
  return c;
}
