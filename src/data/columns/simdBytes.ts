/**
 * The byte search of textScan in a small WebAssembly module with 128-bit SIMD, built here from its
 * instructions (no binary file to trust), over one reused memory: `findRows` (and `findRowsFolded`,
 * the same with ASCII case folded) marks the rows of a page that hold a k-byte needle. Sixteen
 * candidate positions are tested a step by comparing two of their bytes with the needle's (W. Muła's
 * SIMD substring search; the needle's two rarest bytes in English text, so fewer positions pass),
 * sixty-four a step while none passes, then every byte of a candidate; a hit marks its row and the
 * search goes on at the next row, so no call per hit leaves the module and the rest of a row that
 * already holds the needle is never read. Folding compares `b | 0x20` with a lower-case needle
 * letter in the filter and A-Z lowercased in the compare, so the text is never rewritten.
 */

const op = {
  block: 0x02,
  loop: 0x03,
  if: 0x04,
  end: 0x0b,
  br: 0x0c,
  brIf: 0x0d,
  localGet: 0x20,
  localSet: 0x21,
  localTee: 0x22,
  load32: 0x28,
  load8u: 0x2d,
  store8: 0x3a,
  i32Const: 0x41,
  eqz: 0x45,
  ne: 0x47,
  ltU: 0x49,
  gtU: 0x4b,
  leU: 0x4d,
  geU: 0x4f,
  ctz: 0x68,
  add: 0x6a,
  sub: 0x6b,
  mul: 0x6c,
  and: 0x71,
  or: 0x72,
  shl: 0x74,
  void: 0x40,
  simd: 0xfd,
} as const;
/** SIMD opcodes (after the 0xfd prefix; all below 0x80, so one LEB128 byte each). */
const simd = {
  load: 0x00,
  splat8: 0x0f,
  eq8: 0x23,
  and: 0x4e,
  or: 0x50,
  anyTrue: 0x53,
  bitmask8: 0x64,
} as const;
const v = (code: number): number[] => [op.simd, code];
const get = (i: number): number[] => [op.localGet, i];
const set = (i: number): number[] => [op.localSet, i];
const i32 = (n: number): number[] => (n < 64 ? [op.i32Const, n] : [op.i32Const, 0x80 | (n & 0x7f), n >> 7]); // 0..8191: signed LEB128
const byteMem = [0, 0]; // alignment hint 1, offset 0
const I32 = 0x7f;
const V128 = 0x7b;

// findRows: params $at 0, $n 1, $needle 2, $k 3, $offs 4, $rows 5, $flags 6, $i1 7, $i2 8, $mask1 9,
// $mask2 10, $base 11 ($i1, $i2: the two needle bytes the filter tests, its rarest, rareFilter; with
// `fold`, $mask1/2 are 0x20 for a lower-case letter, which the filter ORs into the text's byte:
// exactly the bytes A-Z folding gives that letter, so the filter stays exact); locals $end 12
// (positions < $end can start a hit: n - k + 1), $m 13 (candidate bits), $pos 14, $j 15, $cnt 16,
// $p 17, $q 18 (where the filter loads), $row 19, $b 20, $from 21 (the block of positions tested
// next), $first 22, $last 23, $fm1 24, $fm2 25 (v128). $offs holds $rows + 1 Int32 row bounds, less
// $base the positions in the bytes from $at (ascending, the last one $base + n); a row holding a
// hit gets 1 at $flags + row, and the search goes on at the next row's first byte (the rest of the
// row cannot change its answer). Returns the rows marked. The caller ensures 1 <= k <= n, i1, i2 <
// k, and 16 readable bytes past the data.
const [AT, N, NEEDLE, K, OFFS, ROWS, FLAGS, I1, I2, MASK1, MASK2, BASE] = Array.from({ length: 12 }, (_, i) => i);
const [END, M, POS, J, CNT, P, Q, ROW, B, FROM, FIRST, LAST, FM1, FM2] = Array.from({ length: 14 }, (_, i) => 12 + i);
/** Positions the filter clears a step while none of them is a candidate (four 16-byte loads a side). */
const SKIP = 64;
/** The end of row $row (row bound $row + 1, less $base): i32.load at $offs + 4 * $row, offset 4. */
const rowEnd = [...get(OFFS), ...get(ROW), ...i32(4), op.mul, op.add, op.load32, 2, 4, ...get(BASE), op.sub];

/**
 * The instructions of findRows; with `fold`, the text's bytes are compared with A-Z lowercased
 * (the needle must be lower-case already), without changing the text.
 */
function findRowsCode(fold: boolean): number[] {
  /** A 16-byte load on the stack compared with a splatted needle byte (ORed with its mask first when folding). */
  const compare = (needleByte: number, mask: number): number[] => [
    ...(fold ? [...get(mask), ...v(simd.or)] : []),
    ...get(needleByte),
    ...v(simd.eq8),
  ];
  /** The filter's compare of 16 positions from the addresses in $p and $q plus `offset` (0-48). */
  const candidates = (offset: number): number[] => [
    ...[...get(P), ...v(simd.load), 0, offset, ...compare(FIRST, FM1)],
    ...[...get(Q), ...v(simd.load), 0, offset, ...compare(LAST, FM2), ...v(simd.and)],
  ];
  /** The text's byte at $at + $pos + $j (A-Z lowercased when folding: b | ((b - 'A') <u 26) << 5). */
  const textByte = fold
    ? [
        ...[...get(AT), ...get(POS), op.add, ...get(J), op.add, op.load8u, ...byteMem, op.localTee, B],
        ...[...get(B), ...i32(0x41), op.sub, ...i32(26), op.ltU, ...i32(5), op.shl, op.or],
      ]
    : [...get(AT), ...get(POS), op.add, ...get(J), op.add, op.load8u, ...byteMem];
  const loads = [
    ...[...get(AT), ...get(FROM), op.add, ...get(I1), op.add, ...set(P)],
    ...[...get(P), ...get(I2), op.add, ...get(I1), op.sub, ...set(Q)],
  ];
  return [
    2,
    ...[10, I32, 4, V128],
    ...[...get(N), ...get(K), op.sub, ...i32(1), op.add, ...set(END)],
    ...[...get(NEEDLE), ...get(I1), op.add, op.load8u, ...byteMem, ...v(simd.splat8), ...set(FIRST)],
    ...[...get(NEEDLE), ...get(I2), op.add, op.load8u, ...byteMem, ...v(simd.splat8), ...set(LAST)],
    ...(fold ? [...get(MASK1), ...v(simd.splat8), ...set(FM1), ...get(MASK2), ...v(simd.splat8), ...set(FM2)] : []),
    ...[op.block, op.void, op.loop, op.void], // $done, $blocks
    // while 64 positions from $from can all start a hit and none is a candidate, skip them
    ...[op.block, op.void, op.loop, op.void], // $slow, $skip
    ...[...get(FROM), ...i32(SKIP), op.add, ...get(END), op.gtU, op.brIf, 1],
    ...loads,
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
    // m = the 16 positions from $from that pass the filter
    ...loads,
    ...candidates(0),
    ...[...v(simd.bitmask8), ...set(M)],
    ...[op.block, op.void, op.loop, op.void], // $next, $bits
    ...[...get(M), op.eqz, op.brIf, 1],
    ...[...get(FROM), ...get(M), op.ctz, op.add, ...set(POS)],
    ...[...get(M), ...get(M), ...i32(1), op.sub, op.and, ...set(M)],
    ...[...get(POS), ...get(END), op.ltU, op.if, op.void], // $if1
    ...[...i32(0), ...set(J)],
    ...[op.block, op.void, op.loop, op.void], // $cmpdone, $cmp: every byte of the needle
    ...[...get(J), ...get(K), op.geU, op.brIf, 1],
    ...[...textByte, ...get(NEEDLE), ...get(J), op.add, op.load8u, ...byteMem, op.ne, op.brIf, 1],
    ...[...get(J), ...i32(1), op.add, ...set(J), op.br, 0],
    ...[op.end, op.end],
    ...[...get(J), ...get(K), op.geU, op.if, op.void], // $ifok: every byte matched
    // the row holding $pos: every row before it ends at or before $pos
    ...[op.block, op.void, op.loop, op.void], // $found, $adv
    ...[...rowEnd, ...get(POS), op.gtU, op.brIf, 1],
    ...[...get(ROW), ...i32(1), op.add, op.localTee, ROW, ...get(ROWS), op.geU, op.brIf, 7], // -> $done
    ...[op.br, 0, op.end, op.end],
    ...[...get(POS), ...get(K), op.add, ...rowEnd, op.leU, op.if, op.void], // $ifin: the hit ends inside its row
    ...[...get(FLAGS), ...get(ROW), op.add, ...i32(1), op.store8, 0, 0],
    ...[...get(CNT), ...i32(1), op.add, ...set(CNT)],
    ...[...rowEnd, ...set(FROM)], // on at the next row's first byte
    ...[...get(ROW), ...i32(1), op.add, op.localTee, ROW, ...get(ROWS), op.geU, op.brIf, 6], // -> $done
    ...[op.br, 5, op.end], // -> $blocks; end $ifin
    ...[op.end, op.end], // end $ifok, $if1
    ...[op.br, 0, op.end, op.end], // next candidate bit; end $bits, $next
    ...[...get(FROM), ...i32(16), op.add, ...set(FROM), op.br, 0],
    ...[op.end, op.end],
    ...get(CNT),
    op.end,
  ];
}

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
  ...section(1, [1, 0x60, 12, ...new Array<number>(12).fill(I32), 1, I32]), // type 0: (i32 x12) -> i32
  ...section(3, [2, 0, 0]), // findRows, findRowsFolded: type 0
  ...section(5, [1, 0x00, 1]), // one memory, at least one 64 KiB page
  ...section(7, [3, ...name('memory'), 0x02, 0, ...name('findRows'), 0x00, 0, ...name('findRowsFolded'), 0x00, 1]),
  ...section(10, [2, ...body(findRowsCode(false)), ...body(findRowsCode(true))]),
]);

const WASM_PAGE = 65536;

/** findRows' parameters: bytes, needle, row bounds and row flags by their addresses in the memory. */
type FindRows = (
  at: number,
  n: number,
  needle: number,
  k: number,
  offs: number,
  rows: number,
  flags: number,
  i1: number,
  i2: number,
  mask1: number,
  mask2: number,
  base: number,
) => number;

interface Simd {
  memory: WebAssembly.Memory;
  findRows: FindRows;
  findRowsFolded: FindRows;
}

let module: Simd | null | undefined;

function instance(): Simd | null {
  if (module === undefined) {
    try {
      const exports = new WebAssembly.Instance(new WebAssembly.Module(MODULE)).exports;
      module = {
        memory: exports.memory as WebAssembly.Memory,
        findRows: exports.findRows as FindRows,
        findRowsFolded: exports.findRowsFolded as FindRows,
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
 * Room kept past a searchArea for rowSearch's needle (up to 4 KiB) and a page's row bounds and
 * flags (up to 16,384 rows; a longer needle or page grows the memory, keeping its bytes).
 */
const AREA_SLACK = 16 + 4096 + 16 + 5 * 16384 + 32;

/**
 * A view of the first `n` bytes of the module's memory, for a caller that reads its data straight
 * into it: rowSearch of a view of it then searches the bytes where they are instead of copying
 * them in. The view is valid until the next searchArea or rowSearch (the memory may grow, which
 * leaves older views empty). Null when WebAssembly SIMD is unavailable or the memory cannot grow.
 * @example const area = searchArea(65536); if (area) readSync(fd, area, 0, 65536, 0);
 */
export function searchArea(n: number): Uint8Array | null {
  const m = instance();
  if (!m || !reserve(m, align16(n) + AREA_SLACK)) return null;
  return new Uint8Array(m.memory.buffer, 0, n);
}

/** Lower-case ASCII letters: the needle bytes a folded filter ORs 0x20 into the text's byte for. */
const isLowerLetter = (b: number): boolean => b >= 0x61 && b <= 0x7a;

/**
 * Which rows of a page hold `needle`: `bytes` are the page's (rows [start, end) of a column whose
 * row bounds are `offsets`, row i's bytes at [offsets[i] - base, offsets[i + 1] - base) of
 * `bytes`), and a row holds the needle when one of its occurrences starts and ends inside the row.
 * With `fold`, A-Z in the bytes match a-z of the needle, which must be lower-case already (the
 * bytes are not changed). Returns one byte per row (1: it holds the needle, else 0) in the
 * module's memory, valid until the next searchArea or rowSearch; null when WebAssembly SIMD is
 * unavailable, the memory cannot grow, or the needle is empty. A view of the memory (searchArea) is
 * searched in place.
 * @example rowSearch(Buffer.from('a Laser|laser'), Buffer.from('laser'), true, Int32Array.of(0, 7, 13), 0, 2, 0) // [1, 1]
 */
export function rowSearch(
  bytes: Uint8Array,
  needle: Uint8Array,
  fold: boolean,
  offsets: Int32Array,
  start: number,
  end: number,
  base: number,
): Uint8Array | null {
  const m = instance();
  const n = bytes.length;
  const k = needle.length;
  const rows = end - start;
  if (!m || k === 0) return null;
  // bytes read straight into the module's memory (searchArea) are searched where they are
  const inPlace = bytes.buffer === m.memory.buffer;
  const at = inPlace ? bytes.byteOffset : 0;
  const needleAt = align16(at + n) + 16;
  const offsAt = align16(needleAt + k);
  const flagsAt = offsAt + 4 * (rows + 1);
  // growing keeps the memory's contents (bytes already in it stay where they are)
  if (!reserve(m, flagsAt + rows)) return null;
  if (!inPlace) new Uint8Array(m.memory.buffer, 0, n).set(bytes);
  new Uint8Array(m.memory.buffer, needleAt, k).set(needle);
  // the bounds as they are (no loop here: findRows subtracts base)
  new Int32Array(m.memory.buffer, offsAt, rows + 1).set(offsets.subarray(start, end + 1));
  const flags = new Uint8Array(m.memory.buffer, flagsAt, rows).fill(0);
  if (k > n || rows === 0) return flags;
  const [i1, i2] = rareFilter(needle);
  const mask = (b: number): number => (fold && isLowerLetter(b) ? 0x20 : 0);
  const find = fold ? m.findRowsFolded : m.findRows;
  find(at, n, needleAt, k, offsAt, rows, flagsAt, i1, i2, mask(needle[i1]!), mask(needle[i2]!), base);
  return flags;
}
