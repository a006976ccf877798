/**
 * Two byte routines for textScan in a small WebAssembly module with 128-bit SIMD, built here from
 * its instructions (no binary file to trust), over one reused memory:
 * - `fold(at, n)`: ASCII case folding in place (`A`-`Z` to `a`-`z`, every other byte kept), 16
 *   bytes a step, where a RegExp `i` flag compares character by character;
 * - `find(at, n, needle, k, out, cap, from)`: every start position of a k-byte needle in
 *   memory[at, at + n), ascending, from `from`, at most `cap` of them written to `out` (the count
 *   is returned; a full `out` means "call again after the last one"). Sixteen candidate positions
 *   are tested a step by comparing two of their bytes with the needle's (W. Muła's SIMD substring
 *   search; the needle's two rarest bytes in English text, so fewer positions pass), sixty-four a
 *   step while none passes, then every byte of a candidate; `Buffer.indexOf` spends most of its
 *   time on a call per hit and a `memchr` per occurrence of the needle's first byte.
 */

const op = {
  block: 0x02,
  loop: 0x03,
  if: 0x04,
  end: 0x0b,
  br: 0x0c,
  brIf: 0x0d,
  return: 0x0f,
  localGet: 0x20,
  localSet: 0x21,
  localTee: 0x22,
  load8u: 0x2d,
  store32: 0x36,
  i32Const: 0x41,
  eqz: 0x45,
  ne: 0x47,
  ltU: 0x49,
  gtU: 0x4b,
  geU: 0x4f,
  ctz: 0x68,
  add: 0x6a,
  sub: 0x6b,
  mul: 0x6c,
  and: 0x71,
  void: 0x40,
  simd: 0xfd,
} as const;
/** SIMD opcodes (after the 0xfd prefix; all below 0x80, so one LEB128 byte each). */
const simd = {
  load: 0x00,
  store: 0x0b,
  const: 0x0c,
  splat8: 0x0f,
  eq8: 0x23,
  ltU8: 0x26,
  and: 0x4e,
  or: 0x50,
  anyTrue: 0x53,
  bitmask8: 0x64,
  sub8: 0x71,
} as const;
const splat = (byte: number): number[] => [op.simd, simd.const, ...new Array<number>(16).fill(byte)];
const v = (code: number): number[] => [op.simd, code];
const get = (i: number): number[] => [op.localGet, i];
const set = (i: number): number[] => [op.localSet, i];
const i32 = (n: number): number[] => (n < 64 ? [op.i32Const, n] : [op.i32Const, 0x80 | (n & 0x7f), n >> 7]); // 0..8191: signed LEB128
const byteMem = [0, 0]; // alignment hint 1, offset 0
const wordMem = [2, 0]; // alignment hint 4, offset 0
const I32 = 0x7f;
const V128 = 0x7b;

// fold: (param $at i32) (param $n i32) (local $end i32) (local $v v128)
//   $end = $at + $n; while $at < $end: store($at, $v | (($v - 'A') <u 26) & 0x20); $at += 16
const FOLD = [
  2,
  1,
  I32,
  1,
  V128,
  ...get(0),
  ...get(1),
  op.add,
  ...set(2),
  ...[op.block, op.void, op.loop, op.void],
  ...get(0),
  ...get(2),
  op.geU,
  op.brIf,
  1,
  ...get(0), // the store's address
  ...get(0),
  ...v(simd.load),
  ...byteMem,
  op.localTee,
  3,
  ...splat(0x41),
  ...v(simd.sub8),
  ...splat(26),
  ...v(simd.ltU8),
  ...splat(0x20),
  ...v(simd.and),
  ...get(3),
  ...v(simd.or),
  ...v(simd.store),
  ...byteMem,
  ...get(0),
  ...i32(16),
  op.add,
  ...set(0),
  op.br,
  0,
  ...[op.end, op.end, op.end],
];

// find: params $at 0, $n 1, $needle 2, $k 3, $out 4, $cap 5, $from 6 (the position tested next),
// $i1 7, $i2 8 (the two needle bytes the filter tests: its rarest, rareFilter); locals $end 9
// (positions < $end can start a hit: n - k + 1), $m 10 (candidate bits), $pos 11, $j 12, $ok 13,
// $cnt 14, $p 15, $q 16 (where the filter loads), $first 17 (v128), $last 18 (v128). The caller
// ensures 1 <= k <= n, i1, i2 < k, and 16 readable bytes past the data.
const [AT, N, NEEDLE, K, OUT, CAP, FROM, I1, I2, END, M, POS, J, OK, CNT, P, Q, FIRST, LAST] = Array.from(
  { length: 19 },
  (_, i) => i,
);
/** Positions the filter clears a step while none of them is a candidate (four 16-byte loads a side). */
const SKIP = 64;
/** The filter's compare of 16 positions from the addresses in $p and $q plus `offset` (0-48). */
const candidates = (offset: number): number[] => [
  ...[...get(P), ...v(simd.load), 0, offset, ...get(FIRST), ...v(simd.eq8)],
  ...[...get(Q), ...v(simd.load), 0, offset, ...get(LAST), ...v(simd.eq8), ...v(simd.and)],
];
const FIND = [
  2,
  8,
  I32,
  2,
  V128,
  ...[...get(N), ...get(K), op.sub, ...i32(1), op.add, ...set(END)],
  ...[...get(NEEDLE), ...get(I1), op.add, op.load8u, ...byteMem, ...v(simd.splat8), ...set(FIRST)],
  ...[...get(NEEDLE), ...get(I2), op.add, op.load8u, ...byteMem, ...v(simd.splat8), ...set(LAST)],
  ...[op.block, op.void, op.loop, op.void], // $done, $blocks
  // while 64 positions from $from can all start a hit and none is a candidate, skip them
  ...[op.block, op.void, op.loop, op.void], // $slow, $skip
  ...[...get(FROM), ...i32(SKIP), op.add, ...get(END), op.gtU, op.brIf, 1],
  ...[...get(AT), ...get(FROM), op.add, ...get(I1), op.add, ...set(P)],
  ...[...get(P), ...get(I2), op.add, ...get(I1), op.sub, ...set(Q)],
  ...candidates(0),
  ...candidates(16),
  ...v(simd.or),
  ...candidates(32),
  ...v(simd.or),
  ...candidates(48),
  ...v(simd.or),
  ...[...v(simd.anyTrue), op.brIf, 1],
  ...[...get(FROM), ...i32(SKIP), op.add, ...set(FROM), op.br, 0],
  ...[op.end, op.end],
  ...[...get(FROM), ...get(END), op.geU, op.brIf, 1],
  // m = bitmask((load(at + from + i1) == first) & (load(at + from + i2) == last))
  ...[...get(AT), ...get(FROM), op.add, ...get(I1), op.add, ...v(simd.load), ...byteMem, ...get(FIRST), ...v(simd.eq8)],
  ...[...get(AT), ...get(FROM), op.add, ...get(I2), op.add, ...v(simd.load), ...byteMem],
  ...[...get(LAST), ...v(simd.eq8), ...v(simd.and), ...v(simd.bitmask8), ...set(M)],
  ...[op.block, op.void, op.loop, op.void], // $next, $bits
  ...[...get(M), op.eqz, op.brIf, 1],
  ...[...get(FROM), ...get(M), op.ctz, op.add, ...set(POS)],
  ...[...get(M), ...get(M), ...i32(1), op.sub, op.and, ...set(M)],
  ...[...get(POS), ...get(END), op.ltU, op.if, op.void],
  ...[...i32(0), ...set(J), ...i32(1), ...set(OK)],
  ...[op.block, op.void, op.loop, op.void], // $cmpdone, $cmp: every byte of the needle
  ...[...get(J), ...get(K), op.geU, op.brIf, 1],
  ...[...get(AT), ...get(POS), op.add, ...get(J), op.add, op.load8u, ...byteMem],
  ...[...get(NEEDLE), ...get(J), op.add, op.load8u, ...byteMem, op.ne],
  ...[op.if, op.void, ...i32(0), ...set(OK), op.br, 2, op.end],
  ...[...get(J), ...i32(1), op.add, ...set(J), op.br, 0],
  ...[op.end, op.end],
  ...[...get(OK), op.if, op.void],
  ...[...get(OUT), ...get(CNT), ...i32(4), op.mul, op.add, ...get(POS), op.store32, ...wordMem],
  ...[...get(CNT), ...i32(1), op.add, op.localTee, CNT, ...get(CAP), op.geU],
  ...[op.if, op.void, ...get(CNT), op.return, op.end],
  ...[op.end], // if ok
  ...[op.end], // if pos < end
  ...[op.br, 0, op.end, op.end], // next candidate bit; end $bits, $next
  ...[...get(FROM), ...i32(16), op.add, ...set(FROM), op.br, 0],
  ...[op.end, op.end],
  ...get(CNT),
  op.end,
];

/**
 * Bytes by how often they occur in English prose, most often first (space, then letters by their
 * frequency, then the common punctuation); any other byte counts as rarer than all of them.
 */
const COMMON_BYTES = ' etaoinsrhldcumfpgwybv,.kETASIONRHLDCUMFPGWYBV-0123456789x()jqz;:/';
const byteRank = new Uint8Array(256).fill(COMMON_BYTES.length);
for (let i = 0; i < COMMON_BYTES.length; i++) byteRank[COMMON_BYTES.charCodeAt(i)] = i;

/**
 * The two positions of `needle` whose bytes find's filter tests (ascending; both 0 for one byte):
 * the rarest two by byteRank, so fewer text positions pass the filter and need a full compare.
 * Any two positions give the same hits (every candidate is compared byte by byte); this only
 * changes how many candidates there are.
 */
function rareFilter(needle: Uint8Array): [number, number] {
  if (needle.length < 2) return [0, 0];
  let a = 0;
  let b = 1;
  if (byteRank[needle[b]!]! > byteRank[needle[a]!]!) [a, b] = [b, a];
  // a is the rarest so far, b the second rarest
  for (let i = 2; i < needle.length; i++) {
    const r = byteRank[needle[i]!]!;
    if (r > byteRank[needle[a]!]!) [a, b] = [i, a];
    else if (r > byteRank[needle[b]!]!) b = i;
  }
  return a < b ? [a, b] : [b, a];
}

/** Unsigned LEB128. */
function leb(n: number): number[] {
  const out: number[] = [];
  do {
    let b = n & 0x7f;
    n >>>= 7;
    if (n) b |= 0x80;
    out.push(b);
  } while (n);
  return out;
}
const section = (id: number, content: number[]): number[] => [id, ...leb(content.length), ...content];
const name = (s: string): number[] => [s.length, ...Array.from(s, (c) => c.charCodeAt(0))];
const body = (code: number[]): number[] => [...leb(code.length), ...code];

const MODULE = new Uint8Array([
  ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00], // "\0asm", version 1
  // type 0: (i32, i32) -> (); type 1: (i32 x9) -> i32
  ...section(1, [2, 0x60, 2, I32, I32, 0, 0x60, 9, ...new Array<number>(9).fill(I32), 1, I32]),
  ...section(3, [2, 0, 1]), // fold: type 0, find: type 1
  ...section(5, [1, 0x00, 1]), // one memory, at least one 64 KiB page
  ...section(7, [3, ...name('memory'), 0x02, 0, ...name('fold'), 0x00, 0, ...name('find'), 0x00, 1]),
  ...section(10, [2, ...body(FOLD), ...body(FIND)]),
]);

const WASM_PAGE = 65536;
/** Positions `find` writes per call before the caller reads them. */
const FIND_CAP = 16384;

interface Simd {
  memory: WebAssembly.Memory;
  fold(at: number, n: number): void;
  find(
    at: number,
    n: number,
    needle: number,
    k: number,
    out: number,
    cap: number,
    from: number,
    i1: number,
    i2: number,
  ): number;
}

let module: Simd | null | undefined;

function instance(): Simd | null {
  if (module === undefined) {
    try {
      const exports = new WebAssembly.Instance(new WebAssembly.Module(MODULE)).exports;
      module = {
        memory: exports.memory as WebAssembly.Memory,
        fold: exports.fold as Simd['fold'],
        find: exports.find as Simd['find'],
      };
    } catch {
      module = null; // no WebAssembly SIMD here: the caller searches another way
    }
  }
  return module;
}

/**
 * The search's memory, for a module that works on bytes read into it (the cache's block sums,
 * cache/blockSum.ts); null when WebAssembly SIMD is unavailable.
 */
export function searchMemory(): WebAssembly.Memory | null {
  return instance()?.memory ?? null;
}

/** Grows the memory to `bytes`; false when it cannot. */
function reserve(m: Simd, bytes: number): boolean {
  const have = m.memory.buffer.byteLength;
  if (bytes <= have) return true;
  try {
    m.memory.grow(Math.ceil((bytes - have) / WASM_PAGE));
    return true;
  } catch {
    return false;
  }
}

const align16 = (n: number): number => Math.ceil(n / 16) * 16;

/**
 * `bytes` with ASCII upper-case letters lowercased, as a Buffer over the module's memory (valid until
 * the next call: the memory is reused). Bytes 0x80-0xff are kept, so the positions and every
 * non-ASCII byte of UTF-8 text stay as they were. Null when WebAssembly SIMD is unavailable or the
 * memory cannot grow to `bytes.length`.
 * @example foldAscii(Buffer.from('Digital TWIN')).toString() // 'digital twin'
 */
export function foldAscii(bytes: Uint8Array): Buffer | null {
  const m = instance();
  if (!m || !reserve(m, align16(bytes.length) + 16)) return null;
  new Uint8Array(m.memory.buffer, 0, bytes.length).set(bytes);
  m.fold(0, bytes.length);
  return Buffer.from(m.memory.buffer, 0, bytes.length);
}

/** Room kept past a searchArea for byteSearch's needle (up to this many bytes) and its positions. */
const AREA_SLACK = 16 + 4096 + 16 + FIND_CAP * 4;

/**
 * A view of the first `n` bytes of the module's memory, for a caller that reads its data straight
 * into it: byteSearch of a view of it then searches (and with `fold`, lowercases) the bytes where
 * they are instead of copying them in. The view is valid until the next searchArea, foldAscii or
 * byteSearch (the memory may grow, which leaves older views empty). Null when WebAssembly SIMD is
 * unavailable or the memory cannot grow.
 * @example const area = searchArea(65536); if (area) readSync(fd, area, 0, 65536, 0);
 */
export function searchArea(n: number): Uint8Array | null {
  const m = instance();
  if (!m || !reserve(m, align16(n) + AREA_SLACK)) return null;
  return new Uint8Array(m.memory.buffer, 0, n);
}

/**
 * A search for `needle` in `bytes` (with A-Z lowercased first when `fold`; the needle must then be
 * lower-case already): `next(from)` is the first start position at or after `from`, or -1. The
 * positions are found in batches by the SIMD routine and read in order, so a scan that asks for
 * ascending positions (textScan's markHits) makes one WebAssembly call per 16,384 hits. The search
 * uses the module's memory: it is valid until the next foldAscii or byteSearch. A view of the
 * memory (searchArea) is searched in place, and with `fold` lowercased in place. Null when
 * WebAssembly SIMD is unavailable, the memory cannot grow, or the needle is empty.
 * @example byteSearch(Buffer.from('a Laser, a laser'), Buffer.from('laser'), true)!.next(0) // 2
 */
export function byteSearch(
  bytes: Uint8Array,
  needle: Uint8Array,
  fold: boolean,
): { next(from: number): number } | null {
  const m = instance();
  const n = bytes.length;
  const k = needle.length;
  if (!m || k === 0) return null;
  // bytes read straight into the module's memory (searchArea) are searched where they are
  const inPlace = bytes.buffer === m.memory.buffer;
  const at = inPlace ? bytes.byteOffset : 0;
  const needleAt = align16(at + n) + 16;
  const outAt = align16(needleAt + k);
  // growing keeps the memory's contents (bytes already in it stay where they are)
  if (!reserve(m, outAt + FIND_CAP * 4)) return null;
  if (!inPlace) new Uint8Array(m.memory.buffer, 0, n).set(bytes);
  if (fold) m.fold(at, n);
  new Uint8Array(m.memory.buffer, needleAt, k).set(needle);
  if (k > n) return { next: () => -1 };
  const [i1, i2] = rareFilter(needle);
  const found = new Int32Array(m.memory.buffer, outAt, FIND_CAP);
  let count = 0;
  let index = 0;
  /** Where the next batch starts: past the last position read, or n when the search is done. */
  let resume = 0;
  return {
    next(from: number): number {
      for (;;) {
        while (index < count) {
          const pos = found[index]!;
          if (pos >= from) return pos;
          index++;
        }
        if (resume >= n) return -1;
        const start = Math.max(resume, from);
        count = m.find(at, n, needleAt, k, outAt, FIND_CAP, start, i1, i2);
        index = 0;
        // a full batch may have more after its last position; a short one found everything
        resume = count === FIND_CAP ? found[count - 1]! + 1 : n;
      }
    },
  };
}
