import type { LeafPlan } from './leafPlan.js';
import { NeedsFallback, PageCorrupt } from './pageErrors.js';

const SAFE = Number.MAX_SAFE_INTEGER;
const TWO32 = 2 ** 32;

/**
 * `n` PLAIN values of a numeric column from `buf[pos, end)`, converted to transfer numbers:
 * floats as they are, DATE days -> ms, TIMESTAMP(ms|us|ns) -> ms truncated toward zero (as
 * `bigint / 1000n` does), UINT_32/UINT_64 unsigned. An INT64 'integer' beyond +-(2^53 - 1)
 * cannot be a float64 without loss: NeedsFallback, and the hyparquet path turns the column into
 * exact decimal strings. Returns the values and the position after them.
 * @throws {PageCorrupt} when the page holds fewer than `n` values. {NeedsFallback} see above.
 * @example plainNumbers(page, 0, page.length, 100, plan, 'integer')
 */
export function plainNumbers(
  buf: Uint8Array,
  pos: number,
  end: number,
  n: number,
  plan: LeafPlan,
  integer: boolean,
): { values: Float64Array; pos: number } {
  const width = plan.physical === 'INT64' || plan.physical === 'DOUBLE' ? 8 : 4;
  if (!(n >= 0) || pos + n * width > end || end > buf.length)
    throw new PageCorrupt(`${n} values of ${width} bytes do not fit in the ${end - pos} bytes left in the page`);
  // one aligned copy of the bytes, then typed views (no DataView call per value); Uint8Array's
  // slice, which copies, even for a Node Buffer (whose own slice is a view of the same memory)
  const raw = Uint8Array.prototype.slice.call(buf, pos, pos + n * width).buffer;
  const values = new Float64Array(n);
  switch (plan.physical) {
    case 'DOUBLE':
      values.set(new Float64Array(raw));
      break;
    case 'FLOAT':
      values.set(new Float32Array(raw));
      break;
    case 'INT32':
      if (plan.conversion === 'uint32') values.set(new Uint32Array(raw));
      else values.set(new Int32Array(raw));
      if (plan.conversion === 'days') for (let i = 0; i < n; i++) values[i] *= 86_400_000;
      break;
    default:
      int64s(new Uint32Array(raw), values, plan, integer);
  }
  return { values, pos: pos + n * width };
}

function int64s(words: Uint32Array, out: Float64Array, plan: LeafPlan, integer: boolean): void {
  const unsigned = plan.conversion === 'uint64';
  const divisor = plan.conversion === 'us' ? 1000 : plan.conversion === 'ns' ? 1_000_000 : 1;
  for (let i = 0; i < out.length; i++) {
    const lo = words[2 * i];
    const hiWord = words[2 * i + 1];
    const hi = unsigned ? hiWord : hiWord | 0;
    let v = hi * TWO32 + lo; // exact while |hi| < 2^21
    if (hi >= 2 ** 21 || hi < -(2 ** 21) || v > SAFE || v < -SAFE) {
      if (integer) throw new NeedsFallback('an INT64 beyond 2^53');
      const big = unsigned
        ? (BigInt(hiWord) << 32n) | BigInt(lo)
        : BigInt.asIntN(64, (BigInt(hiWord) << 32n) | BigInt(lo));
      out[i] = Number(divisor === 1 ? big : big / BigInt(divisor));
      continue;
    }
    // exact truncating division: v - v % d is a representable multiple of d
    if (divisor !== 1) v = (v - (v % divisor)) / divisor;
    out[i] = v;
  }
}
