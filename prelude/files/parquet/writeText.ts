/**
 * Strings as UTF-8 straight into a sink (no Uint8Array per string): a PLAIN BYTE_ARRAY value (a
 * 4-byte little-endian length first) or bare bytes (CSV). ASCII takes a one-comparison-per-char loop;
 * anything else the full encoder (lone surrogates become U+FFFD, as TextEncoder does).
 */
import type { ByteSink } from './byteSink.js';

/** Appends `s` as a length-prefixed UTF-8 value. */
export function writeText(sink: ByteSink, s: string): void {
  const start = sink.pos;
  sink.ensure(4);
  sink.pos += 4;
  writeUtf8(sink, s);
  sink.u32At(start, sink.pos - start - 4);
}

/** Appends the UTF-8 bytes of `s` (no length). */
export function writeUtf8(sink: ByteSink, s: string): void {
  const n = s.length;
  sink.ensure(n * 3); // UTF-8 needs at most 3 bytes per UTF-16 unit
  const b = sink.buf;
  let w = sink.pos;
  let i = 0;
  for (; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x80) break;
    b[w++] = c;
  }
  for (; i < n; i++) {
    let c = s.charCodeAt(i);
    if (c < 0x80) b[w++] = c;
    else if (c < 0x800) {
      b[w++] = 0xc0 | (c >> 6);
      b[w++] = 0x80 | (c & 0x3f);
    } else {
      if (c >= 0xd800 && c <= 0xdfff) {
        const d = i + 1 < n ? s.charCodeAt(i + 1) : 0;
        if (c <= 0xdbff && (d & 0xfc00) === 0xdc00) {
          c = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
          i++;
          b[w++] = 0xf0 | (c >> 18);
          b[w++] = 0x80 | ((c >> 12) & 0x3f);
          b[w++] = 0x80 | ((c >> 6) & 0x3f);
          b[w++] = 0x80 | (c & 0x3f);
          continue;
        }
        c = 0xfffd;
      }
      b[w++] = 0xe0 | (c >> 12);
      b[w++] = 0x80 | ((c >> 6) & 0x3f);
      b[w++] = 0x80 | (c & 0x3f);
    }
  }
  sink.pos = w;
}
