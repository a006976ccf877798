/**
 * One column chunk of one row group: the encoder for the plan's kind fills the scratch buffers,
 * then the pages go out as [dictionary page] data page (v1: definition levels, then values), each
 * behind its Thrift page header. Pages are UNCOMPRESSED unless `snappy` is asked for: then INT64
 * chunks (integers, dates) are SNAPPY-compressed (their bytes are mostly zeros and repeats, which
 * Snappy shrinks ~15x, but it took the writer from ~0.4x to ~0.66x of a 100,000-row run on the
 * 2-core VM, docs/benchmarks.md); every other chunk stays UNCOMPRESSED, where JS Snappy costs more
 * time than the whole writer
 * (docs/benchmarks.md, "Tables in, files out": measured).
 */
import type { ByteSink } from './byteSink.js';
import type { ColumnPlan } from './plan.js';
import type { Encoded, Scratch } from './scratch.js';
import { ThriftWriter } from './thrift.js';
import { snappyCompress } from 'hyparquet-writer/src/snappy.js';
import { writeLevels } from './rle.js';
import { encodeBigInts, encodeNumbers } from './numbers.js';
import { encodeBooleans } from './booleans.js';
import { encodeDict } from './dictionary.js';
import { encodeNulls, encodeText, encodeUtf8 } from './text.js';

/** Parquet physical types. */
export const PHYSICAL = { BOOLEAN: 0, INT64: 2, DOUBLE: 5, BYTE_ARRAY: 6 } as const;

/** What the footer records about a written chunk. */
export interface ChunkMeta {
  type: number;
  encodings: number[];
  numValues: number;
  /** Bytes of the chunk as stored, page headers included. */
  size: number;
  /** The same with every page uncompressed. */
  uncompressed: number;
  /** 0 UNCOMPRESSED, 1 SNAPPY. */
  codec: number;
  offset: number;
  dataPageOffset: number;
  dictPageOffset: number;
  nulls: number;
  min?: Uint8Array;
  max?: Uint8Array;
}

/** The physical type of a plan. */
export function physicalOf(p: ColumnPlan): number {
  switch (p.kind) {
    case 'double':
      return PHYSICAL.DOUBLE;
    case 'int64':
    case 'timestamp':
    case 'bigint':
      return PHYSICAL.INT64;
    case 'boolean':
      return PHYSICAL.BOOLEAN;
    default:
      return PHYSICAL.BYTE_ARRAY;
  }
}

function encode(p: ColumnPlan, a: number, b: number, s: Scratch): Encoded {
  switch (p.kind) {
    case 'double':
    case 'int64':
    case 'timestamp':
      return encodeNumbers(p, a, b, s);
    case 'bigint':
      return encodeBigInts(p, a, b, s);
    case 'boolean':
      return encodeBooleans(p, a, b, s);
    case 'dict':
      return encodeDict(p, a, b, s);
    case 'utf8':
      return encodeUtf8(p, a, b, s);
    case 'text':
      return encodeText(p, a, b, s);
    case 'null':
      return encodeNulls(p, a, b, s);
  }
}

/** Writes rows [a, b) of `p` to `out` as one column chunk. */
export function writeChunk(out: ByteSink, p: ColumnPlan, a: number, b: number, s: Scratch, snappy = false): ChunkMeta {
  s.reset();
  const count = b - a;
  const enc = encode(p, a, b, s);
  writeLevels(s.levels, s.valid, count, enc.nulls);
  const offset = out.pos;
  let dictPageOffset = -1;
  if (enc.dictEntries !== undefined) {
    dictPageOffset = out.pos;
    const w = new ThriftWriter(out);
    w.i32(1, 2).i32(2, s.dict.pos).i32(3, s.dict.pos);
    w.begin(7).i32(1, enc.dictEntries).i32(2, 0).end();
    w.end();
    out.bytes(s.dict.buf.subarray(0, s.dict.pos));
  }
  const dataPageOffset = out.pos;
  const size = s.levels.pos + s.values.pos;
  const codec = snappy && physicalOf(p) === PHYSICAL.INT64 ? 1 : 0;
  let stored: Uint8Array | null = null;
  if (codec) {
    // Snappy needs the page body (levels, then values) in one buffer
    s.levels.bytes(s.values.buf.subarray(0, s.values.pos));
    stored = snappyCompress(s.levels.buf.subarray(0, size));
  }
  const w = new ThriftWriter(out);
  w.i32(1, 0)
    .i32(2, size)
    .i32(3, stored ? stored.length : size);
  w.begin(5).i32(1, count).i32(2, enc.encoding).i32(3, 3).i32(4, 3).end();
  w.end();
  const headerBytes = out.pos - dataPageOffset;
  if (stored) out.bytes(stored);
  else {
    out.bytes(s.levels.buf.subarray(0, s.levels.pos));
    out.bytes(s.values.buf.subarray(0, s.values.pos));
  }
  return {
    type: physicalOf(p),
    encodings: enc.encoding === 8 ? [0, 3, 8] : [0, 3],
    numValues: count,
    size: out.pos - offset,
    uncompressed: dataPageOffset - offset + headerBytes + size,
    codec,
    offset,
    dataPageOffset,
    dictPageOffset,
    nulls: enc.nulls,
    min: enc.min,
    max: enc.max,
  };
}
