import { DataError } from '../../errors.js';
import type { ByteSource } from '../byteSource.js';
import { ARROW_DAMAGED } from './corrupt.js';
import { bodyLength } from './streamFraming.js';

/** A byte range of the file read into memory: where it starts, and its bytes. */
export type FilePart = readonly [at: number, bytes: Uint8Array];

const MAGIC = [0x41, 0x52, 0x52, 0x4f, 0x57, 0x31]; // ARROW1

/**
 * The parts of an Arrow IPC file or stream that its reader parses before any column: the first
 * and last bytes (the magic), an IPC file's footer, and every message's length prefix and metadata
 * (schema, dictionary and record batch headers), read from `source` without any message body. Laid
 * out at their offsets in a buffer of the file's size ({@link sparseFile}), they parse exactly as
 * the whole file does; the bodies' bytes are zeros there until a column's are read in.
 * @throws {DataError} DATA_CORRUPT when an IPC file's footer points outside the footer.
 * @example const parts = arrowMetadata(fileSource(fd, size, 't.arrow'), 't.arrow');
 */
export function arrowMetadata(source: ByteSource, file: string): FilePart[] {
  const { size } = source;
  const parts: FilePart[] = [];
  const read = (at: number, length: number): Uint8Array => {
    const n = Math.max(0, Math.min(length, size - at));
    const bytes = source.read(at, n);
    parts.push([at, bytes]);
    return bytes;
  };
  const head = read(0, Math.min(size, 8));
  if (size < 8) return parts;
  const tail = read(size - 6, 6);
  const isFile = size >= 12 && MAGIC.every((m, i) => head[i] === m && tail[i] === m);
  if (!isFile) {
    // a stream (or not Arrow at all: refused by the reader from the first bytes)
    for (let at = 0; at < size;) {
      const next = message(at, read);
      if (next === undefined) break;
      at = next;
    }
    return parts;
  }
  const footerLength = view(read(size - 10, 4)).getInt32(0, true);
  const start = size - 10 - footerLength;
  if (footerLength <= 0 || start < 8) throw damagedFooter(file);
  const footer = read(start, footerLength);
  for (const offset of blockOffsets(footer, file)) {
    if (!Number.isSafeInteger(offset) || offset < 0 || offset >= size) continue; // the reader refuses it
    message(offset, read, true);
  }
  return parts;
}

/**
 * A buffer of the file's size with `parts` at their offsets (and zeros elsewhere: the memory of a
 * range nobody writes is never touched, so it takes no RAM).
 */
export function sparseFile(size: number, parts: readonly FilePart[]): Uint8Array {
  const bytes = new Uint8Array(size);
  for (const [at, part] of parts) bytes.set(part, at);
  return bytes;
}

/**
 * Reads the message at `at` (its length prefix and metadata, as flechette's decodeMessage reads
 * them); returns where the next one starts in a stream, undefined at its end or when it cannot
 * tell (the reader's framing check then names the fault).
 */
function message(at: number, read: (at: number, length: number) => Uint8Array, fileForm = false): number | undefined {
  const prefix = view(read(at, 8));
  if (prefix.byteLength < 4) return undefined;
  let length = prefix.getInt32(0, true);
  let headBytes = 4;
  if (length === -1) {
    if (prefix.byteLength < 8) return undefined;
    length = prefix.getInt32(4, true);
    headBytes = 8;
  }
  if (length <= 0) return undefined;
  const metadata = view(read(at + headBytes, length));
  if (fileForm || metadata.byteLength < length) return undefined;
  const body = bodyLength(metadata, 0, length);
  return body === undefined ? undefined : at + headBytes + length + body;
}

/** The file offsets of the footer's dictionary and record batch blocks (flatbuffer Footer fields 2 and 3). */
function blockOffsets(footer: Uint8Array, file: string): number[] {
  const v = view(footer);
  const inside = (at: number, n: number) => at >= 0 && at + n <= footer.byteLength;
  if (!inside(0, 4)) throw damagedFooter(file);
  const table = v.getUint32(0, true);
  if (!inside(table, 4)) throw damagedFooter(file);
  const vtable = table - v.getInt32(table, true);
  if (!inside(vtable, 4)) throw damagedFooter(file);
  const vtableSize = v.getUint16(vtable, true);
  const offsets: number[] = [];
  for (const slot of [8, 10]) {
    if (slot + 2 > vtableSize || !inside(vtable + slot, 2)) continue;
    const field = v.getUint16(vtable + slot, true);
    if (field === 0) continue;
    const at = table + field;
    if (!inside(at, 4)) throw damagedFooter(file);
    const vector = at + v.getUint32(at, true);
    if (!inside(vector, 4)) throw damagedFooter(file);
    const count = v.getUint32(vector, true);
    if (!inside(vector + 4, count * 24)) throw damagedFooter(file);
    for (let i = 0; i < count; i++) offsets.push(Number(v.getBigInt64(vector + 4 + i * 24, true)));
  }
  return offsets;
}

function damagedFooter(file: string): DataError {
  return new DataError('DATA_CORRUPT', `${file}: the Arrow file's footer is damaged`, { hint: ARROW_DAMAGED });
}

function view(b: Uint8Array): DataView {
  return new DataView(b.buffer, b.byteOffset, b.byteLength);
}

/**
 * The byte ranges a column's batches are views of in `file` (its validity bitmaps, offsets, values,
 * and its dictionaries' buffers), merged where they touch: what to read from disk for that column.
 * @example columnRanges(table.getChildAt(2).data, bytes.buffer)
 */
export function columnRanges(batches: readonly unknown[], file: ArrayBufferLike): Array<[number, number]> {
  const ranges: Array<[number, number]> = [];
  const seen = new Set<unknown>();
  const visit = (batch: unknown) => {
    if (!batch || typeof batch !== 'object' || seen.has(batch)) return;
    seen.add(batch);
    for (const value of Object.values(batch as Record<string, unknown>)) {
      if (ArrayBuffer.isView(value)) {
        if (value.buffer === file && value.byteLength > 0) ranges.push([value.byteOffset, value.byteLength]);
      } else if (Array.isArray(value)) {
        for (const v of value)
          if (ArrayBuffer.isView(v) && v.buffer === file && v.byteLength > 0) ranges.push([v.byteOffset, v.byteLength]);
      }
    }
    // a dictionary-encoded batch: the dictionary batches current when it was read
    const dictionary = (batch as { dictionary?: { data?: readonly unknown[] } }).dictionary;
    if (dictionary?.data) for (const d of dictionary.data) visit(d);
  };
  for (const b of batches) visit(b);
  ranges.sort((a, b) => a[0] - b[0]);
  const merged: Array<[number, number]> = [];
  for (const [at, length] of ranges) {
    const last = merged[merged.length - 1];
    // buffers of one batch lie next to each other, 8-byte aligned: read them in one go
    if (last && at <= last[0] + last[1] + 64) last[1] = Math.max(last[1], at + length - last[0]);
    else merged.push([at, length]);
  }
  return merged;
}
