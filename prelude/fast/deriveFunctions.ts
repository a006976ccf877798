/**
 * The op functions a derive on typed arrays (fast/deriveEval.ts) may call once per dictionary
 * entry or distinct date instead of once per row: functions of their arguments alone (no state,
 * no clock, no randomness). Each is the function registered when the prelude was installed (noted
 * by `notePureFunctions`); a guest that replaces one with `aq.addFunction` (which might count its
 * calls) sends the derive back to Arquero's path.
 */
import { functions } from 'arquero/src/op/functions/index.js';
import { SafeMap } from '../intrinsics.js';
import { giveUp } from './deriveVec.js';

type Fn = (...xs: unknown[]) => unknown;

const PURE = (
  'abs acos acosh asin asinh atan atan2 atanh cbrt ceil clz32 cos cosh degrees exp expm1 floor fround greatest ' +
  'is_finite is_nan least log log10 log1p log2 pow radians round sign sin sinh sqrt tan tanh trunc ' +
  'length includes indexof lastindexof startswith endswith parse_float parse_int contains len isna notna equal ' +
  'year quarter month week date day dayofyear dayofweek hours minutes seconds milliseconds timestamp ' +
  'utcyear utcquarter utcmonth utcweek utcdate utcdayofyear utcdayofweek utchours utcminutes utcseconds utcmilliseconds'
).split(' ');

/** Functions a fast path relies on beside the pure ones (fast/predicate.ts hostIncludes: `op.lower`). */
const RELIED_ON = ['lower'];

const installed = new SafeMap<string, Fn>();
const relied = new SafeMap<string, Fn>();

/** Records the pure functions as registered now (call once, after the prelude registers its own). */
export function notePureFunctions(): void {
  for (const name of PURE) {
    const f = functions[name];
    if (typeof f === 'function') installed.set(name, f as Fn);
  }
  for (const name of RELIED_ON) {
    const f = functions[name];
    if (typeof f === 'function') relied.set(name, f as Fn);
  }
}

/** True when op function `name` (pure, or one a fast path relies on) is still the one installed with the prelude. */
export function stillInstalled(name: string): boolean {
  const f = installed.get(name) ?? relied.get(name);
  return f !== undefined && Object.hasOwn(functions, name) && functions[name] === f;
}

/** The function `name` when it is pure and still the one installed, else a give-up. */
export function pureFunction(name: string): Fn {
  const f = installed.get(name);
  if (f === undefined || !Object.hasOwn(functions, name) || functions[name] !== f) return giveUp();
  return f;
}
