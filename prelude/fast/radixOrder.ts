/**
 * A stable order of float64 keys without a comparator: a least-significant-digit radix sort (four
 * 16-bit passes) over the keys' bits made order-preserving as unsigned integers (sign flipped,
 * negatives inverted; -0 taken as 0, which `a - b` treats as equal). A pass whose digit is the same
 * for every key is skipped (integers held as doubles leave the low mantissa bits empty). Used by
 * Series sorts (series/fastOrder.ts) and by the sorts user code writes by hand (handSort.ts).
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
  const f = new Float64Array(1);
  const u = new Uint32Array(f.buffer);
  const H = LITTLE_ENDIAN ? 1 : 0;
  for (let k = 0; k < m; k++) {
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
  let idx = new Uint32Array(m);
  for (let k = 0; k < m; k++) idx[k] = k;
  if (m < 2) return idx;
  let tmp = new Uint32Array(m);
  const count = new Uint32Array(65537);
  for (const [w, shift] of PASSES) {
    const words = w === 0 ? lo : hi;
    for (let d = 0; d <= 65536; d++) count[d] = 0;
    for (let k = 0; k < m; k++) count[((words[k]! >>> shift) & 0xffff) + 1]++;
    if (count[((words[0]! >>> shift) & 0xffff) + 1] === m) continue; // every key has this digit
    for (let d = 0; d < 65536; d++) count[d + 1] += count[d]!;
    for (let j = 0; j < m; j++) {
      const k = idx[j]!;
      tmp[count[(words[k]! >>> shift) & 0xffff]!++] = k;
    }
    const t = idx;
    idx = tmp;
    tmp = t;
  }
  return idx;
}
