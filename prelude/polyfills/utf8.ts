/* eslint-disable prefer-spread -- String.fromCharCode.apply over a chunk: no iterator per call on the decoder's hot path */
/**
 * Small UTF-8 codec for the isolate (a bare V8 context has no TextDecoder/TextEncoder).
 * Invalid sequences decode to U+FFFD, as the WHATWG decoder does in non-fatal mode.
 */
const CHUNK = 8192;
/** Captured when the prelude loads: a run that replaces them changes nothing here. */
const ReflectApply = Reflect.apply;
const regExpExec = RegExp.prototype.exec;
const NON_ASCII = /[^\x00-\x7f]/;
const fromCharCode = String.fromCharCode;

/** Whether the last utf8Decode call met bytes that are not UTF-8 (and decoded them to U+FFFD). */
let replaced = false;

/**
 * Whether the last `utf8Decode` met bytes that are not UTF-8: its string may then equal another
 * byte string's (`a\xff` and `a\xfe` both decode to `a\uFFFD`). Read it right after the call.
 * @example utf8Decode(bytes, s, e); if (utf8DecodeReplaced()) lossy = true;
 */
export function utf8DecodeReplaced(): boolean {
  return replaced;
}

/** Decode `bytes[start..end)` as UTF-8. */
export function utf8Decode(bytes: Uint8Array, start = 0, end = bytes.length): string {
  // fast path: pure ASCII (names, agencies, most abstracts) converts straight from the bytes
  let ascii = true;
  replaced = false;
  for (let i = start; i < end; i++)
    if (bytes[i] > 0x7f) {
      ascii = false;
      break;
    }
  if (ascii) {
    if (end - start <= CHUNK) return fromCharCode.apply(null, bytes.subarray(start, end) as unknown as number[]);
    let out = '';
    for (let i = start; i < end; i += CHUNK)
      out += fromCharCode.apply(null, bytes.subarray(i, Math.min(end, i + CHUNK)) as unknown as number[]);
    return out;
  }
  // the WHATWG UTF-8 decoder state machine (maximal-subpart replacement, like TextDecoder)
  const units = new Uint16Array(CHUNK + 2);
  let out = '';
  let n = 0;
  let cp = 0;
  let needed = 0;
  let seen = 0;
  let lower = 0x80;
  let upper = 0xbf;
  const emit = (c: number) => {
    if (c > 0xffff) {
      c -= 0x10000;
      units[n++] = 0xd800 + (c >> 10);
      units[n++] = 0xdc00 + (c & 0x3ff);
    } else {
      units[n++] = c;
    }
    if (n >= CHUNK) {
      out += fromCharCode.apply(null, units.subarray(0, n) as unknown as number[]);
      n = 0;
    }
  };
  for (let i = start; i < end; i++) {
    const b = bytes[i];
    if (needed === 0 && b <= 0x7f && n < CHUNK) {
      units[n++] = b; // ASCII fast path
      continue;
    }
    if (needed === 0) {
      if (b <= 0x7f) emit(b);
      else if (b >= 0xc2 && b <= 0xdf) {
        needed = 1;
        cp = b & 0x1f;
      } else if (b >= 0xe0 && b <= 0xef) {
        if (b === 0xe0) lower = 0xa0;
        if (b === 0xed) upper = 0x9f;
        needed = 2;
        cp = b & 0x0f;
      } else if (b >= 0xf0 && b <= 0xf4) {
        if (b === 0xf0) lower = 0x90;
        if (b === 0xf4) upper = 0x8f;
        needed = 3;
        cp = b & 0x07;
      } else {
        replaced = true;
        emit(0xfffd);
      }
      continue;
    }
    if (b < lower || b > upper) {
      cp = needed = seen = 0;
      lower = 0x80;
      upper = 0xbf;
      replaced = true;
      emit(0xfffd);
      i--; // reprocess this byte as a lead byte
      continue;
    }
    lower = 0x80;
    upper = 0xbf;
    cp = (cp << 6) | (b & 0x3f);
    if (++seen === needed) {
      emit(cp);
      cp = needed = seen = 0;
    }
  }
  if (needed) {
    replaced = true;
    emit(0xfffd);
  }
  if (n) out += fromCharCode.apply(null, units.subarray(0, n) as unknown as number[]);
  return out;
}

/** Number of UTF-8 bytes needed for `s` (lone surrogates count as U+FFFD, 3 bytes). */
export function utf8Length(s: string): number {
  // all ASCII (most result pieces and tables): one native scan, not a loop of this function's own
  if (s.length > 8 && ReflectApply(regExpExec, NON_ASCII, [s]) === null) return s.length;
  let bytes = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

/** Encode `s` as UTF-8 into `out` (which must be large enough); returns bytes written and chars read. */
export function utf8EncodeInto(s: string, out: Uint8Array): { read: number; written: number } {
  let w = 0;
  let i = 0;
  for (; i < s.length; i++) {
    let c = s.charCodeAt(i);
    let width = 1;
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      c = 0x10000 + ((c - 0xd800) << 10) + (s.charCodeAt(i + 1) - 0xdc00);
      width = 2;
    } else if (c >= 0xd800 && c <= 0xdfff) {
      c = 0xfffd;
    }
    const need = c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
    if (w + need > out.length) break;
    if (need === 1) out[w++] = c;
    else if (need === 2) {
      out[w++] = 0xc0 | (c >> 6);
      out[w++] = 0x80 | (c & 0x3f);
    } else if (need === 3) {
      out[w++] = 0xe0 | (c >> 12);
      out[w++] = 0x80 | ((c >> 6) & 0x3f);
      out[w++] = 0x80 | (c & 0x3f);
    } else {
      out[w++] = 0xf0 | (c >> 18);
      out[w++] = 0x80 | ((c >> 12) & 0x3f);
      out[w++] = 0x80 | ((c >> 6) & 0x3f);
      out[w++] = 0x80 | (c & 0x3f);
    }
    i += width - 1;
  }
  return { read: i, written: w };
}

/** Encode `s` as UTF-8. */
export function utf8Encode(s: string): Uint8Array {
  const out = new Uint8Array(utf8Length(s));
  utf8EncodeInto(s, out);
  return out;
}
