/**
 * `['latest', guard, field, op, none]` (session 21, src/runtime/prepare/scalarLoops.ts `latestShape`):
 *   let latest = null;
 *   for (const r of t.objects()) { const d = r.F; if (d && (!latest || d > latest)) latest = d; }
 * over a date column F, answered from the column's numbers: the Date the loop keeps, made as a row
 * read makes it (`new Date(time)`), or null, or the start when no row is taken. `guard` 1 when the
 * test starts with `d &&` (a row with no date is skipped), `op` the order comparison with the row's
 * value on the left, `none` how the test asks for no Date yet ('!' `!latest`, '==' `latest == null`,
 * '===' `latest === null`). Each comparison is the loop's on numbers: a Date compares by its time, a
 * null as 0 (`null > d`), NaN never. Only when the start is null (undefined too but for '===') and
 * Date.prototype's conversions are the session's own (the comparisons call them): false otherwise,
 * with nothing kept, and the loop runs as written.
 */
import { NativeArray, NativeDate } from '../intrinsics.js';
import type { Source } from '../fast/source.js';
import { dateMethodsIntact } from '../fast/dateFeatures.js';
import { answerWith } from './scalarLoop.js';

export function latestLoop(
  spec: unknown[],
  start: unknown,
  srcs: (Source | undefined)[],
  idx: ArrayLike<number> | null,
  n: number,
): boolean {
  if (spec.length !== 5 || !NativeArray.isArray(start) || start.length !== 1) return false;
  const [, guard, field, op, none] = spec;
  const s0 = start[0] as unknown;
  if (none !== '!' && none !== '==' && none !== '===') return false;
  if (!(s0 === null || (s0 === undefined && none !== '==='))) return false;
  if (guard !== 0 && guard !== 1) return false;
  if (op !== '<' && op !== '<=' && op !== '>' && op !== '>=') return false;
  if (typeof field !== 'number' || field % 1 !== 0 || field < 0 || field >= srcs.length) return false;
  const src = srcs[field];
  if (src === undefined || src.kind !== 'num' || src.type !== 'date' || !dateMethodsIntact()) return false;
  // 0: the start, 1: null, 2: a Date of time `best`
  const st = extreme(src.values, src.valid, idx, n, guard === 1, op);
  answerWith([st === 0 ? s0 : st === 1 ? null : new NativeDate(best)]);
  return true;
}

/** Whether `spec` is a latest loop's (it keeps a Date of its own: never over a bound row array's rows). */
export const isLatest = (spec: unknown): boolean => NativeArray.isArray(spec) && spec[0] === 'latest';

let best = NaN;

/** The loop on the column's numbers: what it keeps (see latestLoop), the time in `best`. One function ending with its loop. */
function extreme(
  values: Float64Array,
  valid: Uint8Array,
  idx: ArrayLike<number> | null,
  n: number,
  guard: boolean,
  op: string,
): number {
  let st = 0;
  let b = NaN;
  const gt = op === '>' || op === '>=';
  const eq = op === '>=' || op === '<=';
  for (let k = 0; k < n; k++) {
    const r = idx === null ? k : idx[k]!;
    const has = valid[r] !== 0;
    if (guard && !has) continue;
    if (st !== 2) {
      // no Date yet: the test takes the row (a null row keeps the local null)
      if (has) {
        st = 2;
        b = values[r]!;
      } else st = 1;
      continue;
    }
    const v = has ? values[r]! : 0;
    if (gt ? v > b || (eq && v === b) : v < b || (eq && v === b)) {
      if (has) b = v;
      else st = 1;
    }
  }
  best = b;
  return st;
}
