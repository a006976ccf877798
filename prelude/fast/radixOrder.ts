/**
 * A stable order of float64 keys without a comparator: a least-significant-digit radix sort (four
 * 16-bit passes) over the keys' bits made order-preserving as unsigned integers (sign flipped,
 * negatives inverted; -0 taken as 0, which `a - b` treats as equal). A pass whose digit is the same
 * for every key is skipped (integers held as doubles leave the low mantissa bits empty). Used by
 * the Series and table sorts (stableOrder.ts) and by the sorts user code writes by hand (handSort.ts).
 */

const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
const PASSES = [
  [0, 0],
  [0, 16],
  [1, 0],
  [1, 16],
] as const;

/**
 * The positions 0..n-1 of `keys` (no NaN among them) sorted by key, ascending or descending, equal
 * keys in position order (a stable sort).
 * @example radixOrder(Float64Array.of(3, -0, 1, 0), true) // Uint32Array [1, 3, 2, 0]
 */
export function radixOrder(keys: Float64Array, ascending: boolean): Uint32Array {
  const m = keys.length;
  const hi = new Uint32Array(m);
  const lo = new Uint32Array(m);
  splitKeys(keys, ascending, hi, lo);
  let idx = new Uint32Array(m);
  identity(idx);
  if (m < 2) return idx;
  let tmp = new Uint32Array(m);
  const count = new Uint32Array(65537);
  for (const [w, shift] of PASSES) {
    const words = w === 0 ? lo : hi;
    count.fill(0);
    countDigits(words, shift, count);
    if (count[((words[0]! >>> shift) & 0xffff) + 1] === m) continue; // every key has this digit
    prefixSums(count);
    scatter(idx, words, shift, count, tmp);
    const t = idx;
    idx = tmp;
    tmp = t;
  }
  return idx;
}

// Each loop over the keys ends its function (docs/architecture.md, "Inside the prelude"): with code
// after it, V8 threw its compile away on every call (sort_values of 219,590 amounts).

/** hi[k], lo[k]: the order-preserving unsigned words of keys[k] (-0 as 0), complemented for descending. */
function splitKeys(keys: Float64Array, ascending: boolean, hi: Uint32Array, lo: Uint32Array): void {
  const f = new Float64Array(1);
  const u = new Uint32Array(f.buffer);
  const H = LITTLE_ENDIAN ? 1 : 0;
  for (let k = 0; k < keys.length; k++) {
    const x = keys[k]!;
    f[0] = x === 0 ? 0 : x;
    let h = u[H]!;
    let l = u[1 - H]!;
    if (h & 0x80000000) {
      h = ~h;
      l = ~l;
    } else h ^= 0x80000000;
    // descending: the complement orders keys the other way while equal keys keep their positions
    if (!ascending) {
      h = ~h;
      l = ~l;
    }
    hi[k] = h >>> 0;
    lo[k] = l >>> 0;
  }
}

function identity(idx: Uint32Array): void {
  for (let k = 0; k < idx.length; k++) idx[k] = k;
}

/** count[digit + 1] = how many words have that 16-bit digit at `shift`. */
function countDigits(words: Uint32Array, shift: number, count: Uint32Array): void {
  for (let k = 0; k < words.length; k++) count[((words[k]! >>> shift) & 0xffff) + 1]++;
}

function prefixSums(count: Uint32Array): void {
  for (let d = 0; d < 65536; d++) count[d + 1] += count[d]!;
}

/** The positions of `idx` placed by their digit into `tmp`, in `idx` order within a digit (stable). */
function scatter(idx: Uint32Array, words: Uint32Array, shift: number, count: Uint32Array, tmp: Uint32Array): void {
  for (let j = 0; j < idx.length; j++) {
    const k = idx[j]!;
    tmp[count[(words[k]! >>> shift) & 0xffff]!++] = k;
  }
}
