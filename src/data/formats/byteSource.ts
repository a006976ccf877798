import { readSync } from 'node:fs';
import { DataError } from '../errors.js';

/**
 * A table file's bytes as a decoder reads them: its size, and a range read on demand. Over
 * bytes in memory a read is a view; over an open file ({@link fileSource}) it is a positional
 * read into a fresh buffer, so a decoder that reads two of seven columns never holds the others.
 */
export interface ByteSource {
  readonly size: number;
  /** Bytes [at, at + length); the caller checked the range lies inside `size`. */
  read(at: number, length: number): Uint8Array;
  /**
   * Bytes [at, at + length) written into `into` from index `offset` (`into` has room for them),
   * as `into.set(read(at, length), offset)` without the buffer between; the caller checked the range.
   */
  readInto?(at: number, length: number, into: Uint8Array, offset: number): void;
}

/**
 * `bytes` as a ByteSource (reads are views of it); a ByteSource is returned as it is.
 * @example asSource(new Uint8Array(readFileSync(path))).read(0, 4)
 */
export function asSource(bytes: Uint8Array | ByteSource): ByteSource {
  if (!(bytes instanceof Uint8Array)) return bytes;
  return { size: bytes.byteLength, read: (at, length) => bytes.subarray(at, at + length) };
}

/**
 * An open file of `size` bytes (checked by the caller against the file cap) as a ByteSource: each
 * read is a `pread` into a fresh buffer, never shared. The descriptor may be used from any thread
 * of the process (worker threads share it). A file that shrank since it was opened (a short read)
 * fails as damaged instead of yielding zeros.
 * @throws {DataError} DATA_CORRUPT (from read) when the file ends before the range does.
 * @example const src = fileSource(openSync(path, 'r'), size, 't.parquet'); src.read(size - 8, 8);
 */
export function fileSource(fd: number, size: number, file: string): ByteSource {
  const readInto = (at: number, length: number, into: Uint8Array, offset: number): void => {
    if (!(offset >= 0 && offset + length <= into.length)) throw new RangeError('readInto: no room for the bytes');
    for (let got = 0; got < length;) {
      const n = readSync(fd, into, offset + got, Math.min(length - got, 64 * 1024 * 1024), at + got);
      if (n <= 0)
        throw new DataError('DATA_CORRUPT', `${file}: the file ended at byte ${at + got}; it changed while open`, {
          hint: 'The file was truncated or rewritten while the table was open: write it again, then start a new sandbox.',
        });
      got += n;
    }
  };
  return {
    size,
    read(at, length) {
      const out = new Uint8Array(length);
      readInto(at, length, out, 0);
      return out;
    },
    readInto,
  };
}
