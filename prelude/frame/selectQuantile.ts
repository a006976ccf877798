/**
 * Quantiles by selection instead of a full sort: the k-th smallest of a Float64Array found by
 * counting the values' leading bits (a histogram of the top 16 bits of an order-preserving key,
 * then of the next 16 inside the bucket that holds k), then sorting only the values left in that
 * bucket. The answers are those of sorting a Float64Array and interpolating (quantileSorted): the
 * key orders doubles exactly as a typed sort does, -0 before 0 included.
 */
import { keptRanks } from '../fast/presentValues.js';

/** Below this many values a typed sort is as fast. */
const SMALL = 64;
/** A bucket of at most this many values is sorted; a larger one is split by the next 16 bits. */
const SORT_BUCKET = 4096;

/** The order-preserving key of a double's high word (sign flipped for positives, all bits for negatives), unsigned. */
const keyHi = (hi: number) => (hi ^ ((hi >> 31) | 0x80000000)) >>> 0;

/**
 * The k-th smallest values for each k in `ks` (ascending), by histogram: one counting pass per
 * level, one gathering pass per distinct bucket. The values may not hold NaN.
 */
export function kthValues(xs: Float64Array, ks: readonly number[]): Map<number, number> {
  // a column's kept packed values: the ranks selected before in the session
  const ranks = keptRanks(xs);
  if (ranks && ks.every((k) => ranks.has(k))) return new Map(ks.map((k) => [k, ranks.get(k)!]));
  const out = selectKth(xs, ks);
  if (ranks) for (const [k, v] of out) ranks.set(k, v);
  return out;
}

function selectKth(xs: Float64Array, ks: readonly number[]): Map<number, number> {
  const n = xs.length;
  const words = new Uint32Array(xs.buffer, xs.byteOffset, n * 2);
  const top = new Int32Array(65537);
  countTop(words, n, top);
  prefixSums(top);
  const out = new Map<number, number>();
  const sorted = new Map<number, Float64Array>(); // bucket -> its values sorted (by top bits, or `b << 16 | sub`)
  for (const k of ks) {
    if (out.has(k)) continue;
    let b = 0;
    while (top[b + 1]! <= k) b++; // the bucket whose range of ranks holds k (ranks top[b] .. top[b+1]-1)
    let rank = k - top[b]!;
    let id = b;
    const size = top[b + 1]! - top[b]!;
    let vals = sorted.get(id);
    if (!vals) {
      let part = new Float64Array(size);
      gatherTop(words, xs, n, b, part);
      if (size > SORT_BUCKET) {
        // split by the next 16 bits of the high word
        const pw = new Uint32Array(part.buffer, part.byteOffset, size * 2);
        const sub = new Int32Array(65537);
        countNext(pw, size, sub);
        prefixSums(sub);
        let c = 0;
        while (sub[c + 1]! <= rank) c++;
        const inner = new Float64Array(sub[c + 1]! - sub[c]!);
        gatherNext(pw, part, size, c, inner);
        rank -= sub[c]!;
        id = 65536 + b * 65536 + c;
        part = inner;
      }
      vals = part.sort();
      sorted.set(id, vals);
    }
    out.set(k, vals[rank]!);
  }
  return out;
}

// The passes over the values are functions that end with their loop: V8 compiles a long loop while
// it runs (on-stack replacement) before the code after it has ever run, and that code, reached,
// throws the compiled loop away again on every later call (Node 20).

/** top[bucket + 1] = how many values have that top-16-bit key. */
function countTop(words: Uint32Array, n: number, top: Int32Array): void {
  for (let i = 0; i < n; i++) top[(keyHi(words[2 * i + 1]!) >>> 16) + 1]++;
}

/** counts[b + 1] += counts[b] over the 65,536 buckets: each bucket's first rank. */
function prefixSums(counts: Int32Array): void {
  for (let b = 0; b < 65536; b++) counts[b + 1] += counts[b]!;
}

/** The values of top bucket `b`, in order, into `part`. */
function gatherTop(words: Uint32Array, xs: Float64Array, n: number, b: number, part: Float64Array): void {
  let m = 0;
  for (let i = 0; i < n; i++) if (keyHi(words[2 * i + 1]!) >>> 16 === b) part[m++] = xs[i]!;
}

/** sub[c + 1] = how many values of a bucket have the next 16 bits `c`. */
function countNext(pw: Uint32Array, size: number, sub: Int32Array): void {
  for (let i = 0; i < size; i++) sub[(keyHi(pw[2 * i + 1]!) & 0xffff) + 1]++;
}

/** The values of a bucket whose next 16 bits are `c`, in order, into `inner`. */
function gatherNext(pw: Uint32Array, part: Float64Array, size: number, c: number, inner: Float64Array): void {
  let m = 0;
  for (let i = 0; i < size; i++) if ((keyHi(pw[2 * i + 1]!) & 0xffff) === c) inner[m++] = part[i]!;
}

/**
 * The linear-interpolated quantiles `qs` (each 0..1) of the numbers in `xs` (no NaN), as
 * quantileSorted would give them over the sorted values; `xs` is only read (a column's own shared
 * values may be passed). null for each when `xs` is empty.
 */
export function selectQuantiles(xs: Float64Array, qs: readonly number[]): (number | null)[] {
  const n = xs.length;
  if (!n) return qs.map(() => null);
  if (n < SMALL) {
    const ys = xs.slice().sort();
    return qs.map((q) => interpolate(ys[Math.floor((n - 1) * q)]!, ys[Math.ceil((n - 1) * q)]!, (n - 1) * q));
  }
  const ks = new Set<number>();
  for (const q of qs) {
    ks.add(Math.floor((n - 1) * q));
    ks.add(Math.ceil((n - 1) * q));
  }
  const at = kthValues(
    xs,
    [...ks].sort((a, b) => a - b),
  );
  return qs.map((q) => {
    const pos = (n - 1) * q;
    return interpolate(at.get(Math.floor(pos))!, at.get(Math.ceil(pos))!, pos);
  });
}

/** quantileSorted's formula for the values at floor(pos) and ceil(pos). */
function interpolate(a: number, b: number, pos: number): number {
  const lo = Math.floor(pos);
  return lo === Math.ceil(pos) ? a : a + (b - a) * (pos - lo);
}
