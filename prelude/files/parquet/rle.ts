/**
 * Parquet's RLE / bit-packing hybrid, write side: definition levels (bit width 1) and dictionary
 * indices. One run per page: a whole page of one value is a single RLE run, anything else one
 * bit-packed run (values LSB first, padded to a multiple of 8 values; readers stop at the page's
 * value count).
 */
import type { ByteSink } from './byteSink.js';

/**
 * Definition levels of an OPTIONAL column as a 4-byte length + hybrid runs: `valid[k]` is 1 for
 * a value, 0 for null, over `count` rows.
 */
export function writeLevels(sink: ByteSink, valid: Uint8Array, count: number, nulls: number): void {
  const at = sink.pos;
  sink.u32(0);
  if (nulls === 0 || nulls === count) {
    sink.varint(count * 2);
    sink.byte(nulls === 0 ? 1 : 0);
  } else {
    const groups = Math.ceil(count / 8);
    sink.varint(groups * 2 + 1);
    sink.ensure(groups);
    const b = sink.buf;
    let p = sink.pos;
    for (let k = 0; k < count; k += 8) {
      let byte = 0;
      const end = Math.min(count, k + 8);
      for (let j = k; j < end; j++) byte |= valid[j] << (j - k);
      b[p++] = byte;
    }
    sink.pos = p;
  }
  sink.u32At(at, sink.pos - at - 4);
}

/** Bit width needed for values 0..max. */
export function bitWidth(max: number): number {
  return max <= 0 ? 0 : 32 - Math.clz32(max);
}

/** `count` values of `values` (each < 2^width, width 1..24) as one bit-packed run (no length prefix). */
export function writeBitPacked(sink: ByteSink, values: Int32Array, count: number, width: number): void {
  const groups = Math.ceil(count / 8);
  sink.varint(groups * 2 + 1);
  sink.ensure(groups * width);
  const b = sink.buf;
  const start = sink.pos;
  let p = start;
  let acc = 0;
  let bits = 0;
  for (let k = 0; k < count; k++) {
    acc |= values[k] << bits; // bits < 8 and width <= 24: stays within 31 bits
    bits += width;
    while (bits >= 8) {
      b[p++] = acc & 0xff;
      acc >>>= 8;
      bits -= 8;
    }
  }
  if (bits > 0) b[p++] = acc & 0xff;
  // the last group is padded with zero values to 8
  const end = start + groups * width;
  while (p < end) b[p++] = 0;
  sink.pos = p;
}
