import { open } from 'node:fs/promises';
import { isUtf8 } from 'node:buffer';

/** One piece of input, valid UTF-8, cut at a character boundary; valid until the next chunk is requested. */
export interface ByteChunk {
  data: Buffer;
  /** Raw bytes consumed from the input so far (for progress). */
  bytesRead: number;
}

/** Counters the reader keeps while streaming. */
export interface ByteSourceStats {
  totalBytes: number;
  /** U+FFFD characters written in place of invalid UTF-8 sequences. */
  replacedInvalidUtf8: number;
}

const CHUNK = 1 << 22;

/**
 * Streams a file (or bytes) as valid UTF-8 chunks: BOM dropped, invalid sequences -> U+FFFD.
 * `onRaw` sees the raw bytes first (for hashing). `range` reads bytes [start, end) of a file only
 * (a part of it: csvInParts.ts); a part that starts after byte 0 has no BOM to drop.
 */
export async function* utf8Chunks(
  input: string | Uint8Array,
  stats: ByteSourceStats,
  onRaw?: (raw: Buffer) => void,
  range?: { start: number; end: number },
): AsyncGenerator<ByteChunk> {
  const fixer = new Utf8Fixer(stats, !range || range.start === 0);
  if (typeof input !== 'string') {
    stats.totalBytes = input.length;
    for (let at = 0; at < input.length; at += CHUNK) {
      const raw = Buffer.from(input.buffer, input.byteOffset + at, Math.min(CHUNK, input.length - at));
      onRaw?.(raw);
      yield { data: fixer.next(raw, at + raw.length >= input.length), bytesRead: at + raw.length };
    }
    return;
  }
  const fh = await open(input, 'r');
  try {
    stats.totalBytes = (await fh.stat()).size;
    let bytesRead = 0;
    const start = range?.start ?? 0;
    const end = range?.end ?? Infinity;
    // one buffer for every read: the consumer copies each chunk before asking for the next, and
    // fresh 4 MiB buffers per read cost more in page faults than the parse itself
    const buf = Buffer.allocUnsafe(CHUNK);
    for (;;) {
      const want = Math.min(CHUNK, end - start - bytesRead);
      const { bytesRead: n } = want > 0 ? await fh.read(buf, 0, want, start + bytesRead) : { bytesRead: 0 };
      bytesRead += n;
      onRaw?.(buf.subarray(0, n));
      const last = n < CHUNK || start + bytesRead >= end;
      if (n > 0 || last) yield { data: fixer.next(buf.subarray(0, n), last), bytesRead };
      if (last) return;
    }
  } finally {
    await fh.close();
  }
}

/** Carries incomplete multi-byte characters between chunks and repairs invalid ones. */
class Utf8Fixer {
  private carry: Buffer = Buffer.alloc(0);
  constructor(
    private readonly stats: ByteSourceStats,
    /** True at the input's first byte, where a BOM is dropped. */
    private first = true,
  ) {}

  next(raw: Buffer, last: boolean): Buffer {
    let buf = this.carry.length > 0 ? Buffer.concat([this.carry, raw]) : raw;
    if (this.first && buf.length >= 3 && buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf) buf = buf.subarray(3);
    this.first = false;
    const cut = last ? buf.length : boundary(buf);
    this.carry = Buffer.from(buf.subarray(cut));
    const body = buf.subarray(0, cut);
    if (isUtf8(body)) return body;
    const fixed = Buffer.from(body.toString('utf8'), 'utf8');
    this.stats.replacedInvalidUtf8 += countReplacement(fixed) - countReplacement(body);
    return fixed;
  }
}

/** Index where a trailing, incomplete UTF-8 sequence starts (or the length if none). */
function boundary(buf: Buffer): number {
  const end = buf.length;
  for (let j = end - 1; j >= 0 && j >= end - 4; j--) {
    const b = buf[j];
    if (b < 0x80) return end;
    if (b >= 0xc0) {
      const need = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : 2;
      return j + need > end ? j : end;
    }
  }
  return end;
}

function countReplacement(buf: Buffer): number {
  let n = 0;
  for (let at = buf.indexOf('\ufffd'); at >= 0; at = buf.indexOf('\ufffd', at + 3)) n++;
  return n;
}

/**
 * Why the head of a file is not a CSV, or null if it may be one: NUL or many control bytes
 * (binary, UTF-16), or an HTML page.
 */
export function sniffNotCsv(head: Uint8Array): string | null {
  const n = Math.min(head.length, 65536);
  let control = 0;
  for (let i = 0; i < n; i++) {
    const b = head[i];
    if (b === 0) return 'it contains NUL bytes (a binary file, or text saved as UTF-16)';
    if (b < 0x09 || (b > 0x0d && b < 0x20)) control++;
  }
  if (control > n / 100) return 'it contains binary data';
  const text = Buffer.from(head.subarray(0, Math.min(n, 1024)))
    .toString('latin1')
    .trimStart()
    .toLowerCase();
  if (
    text.startsWith('<!doctype html') ||
    text.startsWith('<html') ||
    text.startsWith('<?xml') ||
    text.startsWith('<head')
  ) {
    return 'it is an HTML/XML page, not a CSV (often an error or login page served instead of the file)';
  }
  return null;
}
