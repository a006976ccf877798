import { DataError } from '../../errors.js';
import { ARROW_DAMAGED } from './corrupt.js';

/**
 * Check the message framing of an Arrow IPC stream from its first byte to its last: each message
 * is [0xFFFFFFFF] <int32 metadata length> <metadata> <body of the Message's bodyLength bytes>, and
 * the stream ends after a whole message or with a whole end-of-stream marker (0xFFFFFFFF 00000000,
 * or a legacy 00000000). A stream cut inside a message header, its metadata, its body or the
 * end-of-stream marker is DATA_CORRUPT (flechette reads such a stream as if it ended there).
 * @throws {DataError} DATA_CORRUPT naming the offset.
 * @example checkStreamFraming(bytes, 't.arrows')
 */
export function checkStreamFraming(bytes: Uint8Array, file: string): void {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const end = bytes.byteLength;
  let at = 0;
  while (at < end) {
    const cut = (what: string) =>
      new DataError('DATA_CORRUPT', `${file}: the Arrow stream is cut short inside ${what} at byte ${at} of ${end}`, {
        hint: ARROW_DAMAGED,
      });
    if (end - at < 4) throw cut('a message header');
    let len = view.getInt32(at, true);
    let head = 4;
    if (len === -1) {
      if (end - at < 8) throw cut(at + 4 === end ? 'the end-of-stream marker' : 'a message header');
      len = view.getInt32(at + 4, true);
      head = 8;
    }
    if (len === 0) return; // end of stream: what follows is not read
    if (len < 0 || at + head + len > end) throw cut("a message's metadata");
    const body = bodyLength(view, at + head, len);
    if (body === undefined)
      throw new DataError('DATA_CORRUPT', `${file}: the Arrow message at byte ${at} has unreadable metadata`, {
        hint: ARROW_DAMAGED,
      });
    const next = at + head + len + body;
    if (next > end) throw cut("a message's body");
    at = next;
  }
}

/** The Message flatbuffer's bodyLength (field 3, int64), or undefined when the table is malformed. */
export function bodyLength(view: DataView, start: number, len: number): number | undefined {
  if (len < 8) return undefined;
  const table = start + view.getUint32(start, true);
  if (table + 4 > start + len) return undefined;
  const vtable = table - view.getInt32(table, true);
  if (vtable < start || vtable + 4 > start + len) return undefined;
  const vtableSize = view.getUint16(vtable, true);
  const slot = 4 + 3 * 2;
  if (slot + 2 > vtableSize) return 0; // absent: a message without a body
  const field = view.getUint16(vtable + slot, true);
  if (field === 0) return 0;
  if (table + field + 8 > start + len) return undefined;
  const value = view.getBigInt64(table + field, true);
  return value < 0n || value > BigInt(Number.MAX_SAFE_INTEGER) ? undefined : Number(value);
}
