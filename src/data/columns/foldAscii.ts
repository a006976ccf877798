/**
 * ASCII case folding of bytes (`A`-`Z` to `a`-`z`, every other byte kept) in a small WebAssembly
 * module with 128-bit SIMD: 16 bytes per step, where a JavaScript loop does one (or four, with word
 * tricks) and a RegExp `i` flag compares character by character. textScan folds a page this way and
 * searches the folded bytes with the native `Buffer.indexOf`.
 *
 * The module is built here from its instructions (no binary file to trust); its only export besides
 * its memory is `fold(at, length)`, which lowercases memory[at, at + length) in place, rounding up
 * to whole 16-byte steps (the bytes past `length` are scratch).
 */

const op = {
  localGet: 0x20,
  localSet: 0x21,
  localTee: 0x22,
  i32Const: 0x41,
  i32Add: 0x6a,
  i32GeU: 0x4f,
  block: 0x02,
  loop: 0x03,
  br: 0x0c,
  brIf: 0x0d,
  end: 0x0b,
  void: 0x40,
  simd: 0xfd,
} as const;
/** SIMD opcodes (after the 0xfd prefix; all below 0x80, so one LEB128 byte each). */
const simd = { load: 0x00, store: 0x0b, const: 0x0c, lt_u8: 0x26, and: 0x4e, or: 0x50, sub8: 0x71 } as const;
const splat = (byte: number): number[] => [op.simd, simd.const, ...new Array<number>(16).fill(byte)];
const memarg = [0, 0]; // alignment hint 1, offset 0

// (func (param $at i32) (param $n i32) (local $end i32) (local $v v128)
//   $end = $at + $n
//   loop while $at < $end:
//     $v = v128.load($at)
//     v128.store($at, $v | ((($v - 'A') <u 26) & 0x20))   ; per byte: an upper-case letter gains 0x20
//     $at += 16
const body = [
  2, // two local declarations
  1,
  0x7f, // $end: i32
  1,
  0x7b, // $v: v128
  ...[op.localGet, 0, op.localGet, 1, op.i32Add, op.localSet, 2],
  ...[op.block, op.void, op.loop, op.void],
  ...[op.localGet, 0, op.localGet, 2, op.i32GeU, op.brIf, 1],
  ...[op.localGet, 0], // the store's address
  ...[op.localGet, 0, op.simd, simd.load, ...memarg, op.localTee, 3],
  ...splat(0x41),
  ...[op.simd, simd.sub8],
  ...splat(26),
  ...[op.simd, simd.lt_u8],
  ...splat(0x20),
  ...[op.simd, simd.and, op.localGet, 3, op.simd, simd.or],
  ...[op.simd, simd.store, ...memarg],
  ...[op.localGet, 0, op.i32Const, 16, op.i32Add, op.localSet, 0, op.br, 0],
  ...[op.end, op.end, op.end],
];

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

const MODULE = new Uint8Array([
  ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00], // "\0asm", version 1
  ...section(1, [1, 0x60, 2, 0x7f, 0x7f, 0]), // type 0: (i32, i32) -> ()
  ...section(3, [1, 0]), // one function, type 0
  ...section(5, [1, 0x00, 1]), // one memory, at least one 64 KiB page
  ...section(7, [2, ...name('memory'), 0x02, 0, ...name('fold'), 0x00, 0]),
  ...section(10, [1, ...leb(body.length), ...body]),
]);

const WASM_PAGE = 65536;

interface Folder {
  memory: WebAssembly.Memory;
  fold(at: number, n: number): void;
}

let folder: Folder | null | undefined;

function instance(): Folder | null {
  if (folder === undefined) {
    try {
      const exports = new WebAssembly.Instance(new WebAssembly.Module(MODULE)).exports;
      folder = { memory: exports.memory as WebAssembly.Memory, fold: exports.fold as Folder['fold'] };
    } catch {
      folder = null; // no WebAssembly SIMD here: the caller folds another way
    }
  }
  return folder;
}

/**
 * `bytes` with ASCII upper-case letters lowercased, as a Buffer over the module's memory (valid until
 * the next call: the memory is reused). Bytes 0x80-0xff are kept, so the positions and every
 * non-ASCII byte of UTF-8 text stay as they were. Null when WebAssembly SIMD is unavailable or the
 * memory cannot grow to `bytes.length`.
 * @example foldAscii(Buffer.from('Digital TWIN')).toString() // 'digital twin'
 */
export function foldAscii(bytes: Uint8Array): Buffer | null {
  const f = instance();
  if (!f) return null;
  const need = bytes.length + 16; // the last 16-byte step may run past the end
  const have = f.memory.buffer.byteLength;
  if (need > have) {
    try {
      f.memory.grow(Math.ceil((need - have) / WASM_PAGE));
    } catch {
      return null;
    }
  }
  const view = new Uint8Array(f.memory.buffer, 0, bytes.length);
  view.set(bytes);
  f.fold(0, bytes.length);
  return Buffer.from(f.memory.buffer, 0, bytes.length);
}
