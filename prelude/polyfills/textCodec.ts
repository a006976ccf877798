/**
 * Minimal WHATWG TextEncoder/TextDecoder (UTF-8 only), installed on globalThis when missing.
 * Must be the first import of prelude/index.ts: flechette (Arquero's Arrow codec) constructs a
 * TextDecoder when its module is evaluated.
 */
import { utf8Decode, utf8Encode, utf8EncodeInto } from './utf8.js';

type Bytes = ArrayBuffer | ArrayBufferView;

function toBytes(input: Bytes | undefined): Uint8Array {
  if (input === undefined) return new Uint8Array(0);
  if (input instanceof ArrayBuffer) return new Uint8Array(input);
  if (ArrayBuffer.isView(input)) return new Uint8Array(input.buffer, input.byteOffset, input.byteLength);
  throw new TypeError('TextDecoder.decode: input must be an ArrayBuffer or ArrayBufferView');
}

/** UTF-8 only TextDecoder; `stream: true` is not supported (Arquero's sync paths do not use it). */
export class TextDecoderPolyfill {
  readonly encoding = 'utf-8';
  readonly fatal = false;
  readonly ignoreBOM: boolean;
  constructor(label = 'utf-8', options: { ignoreBOM?: boolean } = {}) {
    const l = String(label).toLowerCase();
    if (l !== 'utf-8' && l !== 'utf8' && l !== 'unicode-1-1-utf-8')
      throw new RangeError(`TextDecoder: unsupported encoding "${label}" (only utf-8)`);
    this.ignoreBOM = !!options.ignoreBOM;
  }
  decode(input?: Bytes): string {
    const b = toBytes(input);
    const skip = !this.ignoreBOM && b.length >= 3 && b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf ? 3 : 0;
    return utf8Decode(b, skip, b.length);
  }
}

/** UTF-8 TextEncoder. */
export class TextEncoderPolyfill {
  readonly encoding = 'utf-8';
  encode(input = ''): Uint8Array {
    return utf8Encode(String(input));
  }
  encodeInto(input: string, dest: Uint8Array): { read: number; written: number } {
    return utf8EncodeInto(String(input), dest);
  }
}

const g = globalThis as Record<string, unknown>;
if (typeof g.TextDecoder !== 'function') g.TextDecoder = TextDecoderPolyfill;
if (typeof g.TextEncoder !== 'function') g.TextEncoder = TextEncoderPolyfill;
