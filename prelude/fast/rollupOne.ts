/**
 * The reducers of fast/rollup.ts for one group (an ungrouped rollup: `t.rollup({ s: op.sum('A') })`,
 * `t.count()`, after a filter or an orderby too), with the running values in locals instead of
 * one-element typed arrays: the grouped loops read and write `count[g]`, `valid[g]` and `acc[g]`
 * through memory for every row, which for one group is a chain of dependent stores (a count alone
 * took about 0.6 ms over 219,590 rows). The updates, their order and their formulas are those of
 * fast/rollup.ts (Arquero's), so every answer is the same double: a local holds a double exactly as
 * a Float64Array element does; min and max keep the first of equal extremes met in scan order (-0 or
 * 0). Kinds left to the grouped code (distinct, median, quantile, dates) return undefined.
 *
 * Over every row in storage order (no filter, no order) the answer is a function of the column's
 * typed data and the op alone, so it is kept for the session (`keptOne`): the same reduction again,
 * in any run, reads it (a warm `t.rollup({ m: op.mean('Award Amount') })` paid Arquero's running
 * mean, a division per row each waiting for the one before, on every run).
 */
import type { Source } from './source.js';
import { SafeMap, SafeWeakMap } from '../intrinsics.js';

/**
 * Answers over every row of a host column, by its typed array (a column's `values` or `codes`, which
 * the session's columns own and no fast path writes) and `op/rows`. Only numbers are kept: the caller
 * gets a fresh one-element array each time (it becomes a column of the output table).
 */
const keptOne = new SafeWeakMap<object, Map<string, number | undefined>>();
/**
 * The same over the rows of a kept filter (frame/keptFilterRows.ts: `order` is then its kept index),
 * by the filter's words first: dropped with the filter.
 */
const keptWithin = new SafeWeakMap<Uint32Array, WeakMap<object, Map<string, number | undefined>>>();

/**
 * The op's value for the one group, or undefined when the grouped code handles `name`. `within`: the
 * words of the kept filter whose index `order` is (its answers are kept too), else null.
 */
export function reduceOne(
  name: string,
  src: Source | null,
  order: Uint32Array | null,
  m: number,
  within: Uint32Array | null = null,
): unknown[] | undefined {
  if (src === null) return [m]; // count(): every visited row
  if (order !== null && within === null) return computeOne(name, src, order, m);
  const data = src.kind === 'dict' ? src.codes : src.values;
  const key = `${name}/${m}`;
  let byData: WeakMap<object, Map<string, number | undefined>> | undefined = keptOne;
  if (within !== null) {
    byData = keptWithin.get(within);
    if (byData === undefined) keptWithin.set(within, (byData = new SafeWeakMap()));
  }
  let known = byData.get(data);
  if (known !== undefined && known.has(key)) return [known.get(key)];
  const one = computeOne(name, src, order, m);
  if (one === undefined) return undefined;
  if (known === undefined) byData.set(data, (known = new SafeMap<string, number | undefined>()));
  known.set(key, one[0] as number | undefined);
  return one;
}

/** The op's value computed over the visited rows (`order`, or rows 0..m-1 when null). */
function computeOne(name: string, src: Source, order: Uint32Array | null, m: number): unknown[] | undefined {
  if (src.kind === 'dict') {
    if (name !== 'valid' && name !== 'invalid') return undefined;
    const codes = src.codes;
    const valid = presentCodes(codes, order, m);
    return [name === 'valid' ? valid : m - valid];
  }
  if (src.type === 'date') return undefined;
  const { values, valid: ok } = src;
  switch (name) {
    case 'sum':
    case 'valid':
    case 'invalid': {
      sumValid(values, ok, order, m);
      const valid = ONE[0]!;
      return [name === 'valid' ? valid : name === 'invalid' ? m - valid : valid ? ONE[1] : undefined];
    }
    case 'mean':
    case 'average': {
      meanValid(values, ok, order, m);
      return [ONE[0] ? ONE[1] : undefined];
    }
    case 'variance':
    case 'variancep':
    case 'stdev':
    case 'stdevp': {
      deviations(values, ok, order, m);
      const c = ONE[0]!;
      const dev = ONE[2]!;
      if (c <= 1) return [undefined];
      if (name === 'variance') return [dev / (c - 1)];
      if (name === 'variancep') return [dev / c];
      return [Math.sqrt(name === 'stdev' ? dev / (c - 1) : dev / c)];
    }
    case 'min':
    case 'max': {
      const best = name === 'min' ? minValid(values, ok, order, m) : maxValid(values, ok, order, m);
      return [best === best ? best : undefined];
    }
    default:
      return undefined;
  }
}

// The loops below end their functions: V8 compiles a loop that runs once per call while it runs
// (on-stack replacement), and code after it that has not run yet throws that compile away again on
// every later call (docs/architecture.md, "Inside the prelude"). Their answers go to ONE: the
// valid count, the sum or mean, and the deviations.
const ONE = new Float64Array(3);

function presentCodes(codes: Int32Array, order: Uint32Array | null, m: number): number {
  let valid = 0;
  if (order === null) for (let i = 0; i < m; i++) valid += codes[i]! >= 0 ? 1 : 0;
  else for (let j = 0; j < m; j++) valid += codes[order[j]!]! >= 0 ? 1 : 0;
  return valid;
}

function sumValid(values: Float64Array, ok: Uint8Array, order: Uint32Array | null, m: number): void {
  let valid = 0;
  let acc = 0;
  for (let j = 0; j < m; j++) {
    const i = order === null ? j : order[j]!;
    const v = values[i]!;
    if (ok[i] && v === v) {
      valid++;
      acc += v;
    }
  }
  ONE[0] = valid;
  ONE[1] = acc;
}

function meanValid(values: Float64Array, ok: Uint8Array, order: Uint32Array | null, m: number): void {
  let valid = 0;
  let acc = 0;
  for (let j = 0; j < m; j++) {
    const i = order === null ? j : order[j]!;
    const v = values[i]!;
    if (ok[i] && v === v) acc += (v - acc) / ++valid;
  }
  ONE[0] = valid;
  ONE[1] = acc;
}

function deviations(values: Float64Array, ok: Uint8Array, order: Uint32Array | null, m: number): void {
  let valid = 0;
  let acc = 0;
  let dev = 0;
  for (let j = 0; j < m; j++) {
    const i = order === null ? j : order[j]!;
    if (!ok[i]) continue;
    const v = values[i]!;
    if (v !== v) continue; // NaN is not valid
    const c = ++valid;
    const d = v - acc;
    acc += d / c;
    dev += d * (v - acc);
  }
  ONE[0] = valid;
  ONE[1] = acc;
  ONE[2] = dev;
}

// min and max keep the first of equal extremes met in scan order (a strict comparison) and skip
// null and NaN rows. `best` is NaN until the first valid row (which no comparison passes, so only
// the second test runs until then) and never after, so it is also the answer's "none" (NaN = no
// valid row). A new extreme is rare in a scan, so the first test is a well-predicted jump (about
// 2.5x the speed of testing validity first, over 219,590 rows in plain Node 20). Each returns its
// local: a store after the loop into the module's ONE would throw the compiled loop away.
function minValid(values: Float64Array, ok: Uint8Array, order: Uint32Array | null, m: number): number {
  return order === null ? minAll(values, ok, m) : minRows(values, ok, order, m);
}

function maxValid(values: Float64Array, ok: Uint8Array, order: Uint32Array | null, m: number): number {
  return order === null ? maxAll(values, ok, m) : maxRows(values, ok, order, m);
}

function minAll(values: Float64Array, ok: Uint8Array, m: number): number {
  let best = NaN;
  for (let i = 0; i < m; i++) {
    const v = values[i]!;
    if (v < best) {
      if (ok[i]) best = v;
    } else if (best !== best && ok[i] && v === v) best = v;
  }
  return best;
}

function minRows(values: Float64Array, ok: Uint8Array, order: Uint32Array, m: number): number {
  let best = NaN;
  for (let j = 0; j < m; j++) {
    const i = order[j]!;
    const v = values[i]!;
    if (v < best) {
      if (ok[i]) best = v;
    } else if (best !== best && ok[i] && v === v) best = v;
  }
  return best;
}

function maxAll(values: Float64Array, ok: Uint8Array, m: number): number {
  let best = NaN;
  for (let i = 0; i < m; i++) {
    const v = values[i]!;
    if (v > best) {
      if (ok[i]) best = v;
    } else if (best !== best && ok[i] && v === v) best = v;
  }
  return best;
}

function maxRows(values: Float64Array, ok: Uint8Array, order: Uint32Array, m: number): number {
  let best = NaN;
  for (let j = 0; j < m; j++) {
    const i = order[j]!;
    const v = values[i]!;
    if (v > best) {
      if (ok[i]) best = v;
    } else if (best !== best && ok[i] && v === v) best = v;
  }
  return best;
}
