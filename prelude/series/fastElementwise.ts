/**
 * Element-wise methods on a number column's typed arrays (typed.ts): arithmetic with a number or
 * another number column (as lazy steps, numberChain.ts, as are fillna, round, abs, clip, diff,
 * pct_change and the cumulative methods); here shift, diff/pct_change of a pending chain,
 * isna/notna, apply/map with a function: one loop over a Float64Array into a new Float64Array (and
 * a presence byte per position when some are missing), no array of values and no read call per row. Each gives the values the per-value path of elementwise.ts / compare.ts gives (a missing
 * value stays missing as null; a NaN the per-value path keeps stays NaN), and the result keeps a
 * numeric view so a following reduction takes the typed path too. undefined when the Series has
 * no numeric view.
 */
import { chainable, chainColumn, chainScalar, type BinaryOp } from './numberChain.js';
import { Series } from './Series.js';
import { presentCount } from './fastReduce.js';
import { numView, typedOf } from './typed.js';
import { keepAllPresent } from '../fast/presentValues.js';
import { FunctionPrototypeToString, NewFunction, ReflectApply, SafeMap } from '../intrinsics.js';

/**
 * 1 when every position of storage-order values holds a number (valid, and not NaN when
 * `nanMissing`), else 0. A function that ends with its loop: V8 compiles a long loop while it runs
 * (on-stack replacement) before the code after it has ever run, and that code, reached, throws the
 * compiled loop away again on every later call (Node 20).
 */
function everyPresent(values: Float64Array, valid: Uint8Array | null, nanMissing: boolean, n: number): number {
  let all = 1;
  for (let i = 0; i < n; i++) {
    const a = values[i]!;
    all &= (valid === null ? 1 : +(valid[i] !== 0)) & (nanMissing ? +(a === a) : 1);
  }
  return all;
}

/**
 * Values by position: `x` the numbers, `ok[i]` 1 when position i holds one (valid, and not NaN
 * when `nanMissing`); `ok` null when every position does. `x` may be the column's own array:
 * read it, never write it.
 */
function positional(s: Series, nanMissing: boolean): { x: Float64Array; ok: Uint8Array | null } | undefined {
  const v = numView(s);
  if (!v) return undefined;
  const { values, valid, rows } = v;
  const n = s.length;
  if (!rows) {
    // storage order: the column's own array, and a presence byte per row only when one is missing
    if (valid === null && !nanMissing) return { x: values, ok: null };
    if (everyPresent(values, valid, nanMissing, n)) return { x: values, ok: null };
    if (valid !== null && !nanMissing) return { x: values, ok: valid };
    const ok = new Uint8Array(n);
    for (let i = 0; i < n; i++) {
      const a = values[i]!;
      ok[i] = (valid === null ? 1 : +(valid[i] !== 0)) & (nanMissing ? +(a === a) : 1);
    }
    return { x: values, ok };
  }
  const x = new Float64Array(n);
  const ok = new Uint8Array(n);
  let all = 1;
  for (let i = 0; i < n; i++) {
    const r = rows[i]!;
    const a = values[r]!;
    x[i] = a;
    const o = (valid === null ? 1 : +(valid[r] !== 0)) & (nanMissing ? +(a === a) : 1);
    ok[i] = o;
    all &= o;
  }
  return { x, ok: all ? null : ok };
}

/** A computed number Series with the labels and name of `like` (dtype inferred from its values, as Series.of does). */
function numResult(values: Float64Array, ok: Uint8Array | null, like: Series): Series {
  const read = ok ? (i: number) => (ok[i] ? values[i] : null) : (i: number) => values[i];
  const s = new Series(read, values.length, like.name, like.labels, null, null);
  s.view = { kind: 'num', type: 'number', values, valid: ok, rows: null };
  return s;
}

/**
 * `s op other` where `other` is a number (not NaN) or a number Series of the same length: a lazy
 * step (numberChain.ts); undefined otherwise.
 */
export function arithmeticNumbers(s: Series, other: unknown, op: BinaryOp): Series | undefined {
  if (typeof other === 'number') return other === other ? chainScalar(s, op, other) : undefined;
  if (!(other instanceof Series) || other.length !== s.length || !chainable(s)) return undefined;
  return chainColumn(s, op, other);
}

/**
 * `f(s[i], s[i - periods])` where both are present (diff, pct_change), or the value `periods`
 * positions back (shift, NaN kept); undefined unless `periods` is an integer.
 */
export function laggedNumbers(
  s: Series,
  periods: number,
  f: ((a: number, b: number) => number) | null,
): Series | undefined {
  if (!Number.isInteger(periods)) return undefined;
  const p = positional(s, f !== null);
  if (!p) return undefined;
  const { x, ok } = p;
  const n = x.length;
  const out = new Float64Array(n);
  const has = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const j = i - periods;
    if (j < 0 || j >= n || (ok && !ok[j])) continue;
    if (f === null) {
      out[i] = x[j]!;
      has[i] = 1;
    } else if (!ok || ok[i]) {
      out[i] = f(x[i]!, x[j]!);
      has[i] = 1;
    }
  }
  return numResult(out, has, s);
}

/**
 * apply/map's loop: `f` called once per position in order, with the number there or null where it
 * is missing (a NaN as NaN), each number result stored in `out`. Answers the count of NaN results
 * when every result is a number, with the results' sum in `sum[0]` (added in position order from
 * 0, as denseSum adds them); else, at the first result that is not one, puts it in `last[0]` and
 * answers -1 - its position (`f` not called past it). Two call sites, so the present values
 * reach an inlined `f` as unboxed doubles (one site fed null and numbers would box every value).
 * V8 compiles the loop while it runs; the one store after it has its feedback from the first call.
 */
type ApplyKernel = (
  f: (v: unknown) => unknown,
  x: Float64Array,
  ok: Uint8Array | null,
  out: Float64Array,
  n: number,
  last: unknown[],
  sum: Float64Array,
) => number;

const APPLY_KERNEL_BODY = `let nan = 0, t = 0;
  if (ok === null) {
    for (let i = 0; i < n; i++) {
      const r = f(x[i]);
      if (typeof r !== 'number') { last[0] = r; return -1 - i; }
      if (r !== r) nan++;
      out[i] = r;
      t += r;
    }
  } else {
    for (let i = 0; i < n; i++) {
      const r = ok[i] !== 0 ? f(x[i]) : f(null);
      if (typeof r !== 'number') { last[0] = r; return -1 - i; }
      if (r !== r) nan++;
      out[i] = r;
      t += r;
    }
  }
  sum[0] = t;
  return nan;`;

/**
 * The loop of apply/map, one compiled copy per source text of the function (each run makes new
 * closures: a copy shared by every function would see a new callee at every call and stop
 * inlining any; a copy per source text sees the closures of one expression, which V8 can inline
 * while they come from one place, e.g. the same code called in a loop). The copy only calls the
 * closure it is given, so its free variables are its own. At most KERNELS_KEPT sources (then the
 * map starts again); a source longer than KERNEL_KEY_CHARS shares one copy.
 */
const applyKernels = new SafeMap<string, ApplyKernel>();
/** The kernel's sum (read right after it returns: an apply inside `f` has written its own by then). */
const APPLY_SUM = new Float64Array(1);
const KERNELS_KEPT = 64;
const KERNEL_KEY_CHARS = 1024;

function applyKernel(f: (v: unknown) => unknown): ApplyKernel {
  let key = '';
  try {
    const text = ReflectApply(FunctionPrototypeToString, f, []) as string;
    if (text.length <= KERNEL_KEY_CHARS) key = text;
  } catch {
    // no source text to read (V8 throws for no function it is given; the shared copy then)
  }
  let kernel = applyKernels.get(key);
  if (kernel === undefined) {
    if (applyKernels.size >= KERNELS_KEPT) applyKernels.clear();
    kernel = NewFunction('f', 'x', 'ok', 'out', 'n', 'last', 'sum', APPLY_KERNEL_BODY) as ApplyKernel;
    applyKernels.set(key, kernel);
  }
  return kernel;
}

/**
 * `f(value)` for every value (null when missing, NaN as NaN: what the per-value path passes),
 * called once per position in order. When every result is a number the Series is typed;
 * otherwise it holds the results as they came (as Series.of over them).
 */
export function applyNumbers(s: Series, f: (v: unknown) => unknown): Series | undefined {
  const v = numView(s);
  if (!v) return undefined;
  // storage order: the column's own values and presence bytes (a position whose byte is 0 gets null)
  const p = v.rows ? positional(s, false) : { x: v.values, ok: v.valid };
  if (!p) return undefined;
  const { x, ok } = p;
  const n = x.length;
  const out = new Float64Array(n);
  const last: unknown[] = [undefined];
  const got = applyKernel(f)(f, x, ok, out, n, last, APPLY_SUM);
  if (got >= 0) {
    // no NaN among the results: they are their own present values (what packedPresent finds by a
    // scan), and their sum is the one denseSum would add
    if (got === 0) keepAllPresent(out, APPLY_SUM[0]!);
    return numResult(out, null, s);
  }
  // a result that is not a number: keep every result as it is (no call repeated)
  const i = -1 - got;
  const all = new Array<unknown>(n);
  for (let k = 0; k < i; k++) all[k] = out[k];
  all[i] = last[0];
  for (let k = i + 1; k < n; k++) all[k] = f(ok && !ok[k] ? null : x[k]);
  return Series.of(all, s.name, s.labels);
}

/** isna (`missing` 1) or notna (`missing` 0) as a byte mask from a number or dictionary view, or undefined. */
export function missingMask(s: Series, missing: 0 | 1): Series | undefined {
  const t = typedOf(s);
  // dates stay on the per-value path: an invalid Date there is a value, not a missing one
  if (!t || (t.kind !== 'num' && t.kind !== 'dict') || (t.kind === 'num' && t.type === 'date')) return undefined;
  const n = s.length;
  const flip = missing ^ 1;
  if (t.kind === 'dict') {
    const bits = new Uint8Array(n);
    const { codes, rows } = t;
    for (let i = 0; i < n; i++) bits[i] = +(codes[rows ? rows[i]! : i]! < 0) ^ flip;
    return Series.bools(bits, s);
  }
  const view = t;
  const { values, valid, rows } = view;
  const build = (): Uint8Array => {
    const out = new Uint8Array(n);
    if (!rows && valid !== null) {
      for (let i = 0; i < n; i++) {
        const a = values[i]!;
        out[i] = (+(valid[i] !== 0) & +(a === a)) ^ missing;
      }
      return out;
    }
    for (let i = 0; i < n; i++) {
      const r = rows ? rows[i]! : i;
      const a = values[r]!;
      out[i] = ((valid === null ? 1 : +(valid[r] !== 0)) & +(a === a)) ^ missing;
    }
    return out;
  };
  // storage order: the count of present values is the column's (kept for the session), so a count
  // of the mask reads no byte, and the bytes are built only when something reads them
  if (!rows) {
    const present = presentCount(view, n);
    return Series.lazyBools(build, missing ? n - present : present, s);
  }
  return Series.bools(build(), s);
}

/**
 * `map({ key: value })` on a dictionary column: each dictionary string looked up once (as the
 * per-value path looks up every row: an own key, else null), then the codes mapped. Typed when
 * every looked-up value is a number or null; otherwise an array of the same values. undefined
 * without a dictionary view or for an object that is not a plain one (a getter would run once per
 * string instead of once per row).
 */
export function mapCodes(s: Series, f: Record<string, unknown>): Series | undefined {
  const t = typedOf(s);
  if (!t || t.kind !== 'dict') return undefined;
  const proto = Object.getPrototypeOf(f) as unknown;
  if (proto !== Object.prototype && proto !== null) return undefined;
  if (Object.values(Object.getOwnPropertyDescriptors(f)).some((d) => d.get || d.set)) return undefined;
  const { codes, dict, rows } = t;
  const looked = dict.map((d) => (Object.hasOwn(f, d) ? f[d] : null));
  const n = s.length;
  if (looked.every((v) => v === null || typeof v === 'number')) {
    const num = new Float64Array(dict.length);
    const has = new Uint8Array(dict.length);
    looked.forEach((v, k) => {
      if (v !== null) {
        num[k] = v as number;
        has[k] = 1;
      }
    });
    const out = new Float64Array(n);
    const ok = new Uint8Array(n);
    for (let i = 0; i < n; i++) {
      const c = codes[rows ? rows[i]! : i]!;
      if (c >= 0 && has[c]) {
        out[i] = num[c]!;
        ok[i] = 1;
      }
    }
    return numResult(out, ok, s);
  }
  const out = new Array<unknown>(n);
  for (let i = 0; i < n; i++) {
    const c = codes[rows ? rows[i]! : i]!;
    out[i] = c < 0 ? null : looked[c];
  }
  return Series.of(out, s.name, s.labels);
}
