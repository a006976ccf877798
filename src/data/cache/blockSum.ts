import { searchMemory } from '../columns/simdBytes.js';

/**
 * The block checksum of cache format 3 (format.ts): 16 lanes of 32 bits, each taking one 4-byte
 * word of every 64 bytes as `s = (s ^ w) * P; s ^= s >>> 15` (both steps one-to-one, so a change
 * confined to one 16-byte vector of a block always changes its lane's state, and so the sum), the
 * lanes then mixed into one u32 with the length, the last `n % 64` bytes mixed in one by one. It
 * is computed 64 bytes a step with WebAssembly SIMD (four vectors of four lanes), in the search's
 * memory (simdBytes.ts) so bytes read there are checked where they are: ~4x the speed of
 * `zlib.crc32` on the 2-core VM of docs/benchmarks.md (session 20), where checking a page cost
 * more than searching it. {@link blockSumPlain} is the same sum in plain JavaScript (no SIMD).
 */

const P = 0x9e3779b1 | 0;
const P_MIX = 0x85ebca6b | 0;
const P_TAIL = 0xc2b2ae35 | 0;
/** Each vector's lanes start at its seed. */
const SEEDS = [0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344].map((s) => s | 0);

/** Signed LEB128 (i32.const immediates). */
function sleb(n: number): number[] {
  const out: number[] = [];
  for (;;) {
    const b = n & 0x7f;
    n >>= 7;
    if ((n === 0 && !(b & 0x40)) || (n === -1 && b & 0x40)) return [...out, b];
    out.push(b | 0x80);
  }
}
const leb = (n: number): number[] => (n < 0x80 ? [n] : [0x80 | (n & 0x7f), ...leb(n >>> 7)]);
const get = (i: number): number[] => [0x20, i];
const set = (i: number): number[] => [0x21, i];
const tee = (i: number): number[] => [0x22, i];
const i32 = (n: number): number[] => [0x41, ...sleb(n)];
const V = (...code: number[]): number[] => [0xfd, ...code];
const V_XOR = V(0x51);
const V_MUL32 = V(0xb5, 0x01);
const V_SHR32 = V(0xad, 0x01);
const V_SPLAT32 = V(0x11);
const I32_XOR = 0x73;
const I32_MUL = 0x6c;
const I32_SHR = 0x76;

// sum(at, n) -> the lanes over bytes [at, at + (n & ~63)) mixed with n; params $at 0, $n 1;
// locals $end 2, $h 3 (i32), $v0..$v3 4-7, $p 8 (v128)
const SUM = [
  2,
  2,
  0x7f,
  5,
  0x7b,
  ...[...i32(P), ...V_SPLAT32, ...set(8)],
  ...SEEDS.flatMap((s, a) => [...i32(s), ...V_SPLAT32, ...set(4 + a)]),
  ...[...get(0), ...get(1), ...i32(-64), 0x71, 0x6a, ...set(2)], // end = at + (n & ~63)
  ...[0x02, 0x40, 0x03, 0x40],
  ...[...get(0), ...get(2), 0x4f, 0x0d, 1], // at >= end (unsigned): done
  ...[0, 1, 2, 3].flatMap((a) => [
    ...[...get(4 + a), ...get(0), ...V(0x00), 0, 16 * a, ...V_XOR, ...get(8), ...V_MUL32, ...tee(4 + a)],
    ...[...get(4 + a), ...i32(15), ...V_SHR32, ...V_XOR, ...set(4 + a)],
  ]),
  ...[...get(0), ...i32(64), 0x6a, ...set(0), 0x0c, 0],
  ...[0x0b, 0x0b],
  ...get(1),
  ...set(3),
  ...[0, 1, 2, 3].flatMap((a) =>
    [0, 1, 2, 3].flatMap((l) => [
      ...[...get(3), ...get(4 + a), ...V(0x1b, l), I32_XOR, ...i32(P_MIX), I32_MUL, ...tee(3)],
      ...[...get(3), ...i32(16), I32_SHR, I32_XOR, ...set(3)],
    ]),
  ),
  ...get(3),
  0x0b,
];

const section = (id: number, content: number[]): number[] => [id, ...leb(content.length), ...content];
const name = (s: string): number[] => [s.length, ...Array.from(s, (c) => c.charCodeAt(0))];
const MODULE = new Uint8Array([
  ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
  ...section(1, [1, 0x60, 2, 0x7f, 0x7f, 1, 0x7f]), // (i32, i32) -> i32
  ...section(2, [1, ...name('m'), ...name('memory'), 0x02, 0x00, 1]), // the search's memory
  ...section(3, [1, 0]),
  ...section(7, [1, ...name('sum'), 0x00, 0]),
  ...section(10, [1, ...leb(SUM.length), ...SUM]),
]);

let simd: { memory: WebAssembly.Memory; sum: (at: number, n: number) => number } | null | undefined;

function instance(): typeof simd {
  if (simd === undefined) {
    const memory = searchMemory();
    try {
      simd = memory
        ? {
            memory,
            sum: new WebAssembly.Instance(new WebAssembly.Module(MODULE), { m: { memory } }).exports.sum as (
              at: number,
              n: number,
            ) => number,
          }
        : null;
    } catch {
      simd = null; // no WebAssembly SIMD here: the plain sum
    }
  }
  return simd;
}

/** Bytes copied into the search memory at a time to be summed there (bytes that are not in it already). */
const COPY_BYTES = 1024 * 1024;

/** The last `n % 64` bytes mixed into the lanes' sum, one by one. */
function tail(h: number, bytes: Uint8Array): number {
  for (let i = bytes.length & ~63; i < bytes.length; i++) {
    h = Math.imul(h ^ bytes[i]!, P_TAIL);
    h ^= h >>> 13;
  }
  return h >>> 0;
}

/**
 * The format-3 checksum of one block (any length; a cache's blocks are BLOCK_BYTES but a buffer's
 * last). Bytes in the search memory (simdBytes.ts searchArea) are summed where they are; others are
 * copied into it first (which overwrites what a searchArea view held).
 * @example blockSum(new Uint8Array(65536)) === blockSumPlain(new Uint8Array(65536)) // true
 */
export function blockSum(bytes: Uint8Array): number {
  const m = instance();
  if (!m) return blockSumPlain(bytes);
  const n = bytes.length;
  const main = n & ~63;
  if (bytes.buffer === m.memory.buffer) return tail(m.sum(bytes.byteOffset, n), bytes);
  if (main > COPY_BYTES || m.memory.buffer.byteLength < main) return blockSumPlain(bytes);
  new Uint8Array(m.memory.buffer, 0, main).set(bytes.subarray(0, main));
  return tail(m.sum(0, n), bytes);
}

/** {@link blockSum} in plain JavaScript: the same value, 16 lanes of one 4-byte word each per 64 bytes. */
export function blockSumPlain(bytes: Uint8Array): number {
  const n = bytes.length;
  const lanes = Int32Array.from({ length: 16 }, (_, j) => SEEDS[j >> 2]!);
  for (let o = 0; o + 64 <= n; o += 64)
    for (let j = 0; j < 16; j++) {
      const at = o + 4 * j;
      const w = bytes[at]! | (bytes[at + 1]! << 8) | (bytes[at + 2]! << 16) | (bytes[at + 3]! << 24);
      const x = Math.imul(lanes[j]! ^ w, P);
      lanes[j] = x ^ (x >>> 15);
    }
  let h = n | 0;
  for (let j = 0; j < 16; j++) {
    h = Math.imul(h ^ lanes[j]!, P_MIX);
    h ^= h >>> 16;
  }
  return tail(h, bytes);
}
