// The CSV text builder's append-only bytes (src/data/columns/byteStore.ts): cells of every length
// on both sides of the length where a cell stops being copied a byte at a time and is copied by
// one native call, from any offset of the input, across the store's growth steps, with and without
// `""` pairs collapsed, give exactly the bytes appended, in order.
import { describe, expect, it } from 'vitest';
import { ByteStore } from '../../../src/data/columns/byteStore.js';

/** A deterministic input of `n` bytes, quotes among them (xorshift32). */
function input(n: number, seed: number): Buffer {
  const buf = Buffer.alloc(n);
  let x = seed;
  for (let i = 0; i < n; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    const b = (x >>> 0) % 97;
    buf[i] = b < 6 ? 0x22 : 0x20 + b;
  }
  return buf;
}

/** A quoted field's inside as the file holds it: each `"` of `text` written as `""`. */
function escaped(text: Buffer): Buffer {
  const out: number[] = [];
  for (const b of text) out.push(...(b === 0x22 ? [0x22, 0x22] : [b]));
  return Buffer.from(out);
}

describe('ByteStore', () => {
  it('appends cells of every length 0-120 from any offset, as they are', () => {
    const buf = input(1 << 16, 0x2545f491);
    const store = new ByteStore(1 << 24);
    const expected: number[] = [];
    let at = 7;
    for (let round = 0; round < 40; round++)
      for (let len = 0; len <= 120; len++) {
        const s = at % (buf.length - 130);
        expect(store.append(buf, s, s + len)).toBe(expected.length + len);
        for (let k = s; k < s + len; k++) expected.push(buf[k]!);
        at = (at * 31 + len + 1) % 1_000_003;
      }
    expect(Array.from(store.finish())).toEqual(expected);
  });

  it('collapses the quote pairs of cells of every length 0-120 to the text they stand for', () => {
    const text = input(1 << 14, 0x9e3779b9);
    const store = new ByteStore(1 << 22);
    const expected: number[] = [];
    for (let len = 0; len <= 120; len++)
      for (let s = 0; s < 600; s += 37) {
        const cell = escaped(text.subarray(s, s + len));
        // the cell sits at an odd place of a larger input, as in a chunk of the file
        const buf = Buffer.concat([Buffer.from('x,"'), cell, Buffer.from('",y')]);
        store.appendUnescaped(buf, 3, 3 + cell.length);
        expected.push(...text.subarray(s, s + len));
      }
    expect(Array.from(store.finish())).toEqual(expected);
  });

  it('refuses to grow past its bound', () => {
    const store = new ByteStore(100);
    const buf = input(200, 7);
    store.append(buf, 0, 60);
    expect(() => store.append(buf, 60, 160)).toThrow(RangeError);
  });
});

describe('ByteStore.finish', () => {
  it('hands over the bytes in a plain buffer of their exact size, copied in steps across 16 MiB', () => {
    const piece = input(1 << 20, 0x1b873593);
    const store = new ByteStore(1 << 27);
    const n = 40 * (1 << 20) + 12_345; // two whole steps and a part
    for (let at = 0; at < n; at += 777) store.append(piece, at % 1000, (at % 1000) + Math.min(777, n - at));
    const out = store.finish();
    expect((out.buffer as { resizable?: boolean }).resizable).toBe(false);
    expect(out.byteLength).toBe(n);
    expect(out.buffer.byteLength).toBe(n);
    for (let at = 0; at < n; at += 777) {
      const len = Math.min(777, n - at);
      const want = piece.subarray(at % 1000, (at % 1000) + len);
      if (!Buffer.from(out.buffer, at, len).equals(want)) throw new Error(`bytes at ${at} differ`);
    }
    expect(store.finish()).toBe(out);
  });
});
