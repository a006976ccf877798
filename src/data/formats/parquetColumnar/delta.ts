import { deltaBinaryUnpack } from 'hyparquet/src/delta.js';
import { PageCorrupt } from './pageErrors.js';

/**
 * `n` DELTA_BINARY_PACKED integers from `buf[pos, end)`, as the little-endian bytes of PLAIN
 * INT32 / INT64 values (so plainNumbers converts them like any PLAIN page). The block header is
 * checked first (block size a positive multiple of 128, at most 2^20; miniblocks of a multiple of
 * 32 values), so hyparquet's unpacker, which does the arithmetic, always progresses by at least
 * 32 values per miniblock and reads inside `buf[pos, end)` (a read past it is PageCorrupt).
 * Returns the bytes and the position after the last block.
 * @throws {PageCorrupt} a malformed header or a block past the page.
 * @example const { bytes } = deltaInts(page, 0, page.length, 100, false);
 */
export function deltaInts(
  buf: Uint8Array,
  pos: number,
  end: number,
  n: number,
  int64: boolean,
): { bytes: Uint8Array; pos: number } {
  const out = int64 ? new BigInt64Array(n) : new Int32Array(n);
  if (n === 0) return { bytes: new Uint8Array(0), pos };
  if (end > buf.length || pos >= end) throw new PageCorrupt('a DELTA_BINARY_PACKED page without its header');
  let at = pos;
  const varint = (): number => {
    let v = 0;
    for (let shift = 0; shift <= 28; shift += 7) {
      if (at >= end) throw new PageCorrupt('a DELTA_BINARY_PACKED header past the end of its page');
      const b = buf[at++];
      v += (b & 0x7f) * 2 ** shift;
      if ((b & 0x80) === 0) return v;
    }
    throw new PageCorrupt('a DELTA_BINARY_PACKED header varint longer than 5 bytes');
  };
  const blockSize = varint();
  const miniblocks = varint();
  if (!(
    blockSize > 0 &&
    blockSize % 128 === 0 &&
    blockSize <= 1 << 20 &&
    miniblocks > 0 &&
    blockSize % miniblocks === 0 &&
    (blockSize / miniblocks) % 32 === 0
  )) {
    throw new PageCorrupt(`a DELTA_BINARY_PACKED block of ${blockSize} values in ${miniblocks} miniblocks`);
  }
  const reader = { view: new DataView(buf.buffer, buf.byteOffset + pos, end - pos), offset: 0 };
  try {
    deltaBinaryUnpack(reader, n, out);
  } catch (err) {
    if (err instanceof RangeError) throw new PageCorrupt('DELTA_BINARY_PACKED values past the end of their page');
    throw err;
  }
  return { bytes: new Uint8Array(out.buffer), pos: pos + reader.offset };
}
