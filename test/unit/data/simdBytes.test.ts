// The WebAssembly SIMD byte routines (src/data/columns/simdBytes.ts: the ASCII fold and the
// substring search) and the literal contains built on them (textScan): every position a naive
// search finds, in order, and answers equal to a RegExp `i`
// (and `toLowerCase().includes`) run on the decoded rows, for ASCII and non-ASCII text, whatever
// the needle's position against the fold's 16-byte steps.
import { describe, expect, it } from 'vitest';
import type { ColumnData, TextScanRequest } from '../../../schema/columnar.js';
import { byteSearch, foldAscii, searchArea } from '../../../src/data/columns/simdBytes.js';
import { textScan } from '../../../src/data/columns/textScan.js';

const reference = (b: number) => (b >= 0x41 && b <= 0x5a ? b + 0x20 : b);

function textColumn(rows: Array<string | null>): Extract<ColumnData, { kind: 'utf8' }> {
  const enc = new TextEncoder();
  const parts = rows.map((r) => (r === null ? new Uint8Array(0) : enc.encode(r)));
  const offsets = new Int32Array(rows.length + 1);
  parts.forEach((p, i) => (offsets[i + 1] = offsets[i]! + p.length));
  const bytes = new Uint8Array(offsets[rows.length]!);
  parts.forEach((p, i) => bytes.set(p, offsets[i]!));
  return { kind: 'utf8', type: 'string', bytes, offsets, valid: Uint8Array.from(rows, (r) => (r === null ? 0 : 1)) };
}

describe('foldAscii', () => {
  it('lowercases exactly A-Z and keeps every other byte, at any length (the 16-byte steps and the tail)', () => {
    for (let length = 0; length <= 300; length += 7) {
      const bytes = Uint8Array.from({ length }, (_, i) => (i * 37 + length) & 0xff);
      const folded = foldAscii(bytes);
      expect(folded).not.toBeNull();
      expect([...folded!]).toEqual([...bytes].map(reference));
      expect(folded!.length).toBe(length);
    }
    const every = Uint8Array.from({ length: 256 }, (_, i) => i);
    expect([...foldAscii(every)!]).toEqual([...every].map(reference));
  });

  it('leaves its input untouched and grows for a large page', () => {
    const big = new Uint8Array(3 * 1024 * 1024 + 5).fill(0x41);
    const folded = foldAscii(big)!;
    expect(folded.length).toBe(big.length);
    expect(folded[0]).toBe(0x61);
    expect(folded[big.length - 1]).toBe(0x61);
    expect(big[0]).toBe(0x41);
  });
});

/** Every start position of `needle` in `hay`, by a plain loop. */
function naive(hay: Uint8Array, needle: Uint8Array): number[] {
  const out: number[] = [];
  outer: for (let i = 0; i + needle.length <= hay.length; i++) {
    for (let j = 0; j < needle.length; j++) if (hay[i + j] !== needle[j]) continue outer;
    out.push(i);
  }
  return out;
}

function all(hay: Uint8Array, needle: Uint8Array, fold = false): number[] {
  const s = byteSearch(hay, needle, fold)!;
  const out: number[] = [];
  for (let p = s.next(0); p >= 0; p = s.next(p + 1)) out.push(p);
  return out;
}

describe('byteSearch', () => {
  it('finds every position a plain loop finds, for needles of 1 to 40 bytes, near the ends and across 16-byte steps', () => {
    let seed = 7;
    const rand = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) >>> 8) & 0xff;
    for (let round = 0; round < 300; round++) {
      const n = rand() + (round % 3) * 37;
      // a small alphabet so needles repeat, overlap and straddle the 16-byte steps
      const hay = Uint8Array.from({ length: n }, () => [0x61, 0x62, 0xff, 0x00][rand() & 3]!);
      const k = 1 + (rand() % 40);
      const at = n > k ? rand() % (n - k) : 0;
      const needle =
        round % 2 === 0 && n >= k
          ? hay.slice(at, at + k)
          : Uint8Array.from({ length: k }, () => [0x61, 0x62][rand() & 1]!);
      expect(all(hay, needle), `round ${round}`).toEqual(naive(hay, needle));
    }
  });

  it('finds every position in long prose, where the filter skips 64 positions a step, at every offset of that step', () => {
    // few candidates: the skip runs long, then a hit (or a near miss) at each offset of a 64-byte step
    const enc = new TextEncoder();
    const words = ['the', 'of', 'digital', 'twins', 'and', 'quantum', 'sensing', 'a', 'for', 'zebra', 'é', 'jaxz'];
    let seed = 3;
    const rand = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) >>> 8) & 0xffff;
    for (const text of ['digital twin', 'quantum', 'twin', 'jaxz q', 'zz', 'éa', 'x', 'the twin of a digital']) {
      const needle = enc.encode(text);
      for (let round = 0; round < 12; round++) {
        const parts: string[] = [];
        while (parts.join(' ').length < 3000) parts.push(words[rand() % words.length]!);
        const hay = enc.encode(parts.join(' '));
        // the needle, and the needle with one byte changed, planted at offsets 0..63 of a step
        for (let k = 0; k < 6; k++) {
          const at = 64 * (1 + (rand() % 40)) + ((round * 6 + k) % 64);
          if (at + needle.length > hay.length) continue;
          hay.set(needle, at);
          if (k % 2 === 1) hay[at + (rand() % needle.length)] ^= 1;
        }
        expect(all(hay, needle), `${text} round ${round}`).toEqual(naive(hay, needle));
        expect(all(hay, needle, true), `${text} folded, round ${round}`).toEqual(naive(foldAscii(hay)!, needle));
      }
    }
  });

  it('reads past a full batch of hits (16,384 a call) without losing or repeating one', () => {
    const hay = new Uint8Array(100_003).fill(0x61);
    expect(all(hay, Uint8Array.of(0x61, 0x61))).toEqual(naive(hay, Uint8Array.of(0x61, 0x61)));
    const s = byteSearch(hay, Uint8Array.of(0x61), false)!;
    expect([s.next(0), s.next(50_000), s.next(99_000), s.next(100_002), s.next(100_003)]).toEqual([
      0, 50_000, 99_000, 100_002, -1,
    ]);
  });

  it('a needle longer than the bytes finds nothing; folding matches any case of ASCII letters only', () => {
    expect(all(Uint8Array.of(1, 2), Uint8Array.of(1, 2, 3))).toEqual([]);
    const hay = new TextEncoder().encode('Laser LASER lAsEr Łaser laserÉ');
    expect(all(hay, new TextEncoder().encode('laser'), true)).toEqual([0, 6, 12, 25]); // 'Ł' is two bytes
    expect(all(hay, new TextEncoder().encode('laser'), false)).toEqual([25]);
  });
});

describe('searchArea: bytes read straight into the search memory', () => {
  it('are searched where they are, at any offset, folded in place, with the positions a copy gives', () => {
    let seed = 11;
    const rand = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) >>> 8) & 0xff;
    for (let round = 0; round < 200; round++) {
      const n = 1 + rand() * 3;
      const hay = Uint8Array.from({ length: n }, () => [0x61, 0x41, 0x62, 0xc3, 0xa9][rand() % 5]!);
      const k = 1 + (rand() % 12);
      const needle = Uint8Array.from({ length: k }, () => [0x61, 0x62][rand() & 1]!);
      const fold = round % 2 === 1;
      const want = all(hay, needle, fold);
      // the page somewhere inside the area, as a page of rows sits inside its blocks
      const at = rand() % 40;
      const area = searchArea(at + n + (rand() % 40))!;
      area.set(hay, at);
      expect(all(area.subarray(at, at + n), needle, fold), `round ${round}`).toEqual(want);
      if (fold) expect([...searchArea(at + n)!.subarray(at, at + n)]).toEqual([...foldAscii(hay)!]);
    }
  });

  it('keeps its bytes when a long needle makes the memory grow', () => {
    // an area that fits the memory as it is, with just the room kept for a needle of 4 KiB after it
    const size = searchArea(1)!.buffer.byteLength;
    const hay = new Uint8Array(size - 69_680).fill(0x62);
    hay[10] = 0x61;
    hay[hay.length - 9_000] = 0x61;
    const area = searchArea(hay.length)!;
    expect(area.buffer.byteLength).toBe(size);
    area.set(hay);
    const needle = new Uint8Array(8_000).fill(0x62); // longer than that room
    needle[0] = 0x61;
    expect(all(area, needle)).toEqual([10, hay.length - 9_000]);
    expect(searchArea(1)!.buffer.byteLength).toBeGreaterThan(size);
  });
});

describe('textScan: case-insensitive literal contains over the folded bytes', () => {
  const rows: Array<string | null> = [];
  const samples = [
    'Digital Twin',
    'DIGITAL TWIN',
    'digital twin',
    'Digital  Twin',
    'DİGİTAL TWİN', // dotted capital I (U+0130): not ASCII, never folds to "i" under a RegExp `i`
    'digital twın', // dotless i (U+0131)
    'ſtraße STRASSE', // long s (U+017F) uppercases to "S"; a RegExp `i` without `u` does not fold it
    'KELVIN \u212A k K', // Kelvin sign
    'café CAFÉ Café',
    '😀 Laser LASER laser 😀',
    'Ä ä Ö ö Ü ü',
  ];
  // the needle at every position against the fold's 16-byte steps, in ASCII and non-ASCII rows
  for (let pad = 0; pad < 40; pad++)
    for (const s of samples) rows.push(`${'x'.repeat(pad)}${pad % 3 === 0 ? 'é' : ''}${s}${'y'.repeat(pad % 5)}`);
  rows.push(null, '', 'digital', 'twin');
  const col = textColumn(rows);
  const allAscii = textColumn(rows.filter((r) => r === null || /^[\x00-\x7f]*$/.test(r)));
  const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

  for (const needle of ['digital twin', 'DIGITAL twin', 'Laser', 'strasse', 'k', 'ss', 'i', 'Café', 'É', 'twİn']) {
    it(`fold 'regex' equals new RegExp(needle, 'i').test per row: ${JSON.stringify(needle)}`, () => {
      for (const c of [col, allAscii]) {
        const req: TextScanRequest = { op: 'contains', needle, fold: 'regex' };
        const got = textScan(c, 0, c.valid.length, req);
        const decoded = new TextDecoder();
        const re = new RegExp(escape(needle), 'i');
        const want = Array.from(c.valid, (v, i) =>
          v ? (re.test(decoded.decode(c.bytes.subarray(c.offsets[i], c.offsets[i + 1]))) ? 1 : 0) : 2,
        );
        if (got === null)
          expect(/^[\x00-\x7f]*$/.test(needle)).toBe(false); // only a non-ASCII needle is left to the guest
        else expect([...got]).toEqual(want);
      }
    });

    it(`fold 'lower' equals toLowerCase().includes per row: ${JSON.stringify(needle)}`, () => {
      for (const c of [col, allAscii]) {
        const got = textScan(c, 0, c.valid.length, { op: 'contains', needle, fold: 'lower' });
        const decoded = new TextDecoder();
        const low = needle.toLowerCase();
        const want = Array.from(c.valid, (v, i) =>
          v
            ? decoded
                .decode(c.bytes.subarray(c.offsets[i], c.offsets[i + 1]))
                .toLowerCase()
                .includes(low)
              ? 1
              : 0
            : 2,
        );
        expect([...got!]).toEqual(want);
      }
    });
  }
});
