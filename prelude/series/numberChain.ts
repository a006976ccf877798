/**
 * Element-wise number methods as a lazy chain: `s.mul(2).add(1)` records its steps on top of the
 * first Series' typed arrays instead of filling a Float64Array per step. The Series a step returns
 * is an ordinary Series: its values and typed view are computed in one pass the first time anything
 * reads them (a print, an index, a method without a fused form), and from then on it is the Series
 * the eager steps built, value for value (missing as null, NaN kept where the eager step kept it).
 * The reductions that fuse (sum, mean, count, min, max, nunique, and the packed values behind
 * std/median/quantile) run the chain block by block through one reused buffer instead, so a chain
 * then a reduction allocates nothing per step.
 *
 * The eager rule per position (fastElementwise.ts before this file): a value is present (p) or
 * missing; a step that treats NaN as missing (all but `round`) first drops a NaN, then applies its
 * function to what is present; `fill` makes every position present; a column operand must be
 * present and not NaN too. In a block a missing value is carried as NaN: every step maps NaN to NaN
 * (or, `fill`, to its value), so the non-NaN values of a block are exactly the present, non-NaN
 * values of the eager result, which is all a reduction reads (it skips null and NaN alike). Only
 * materialising tells a missing position (null) from a NaN `round` kept: it tracks p beside.
 */
import { NewFunction, ObjectDefineProperty, SafeMap, SafeWeakMap } from '../intrinsics.js';
import { Series } from './Series.js';
import { numView, type NumView, type TypedView } from './typed.js';

/** The binary operators of compare.ts that a step runs without a call per value. */
export type BinaryOp = 'add' | 'sub' | 'mul' | 'div' | 'floordiv' | 'mod' | 'pow' | 'radd' | 'rsub' | 'rmul' | 'rdiv';
type Op = BinaryOp | 'fill' | 'abs' | 'round' | 'clip' | 'cumsum' | 'cumprod' | 'cummax' | 'cummin';

/** The running methods a chain can hold (each carries its running value from block to block). */
export type CumulativeOp = 'cumsum' | 'cumprod' | 'cummax' | 'cummin';

/** One step; every step has every field (one object shape for the loops). */
interface Step {
  op: Op;
  /** the scalar operand, fill value, round's scale, clip's lower bound (NaN: none) */
  b: number;
  /** clip's upper bound (NaN: none) */
  c: number;
  /** a column operand: its typed arrays, read as the base is (missing and NaN as NaN) */
  other: NumView | null;
  /** a running step's value so far in this pass, and whether it has seen a value (reset at position 0) */
  acc: number;
  running: boolean;
}

/** The first Series' typed arrays and the steps after it (immutable: a longer chain is a new one). */
interface Chain {
  base: NumView;
  n: number;
  /** diff (`a - b`) or pct_change (`a / b - 1`) of the base with the value `periods` positions back, before the steps */
  lag: { periods: number; pct: boolean } | null;
  steps: readonly Step[];
  /** The dtype the Series reports (a date part's 'integer'); absent: inferred from its values, as for an eager step's result. */
  dtype?: 'integer';
}

const BLOCK = 2048;
const chains = new SafeWeakMap<Series, Chain>();
// the block buffers, reused by every chain: evaluation never re-enters (no step calls guest code)
const X = new Float64Array(BLOCK);
const P = new Uint8Array(BLOCK);
// a column operand's block
const Y = new Float64Array(BLOCK);

/** The chain still pending behind `s` (its values not computed yet), or undefined. */
export function pendingChain(s: Series): Chain | undefined {
  return chains.get(s);
}

const step = (op: Op, b = NaN, c = NaN, other: NumView | null = null): Step => ({
  op,
  b,
  c,
  other,
  acc: 0,
  running: false,
});

/** `s op b` (b a number, not NaN) as a lazy Series; undefined without a numeric view. */
export function chainScalar(s: Series, op: BinaryOp, b: number): Series | undefined {
  return extend(s, step(op, b));
}

/** `s op other` position by position (`other` a number Series of the same length); undefined without views. */
export function chainColumn(s: Series, op: BinaryOp, other: Series): Series | undefined {
  const v = numView(other);
  return v ? extend(s, step(op, NaN, NaN, v)) : undefined;
}

/** Missing and NaN replaced by `value`. */
export function chainFill(s: Series, value: number): Series | undefined {
  return extend(s, step('fill', value));
}

/** Math.abs of each present value. */
export function chainAbs(s: Series): Series | undefined {
  return extend(s, step('abs'));
}

/** Half-to-even rounding at scale `10 ** decimals` (NaN kept as a present value, as the eager round keeps it). */
export function chainRound(s: Series, scale: number): Series | undefined {
  return extend(s, step('round', scale));
}

/** Each present value clipped to [lo, hi] (NaN: no bound). */
export function chainClip(s: Series, lo: number, hi: number): Series | undefined {
  return extend(s, step('clip', lo, hi));
}

/**
 * cumsum/cumprod/cummax/cummin: a running value over the present, non-NaN values; missing stays
 * missing (pandas skipna). Sequential, so every pass over the chain starts at position 0.
 */
export function chainCumulative(s: Series, op: CumulativeOp): Series | undefined {
  return extend(s, step(op));
}

/**
 * The column and value of a chain that is only `fillna(value)` of a Series' own values (no lag, no
 * other step), or null: its reductions read the column in place (fillReduce.ts).
 */
export function fillOnly(c: Chain): { base: NumView; value: number; n: number } | null {
  const st = c.steps;
  return c.lag === null && st.length === 1 && st[0]!.op === 'fill' ? { base: c.base, value: st[0]!.b, n: c.n } : null;
}

/** True when `s` is or can start a chain (a number Series with typed arrays). */
export function chainable(s: Series): boolean {
  return chains.has(s) || numView(s) !== null;
}

function extend(s: Series, st: Step): Series | undefined {
  const prev = chains.get(s);
  let chain: Chain;
  if (prev) chain = { base: prev.base, n: prev.n, lag: prev.lag, steps: [...prev.steps, st] };
  else {
    const v = numView(s);
    if (!v) return undefined;
    chain = { base: v, n: s.length, lag: null, steps: [st] };
  }
  return lazySeries(chain, s);
}

/**
 * A date part read from the session's kept answers of its getter (`got`, one per row of the column,
 * NaN where the part is missing; `rows` the Series' row map) as a pending chain: the Series
 * dtAccessor.ts would fill (missing where x is NaN, dtype integer), so a reduction after it
 * (`dt.month.mean()`) reads `got` once instead of filling two arrays first. `part`: the getter's
 * answer as it is (`x`: year, day, hours...), the month (`x + 1`), the quarter (`floor(x / 3) + 1`,
 * x the month 0-11) or the weekday from Monday (`(x + 6) mod 7`, x the day from Sunday 0-6).
 */
export function chainKeptPart(
  got: Float64Array,
  rows: Uint32Array | null,
  part: 'as is' | 'month' | 'quarter' | 'weekday',
  like: Series,
): Series {
  const base: NumView = { kind: 'num', type: 'number', values: got, valid: null, rows };
  const steps =
    part === 'month'
      ? [step('add', 1)]
      : part === 'quarter'
        ? [step('floordiv', 3), step('add', 1)]
        : part === 'weekday'
          ? [step('add', 6), step('mod', 7)]
          : [step('add', 0)];
  return lazySeries({ base, n: like.length, lag: null, steps, dtype: 'integer' }, like);
}

/**
 * `s.diff(periods)` (or pct_change) as the start of a chain: both values present and not NaN, else
 * missing; undefined when `s` has no numeric view of its own (a pending chain is computed first by
 * the caller's eager path) or `periods` is not an integer.
 */
export function chainLag(s: Series, periods: number, pct: boolean): Series | undefined {
  if (!Number.isInteger(periods) || chains.has(s)) return undefined;
  const v = numView(s);
  return v ? lazySeries({ base: v, n: s.length, lag: { periods, pct }, steps: [] }, s) : undefined;
}

function lazySeries(chain: Chain, like: Series): Series {
  let values: Float64Array | null = null;
  let ok: Uint8Array | null = null;
  const force = (): void => {
    if (values) return;
    const m = materialise(chain);
    values = m.values;
    ok = m.valid;
    chains.delete(s);
    // from now on an ordinary data property, as on the eager result
    ObjectDefineProperty(s, 'view', {
      value: { kind: 'num', type: chain.dtype ?? 'number', values, valid: ok, rows: null } satisfies TypedView,
      writable: true,
      enumerable: true,
      configurable: true,
    });
  };
  const read = (i: number): unknown => {
    if (values === null) force();
    return ok ? (ok[i] ? values![i] : null) : values![i];
  };
  const s = new Series(read, chain.n, like.name, like.labels, null, chain.dtype ?? null);
  ObjectDefineProperty(s, 'view', {
    get(): TypedView | null {
      force();
      return s.view;
    },
    set(v: TypedView | null) {
      force();
      s.view = v;
    },
    enumerable: true,
    configurable: true,
  });
  chains.set(s, chain);
  return s;
}

/** The base's value at position i (0 <= i < n), missing as NaN. */
function baseAt(base: NumView, i: number): number {
  const r = base.rows ? base.rows[i]! : i;
  return base.valid === null || base.valid[r] !== 0 ? base.values[r]! : NaN;
}

/**
 * X[0..len) = the lagged difference (or change) at [start, start + len): NaN unless both sides are
 * numbers (NaN on either side gives NaN); with `presence`, P[k] = 1 where both sides are numbers
 * (materialise tells a present NaN, Infinity - Infinity, from a missing value).
 */
function loadLag(c: Chain, start: number, len: number, presence = false): void {
  const { periods, pct } = c.lag!;
  load(c.base, start, len);
  // Y[k] = the value `periods` positions back (NaN outside the Series), loaded in one run
  const from = start - periods;
  const k0 = Math.max(0, -from);
  const k1 = Math.min(len, c.n - from);
  if (k1 <= k0) Y.fill(NaN, 0, len);
  else {
    Y.fill(NaN, 0, k0);
    Y.fill(NaN, k1, len);
    load(c.base, from + k0, k1 - k0, k0 ? Y.subarray(k0) : Y);
  }
  if (presence)
    for (let k = 0; k < len; k++) {
      const a = X[k]!;
      const b = Y[k]!;
      P[k] = +(a === a) & +(b === b);
    }
  if (pct) for (let k = 0; k < len; k++) X[k] = X[k]! / Y[k]! - 1;
  else for (let k = 0; k < len; k++) X[k] = X[k]! - Y[k]!;
}

// a column's values with its missing positions as NaN, kept per column for the session (by its
// Float64Array) so a block loads with one copy instead of a test per value; only for columns of up
// to 1M rows (8 MB of copy, counted in the session's memory): longer ones test per value
const nanFilledCache = new SafeWeakMap<Float64Array, Float64Array>();
const NAN_FILLED_MAX = 1 << 20;

function nanFilled(values: Float64Array, valid: Uint8Array): Float64Array | null {
  const n = values.length;
  if (n > NAN_FILLED_MAX || valid.length !== n) return null;
  let out = nanFilledCache.get(values);
  if (!out) {
    out = new Float64Array(n);
    for (let i = 0; i < n; i++) out[i] = valid[i] !== 0 ? values[i]! : NaN;
    nanFilledCache.set(values, out);
  }
  return out;
}

/** X[0..len) (or `to`) = the view's values at positions [start, start + len), missing as NaN. */
function load(base: NumView, start: number, len: number, to: Float64Array = X): void {
  const { values, valid, rows } = base;
  const filled = !rows && valid ? nanFilled(values, valid) : null;
  if (filled) to.set(filled.subarray(start, start + len));
  else if (!rows && !valid) to.set(values.subarray(start, start + len));
  else if (rows)
    for (let k = 0; k < len; k++) {
      const r = rows[start + k]!;
      to[k] = valid === null || valid[r] !== 0 ? values[r]! : NaN;
    }
  else for (let k = 0; k < len; k++) to[k] = valid![start + k] !== 0 ? values[start + k]! : NaN;
}

// 1.5 * 2 ** 52: adding then subtracting it rounds a double of magnitude under 2 ** 51 to an
// integer by the FPU's own rule, round half to even (no Math.round, a slow call on this VM)
const ROUNDER = 6755399441055744;
const RANGE = 2251799813685248;

function roundHalfEven(x: number, m: number): number {
  const y = x * m;
  if (y > -RANGE && y < RANGE) {
    const r = y + ROUNDER - ROUNDER;
    // Math.round gives -0 for y in [-0.5, -0]: keep the sign frame/stats.ts roundValue gives
    return (r === 0 && (y < 0 || 1 / y < 0) ? -0 : r) / m;
  }
  // NaN, infinities and huge values: the same steps as roundValue, so the same answer
  if (!Number.isFinite(x)) return x;
  let r = Math.round(y);
  if (Math.abs(y - Math.trunc(y)) === 0.5) r = 2 * Math.round(y / 2);
  return r / m;
}

/** One step over X[0..len): NaN in gives NaN out, except `fill`. One loop per operator, no call per value. */
function run(st: Step, start: number, len: number): void {
  const b = st.b;
  if (st.other) return runColumn(st.op, st.other, start, len);
  switch (st.op) {
    case 'add':
      for (let k = 0; k < len; k++) X[k] = X[k]! + b;
      return;
    case 'radd':
      for (let k = 0; k < len; k++) X[k] = b + X[k]!;
      return;
    case 'sub':
      for (let k = 0; k < len; k++) X[k] = X[k]! - b;
      return;
    case 'rsub':
      for (let k = 0; k < len; k++) X[k] = b - X[k]!;
      return;
    case 'mul':
      for (let k = 0; k < len; k++) X[k] = X[k]! * b;
      return;
    case 'rmul':
      for (let k = 0; k < len; k++) X[k] = b * X[k]!;
      return;
    case 'div':
      for (let k = 0; k < len; k++) X[k] = X[k]! / b;
      return;
    case 'rdiv':
      for (let k = 0; k < len; k++) X[k] = b / X[k]!;
      return;
    case 'floordiv':
      for (let k = 0; k < len; k++) X[k] = Math.floor(X[k]! / b);
      return;
    case 'mod':
      for (let k = 0; k < len; k++) {
        const a = X[k]!;
        X[k] = a - Math.floor(a / b) * b;
      }
      return;
    case 'pow':
      // NaN ** 0 is 1: a missing value must stay missing
      for (let k = 0; k < len; k++) {
        const a = X[k]!;
        X[k] = a === a ? a ** b : NaN;
      }
      return;
    case 'fill':
      for (let k = 0; k < len; k++) {
        const a = X[k]!;
        if (a !== a) X[k] = b;
      }
      return;
    case 'abs':
      for (let k = 0; k < len; k++) X[k] = Math.abs(X[k]!);
      return;
    case 'round':
      for (let k = 0; k < len; k++) X[k] = roundHalfEven(X[k]!, b);
      return;
    case 'cumsum':
    case 'cumprod':
    case 'cummax':
    case 'cummin':
      return runCumulative(st, start, len);
    case 'clip': {
      const c = st.c;
      if (b === b) for (let k = 0; k < len; k++) X[k] = Math.max(X[k]!, b);
      if (c === c) for (let k = 0; k < len; k++) X[k] = Math.min(X[k]!, c);
      return;
    }
  }
}

function runCumulative(st: Step, start: number, len: number): void {
  // the eager rule: the first present value starts the run, then acc = step(acc, x)
  let started = start > 0 && st.running;
  let acc = start > 0 ? st.acc : 0;
  const op = st.op;
  for (let k = 0; k < len; k++) {
    const x = X[k]!;
    if (x !== x) continue;
    acc = !started
      ? x
      : op === 'cumsum'
        ? acc + x
        : op === 'cumprod'
          ? acc * x
          : op === 'cummax'
            ? Math.max(acc, x)
            : Math.min(acc, x);
    started = true;
    X[k] = acc;
  }
  st.acc = acc;
  st.running = started;
}

function runColumn(op: Op, other: NumView, start: number, len: number): void {
  load(other, start, len, Y);
  // NaN on either side gives NaN for these four; the rest test both sides first
  switch (op) {
    case 'add':
      for (let k = 0; k < len; k++) X[k] = X[k]! + Y[k]!;
      return;
    case 'sub':
      for (let k = 0; k < len; k++) X[k] = X[k]! - Y[k]!;
      return;
    case 'mul':
      for (let k = 0; k < len; k++) X[k] = X[k]! * Y[k]!;
      return;
    case 'div':
      for (let k = 0; k < len; k++) X[k] = X[k]! / Y[k]!;
      return;
    default: {
      const f = BINARY[op as BinaryOp];
      for (let k = 0; k < len; k++) {
        const a = X[k]!;
        const y = Y[k]!;
        // both sides present and not NaN, as the eager step requires
        X[k] = a === a && y === y ? f(a, y) : NaN;
      }
    }
  }
}

// the same functions compare.ts passes for these operators
const BINARY: Record<BinaryOp, (a: number, b: number) => number> = {
  add: (a, b) => a + b,
  sub: (a, b) => a - b,
  mul: (a, b) => a * b,
  div: (a, b) => a / b,
  floordiv: (a, b) => Math.floor(a / b),
  mod: (a, b) => a - Math.floor(a / b) * b,
  pow: (a, b) => a ** b,
  radd: (a, b) => b + a,
  rsub: (a, b) => b - a,
  rmul: (a, b) => b * a,
  rdiv: (a, b) => b / a,
};

/** X[0..len) = the chain's values at [start, start + len), missing and NaN alike as NaN. */
function block(c: Chain, start: number, len: number): void {
  if (c.lag) loadLag(c, start, len);
  else load(c.base, start, len);
  const steps = c.steps;
  for (let j = 0; j < steps.length; j++) run(steps[j]!, start, len);
}

/** The chain's values and presence bytes (null when all present), as the eager steps build them. */
function materialise(c: Chain): { values: Float64Array; valid: Uint8Array | null } {
  const values = new Float64Array(c.n);
  const valid = new Uint8Array(c.n);
  const all = materialiseBlocks(c, values, valid);
  return { values, valid: all ? null : valid };
}

/** Fills `values` and `valid` (materialise); 1 when every position is present. */
function materialiseBlocks(c: Chain, values: Float64Array, valid: Uint8Array): number {
  const n = c.n;
  const { valid: baseValid, rows } = c.base;
  let all = 1;
  for (let start = 0; start < n; start += BLOCK) {
    const len = Math.min(BLOCK, n - start);
    if (c.lag) loadLag(c, start, len, true);
    else {
      for (let k = 0; k < len; k++) {
        const r = rows ? rows[start + k]! : start + k;
        P[k] = baseValid === null || baseValid[r] !== 0 ? 1 : 0;
      }
      load(c.base, start, len);
    }
    for (const st of c.steps) {
      // presence before the step, from the values it reads (missing is NaN there)
      if (st.op === 'fill') P.fill(1, 0, len);
      else if (st.op !== 'round')
        for (let k = 0; k < len; k++) {
          const a = X[k]!;
          P[k] =
            P[k]! &
            +(a === a) &
            (st.other === null ? 1 : +(baseAt(st.other, start + k) === baseAt(st.other, start + k)));
        }
      run(st, start, len);
    }
    for (let k = 0; k < len; k++) {
      const p = P[k]!;
      values[start + k] = p ? X[k]! : 0;
      valid[start + k] = p;
      all &= p;
    }
  }
  return all;
}

/** Packs the non-NaN values of X[0..len) to its front; returns how many. */
function pack(len: number): number {
  let m = 0;
  for (let k = 0; k < len; k++) {
    const x = X[k]!;
    if (x === x) X[m++] = x;
  }
  return m;
}

/** The present, non-NaN values packed into a fresh Float64Array (the caller may sort it). */
export function chainPresent(c: Chain): Float64Array {
  const out = new Float64Array(c.n);
  const m = presentBlocks(c, out);
  return m === c.n ? out : out.slice(0, m);
}

function presentBlocks(c: Chain, out: Float64Array): number {
  let m = 0;
  for (let start = 0; start < c.n; start += BLOCK) {
    const len = Math.min(BLOCK, c.n - start);
    block(c, start, len);
    const got = pack(len);
    out.set(X.subarray(0, got), m);
    m += got;
  }
  return m;
}

// The functions below that loop over a whole chain end with the loop and return a local (the count
// beside a sum goes out through `counted`): V8 compiles a long loop while it runs (on-stack
// replacement) before the code after it has ever run, and such code (a comparison, an array
// literal), reached, throws the compiled loop away again on every later call (Node 20: 2-3x).
let counted = 0;

/** [sum, count] of the present values, added in position order as the eager reductions add them. */
export function chainSumCount(c: Chain): [number, number] {
  const fused = fusedSum(c);
  if (fused !== undefined) return [fused, FUSED_COUNT[0]!];
  const sum = sumBlocks(c);
  return [sum, counted];
}

/** A fused sum's count of present values. */
const FUSED_COUNT = new Float64Array(1);
const WARM_UP_LENGTH = 512;
type SumKernel = (xs: Float64Array, n: number, b: Float64Array, count: Float64Array) => number;
const sumKernels = new SafeMap<string, SumKernel>();

/** Each scalar step as one statement on `x` (its operand `b<j>`): the same operation the step's loop in run() does. */
const FUSED_STEP: Partial<Record<Op, (b: string) => string>> = {
  add: (b) => `x = x + ${b};`,
  radd: (b) => `x = ${b} + x;`,
  sub: (b) => `x = x - ${b};`,
  rsub: (b) => `x = ${b} - x;`,
  mul: (b) => `x = x * ${b};`,
  rmul: (b) => `x = ${b} * x;`,
  div: (b) => `x = x / ${b};`,
  rdiv: (b) => `x = ${b} / x;`,
  fill: (b) => `if (x !== x) x = ${b};`,
};

/**
 * The sum of a chain of scalar arithmetic steps (and fills) over a column read in place, in one
 * pass: each value through every step, then added, in position order (the blocks' operations on
 * each value in the same order, so the same sum; the count goes out in FUSED_COUNT). One compiled
 * loop per sequence of operators, kept for the session; undefined for anything else (a lag, a
 * column operand, a running step, a row map), which the blocks compute.
 */
function fusedSum(c: Chain): number | undefined {
  const { values, valid, rows } = c.base;
  if (c.lag || rows || values.length !== c.n) return undefined;
  const xs = valid ? nanFilled(values, valid) : values;
  if (!xs) return undefined;
  const steps = c.steps;
  let key = '';
  for (let j = 0; j < steps.length; j++) {
    const st = steps[j]!;
    if (st.other !== null || FUSED_STEP[st.op] === undefined) return undefined;
    key += `${st.op},`;
  }
  let kernel = sumKernels.get(key);
  if (kernel === undefined) {
    let loads = '';
    let body = '';
    for (let j = 0; j < steps.length; j++) {
      loads += `const b${j} = b[${j}]; `;
      body += FUSED_STEP[steps[j]!.op]!(`b${j}`);
    }
    kernel = NewFunction(
      'xs',
      'n',
      'b',
      'count',
      `${loads}let sum = 0, m = 0;
      for (let i = 0; i < n; i++) { let x = xs[i]; ${body} if (x === x) { sum += x; m++; } }
      count[0] = m;
      return sum;`,
    ) as SumKernel;
    // a few short runs first (long enough for V8 to give the function its feedback): the code after
    // the loop has then run when V8 compiles the loop while it runs, so that compile is kept (code
    // never run before it would throw it away again on every later call)
    const warm = new Float64Array(WARM_UP_LENGTH);
    for (let k = 0; k < 3; k++) kernel(warm, WARM_UP_LENGTH, new Float64Array(steps.length), FUSED_COUNT);
    sumKernels.set(key, kernel);
  }
  const b = new Float64Array(steps.length);
  for (let j = 0; j < steps.length; j++) b[j] = steps[j]!.b;
  return kernel(xs, c.n, b, FUSED_COUNT);
}

function sumBlocks(c: Chain): number {
  let sum = 0;
  let count = 0;
  for (let start = 0; start < c.n; start += BLOCK) {
    const len = Math.min(BLOCK, c.n - start);
    block(c, start, len);
    for (let k = 0; k < len; k++) {
      const x = X[k]!;
      if (x === x) {
        sum += x;
        count++;
      }
    }
  }
  counted = count;
  return sum;
}

/** The first smallest (sign -1) or largest (sign 1) present value, null when none. */
export function chainExtreme(c: Chain, sign: 1 | -1): number | null {
  const best = extremeBlocks(c, sign);
  return best === best ? best : null;
}

function extremeBlocks(c: Chain, sign: 1 | -1): number {
  let best = NaN;
  for (let start = 0; start < c.n; start += BLOCK) {
    const len = Math.min(BLOCK, c.n - start);
    block(c, start, len);
    const m = pack(len);
    let k = 0;
    if (best !== best && m > 0) best = X[k++]!;
    if (sign > 0) {
      for (; k < m; k++) if (X[k]! > best) best = X[k]!;
    } else for (; k < m; k++) if (X[k]! < best) best = X[k]!;
  }
  return best;
}

/**
 * The chain pending behind `s`, or a chain of no steps over its numeric view (its values as they
 * are), or undefined without either: what forEachBlock reads.
 */
export function chainOrView(s: Series): Chain | undefined {
  const c = chains.get(s);
  if (c) return c;
  const v = numView(s);
  return v ? { base: v, n: s.length, lag: null, steps: [] } : undefined;
}

/**
 * Calls `visit(X, start, len)` with each block's values in X[0..len) for positions
 * [start, start + len), in order: missing values and NaN alike as NaN (a comparison with a number
 * is then false, `!==` true, as it is for a missing value on the per-value path).
 */
export function forEachBlock(c: Chain, visit: (xs: Float64Array, start: number, len: number) => void): void {
  for (let start = 0; start < c.n; start += BLOCK) {
    const len = Math.min(BLOCK, c.n - start);
    block(c, start, len);
    visit(X, start, len);
  }
}

/**
 * The values forEachBlock would visit, as one array read in place (missing as NaN; the session's
 * NaN-filled copy for a column with missing values), when the chain has no step and its view no row
 * index; else null.
 */
export function wholeValues(c: Chain): Float64Array | null {
  const { values, valid, rows } = c.base;
  if (c.steps.length || c.lag || rows || values.length !== c.n) return null;
  return valid ? nanFilled(values, valid) : values;
}

/** Calls `visit(X, m)` with each block's present values packed in X[0..m), in position order. */
export function chainBlocks(c: Chain, visit: (xs: Float64Array, m: number) => void): void {
  for (let start = 0; start < c.n; start += BLOCK) {
    const len = Math.min(BLOCK, c.n - start);
    block(c, start, len);
    visit(X, pack(len));
  }
}

/**
 * The chain's steps applied to each value of `xs` (missing as NaN) as they apply at a position of
 * the base holding that value: f(x) per value, the value the computed Series holds there (NaN: missing
 * or NaN), so its value_counts follow from the base's (fastReduce.ts). null when a step reads more
 * than the value (a lag, a column operand, a running step).
 */
export function chainOfValues(c: Chain, xs: Float64Array): Float64Array | null {
  if (c.lag) return null;
  const steps = c.steps;
  for (let j = 0; j < steps.length; j++) if (steps[j]!.other !== null || isRunning(steps[j]!.op)) return null;
  const out = new Float64Array(xs.length);
  for (let start = 0; start < xs.length; start += BLOCK) {
    const len = Math.min(BLOCK, xs.length - start);
    X.set(xs.subarray(start, start + len));
    for (let j = 0; j < steps.length; j++) run(steps[j]!, start, len);
    out.set(X.subarray(0, len), start);
  }
  return out;
}

const isRunning = (op: Op): boolean => op === 'cumsum' || op === 'cumprod' || op === 'cummax' || op === 'cummin';
