import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readHybrid } from '../../../../../src/data/formats/parquetColumnar/hybrid.js';
import { PageCorrupt } from '../../../../../src/data/formats/parquetColumnar/pageErrors.js';

/** The reference encoding: one bit-packed run (LSB first), padded to groups of 8 values. */
function bitPacked(values: number[], width: number): number[] {
  const groups = Math.ceil(values.length / 8);
  const bytes = new Array<number>(groups * width).fill(0);
  values.forEach((v, i) => {
    for (let b = 0; b < width; b++)
      if (Math.floor(v / 2 ** b) % 2) bytes[Math.floor((i * width + b) / 8)] |= 1 << ((i * width + b) % 8);
  });
  return [...varint(groups * 2 + 1), ...bytes];
}

function rle(value: number, count: number, width: number): number[] {
  const bytes = [];
  for (let i = 0; i < Math.ceil(width / 8); i++) bytes.push(Math.floor(value / 2 ** (8 * i)) % 256);
  return [...varint(count * 2), ...bytes];
}

function varint(n: number): number[] {
  const out = [];
  while (n >= 0x80) {
    out.push((n % 128) | 0x80);
    n = Math.floor(n / 128);
  }
  out.push(n);
  return out;
}

describe('readHybrid (RLE / bit-packed hybrid)', () => {
  it('decodes any mix of runs at every width 0..32', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 32 }).chain((width) =>
          fc.tuple(
            fc.constant(width),
            fc.array(
              fc.oneof(
                fc.record({
                  rle: fc.constant(true),
                  v: fc.nat({ max: 2 ** width - 1 }),
                  n: fc.integer({ min: 1, max: 300 }),
                }),
                fc.record({
                  rle: fc.constant(false),
                  vs: fc.array(fc.nat({ max: 2 ** width - 1 }), { minLength: 1, maxLength: 40 }),
                }),
              ),
              { minLength: 1, maxLength: 6 },
            ),
          ),
        ),
        ([width, runs]) => {
          const bytes: number[] = [];
          const expected: number[] = [];
          for (const r of runs) {
            if ('v' in r) {
              bytes.push(...rle(r.v, r.n, width));
              expected.push(...new Array<number>(r.n).fill(r.v));
            } else {
              // a bit-packed run always holds whole groups of 8; the padding values are decoded too
              const padded = [...r.vs, ...new Array<number>((8 - (r.vs.length % 8)) % 8).fill(0)];
              bytes.push(...bitPacked(padded, width));
              expected.push(...padded);
            }
          }
          const out = new Int32Array(expected.length);
          const buf = Uint8Array.from(bytes);
          readHybrid(buf, 0, buf.length, width, out, expected.length);
          const want = expected.map((v) => (v > 0x7fffffff ? -1 : v));
          expect(Array.from(out)).toEqual(want);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('refuses a width over 32, a run past the end, and too few values', () => {
    const buf = Uint8Array.from(rle(1, 4, 8));
    expect(() => readHybrid(buf, 0, buf.length, 33, new Int32Array(4), 4)).toThrow(PageCorrupt);
    expect(() => readHybrid(buf, 0, buf.length, 8, new Int32Array(5), 5)).toThrow(/stop after 4 of 5/);
    const packed = Uint8Array.from(bitPacked([1, 2, 3, 4, 5, 6, 7, 0], 3));
    expect(() => readHybrid(packed, 0, packed.length - 2, 3, new Int32Array(8), 8)).toThrow(/needs 3 bytes/);
    expect(() =>
      readHybrid(Uint8Array.from([0x80, 0x80, 0x80, 0x80, 0x80, 0x01]), 0, 6, 1, new Int32Array(1), 1),
    ).toThrow(/longer than 5 bytes/);
  });
});
