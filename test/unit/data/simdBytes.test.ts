// The WebAssembly SIMD row search (src/data/columns/simdBytes.ts rowSearch: which rows of a page
// hold a needle, with or without ASCII case folding) and the literal contains built on it
// (textScan): the rows a plain per-row loop finds, and answers equal to a RegExp `i` (and
// `toLowerCase().includes`) run on the decoded rows, for ASCII and non-ASCII text, whatever the
// needle's position against the search's 16- and 64-byte steps and its rows' bounds.
import { describe, expect, it } from 'vitest';
import type { ColumnData, TextScanRequest } from '../../../schema/columnar.js';
import { rowSearch, searchArea } from '../../../src/data/columns/simdBytes.js';
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

/** Whether `hay[a, b)` holds `needle` (A-Z of the hay lowercased first when `fold`), by a plain loop. */
function holds(hay: Uint8Array, a: number, b: number, needle: Uint8Array, fold: boolean): boolean {
  outer: for (let i = a; i + needle.length <= b; i++) {
    for (let j = 0; j < needle.length; j++)
      if ((fold ? reference(hay[i + j]!) : hay[i + j]) !== needle[j]) continue outer;
    return true;
  }
  return false;
}

/** rowSearch's answer as plain numbers, and the plain loop's, for rows [start, end) of `offsets` over `hay` (bytes from `base`). */
function both(
  hay: Uint8Array,
  needle: Uint8Array,
  fold: boolean,
  offsets: Int32Array,
  start = 0,
  end = offsets.length - 1,
  base = offsets[start]!,
): [number[], number[]] {
  const got = rowSearch(hay, needle, fold, offsets, start, end, base);
  expect(got).not.toBeNull();
  const want = Array.from({ length: end - start }, (_, r) =>
    holds(hay, offsets[start + r]! - base, offsets[start + r + 1]! - base, needle, fold) ? 1 : 0,
  );
  return [[...got!], want];
}

/** Cuts `n` bytes into rows at random bounds (empty rows included); `rand` gives 0..255. */
function randomBounds(n: number, rand: () => number): Int32Array {
  const bounds = [0];
  while (bounds[bounds.length - 1]! < n) bounds.push(Math.min(n, bounds[bounds.length - 1]! + (rand() % 50)));
  return Int32Array.from(bounds);
}

describe('rowSearch', () => {
  it('marks the rows a plain loop finds, for needles of 1 to 40 bytes, folded or not, hits across row bounds', () => {
    let seed = 7;
    const rand = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) >>> 8) & 0xff;
    for (let round = 0; round < 400; round++) {
      const n = rand() + (round % 3) * 37;
      // a small alphabet so needles repeat, overlap and straddle the 16-byte steps and the rows' bounds
      const hay = Uint8Array.from({ length: n }, () => [0x61, 0x62, 0x41, 0xff, 0x00][rand() % 5]!);
      const k = 1 + (rand() % 40);
      const at = n > k ? rand() % (n - k) : 0;
      const fold = round % 4 >= 2;
      const needle =
        round % 2 === 0 && n >= k
          ? hay.slice(at, at + k).map((b) => (fold ? reference(b) : b))
          : Uint8Array.from({ length: k }, () => [0x61, 0x62][rand() & 1]!);
      const [got, want] = both(hay, needle, fold, randomBounds(n, rand));
      expect(got, `round ${round}`).toEqual(want);
    }
  });

  it('marks every row in long prose, where the filter skips 64 positions a step, with a hit at every offset of that step', () => {
    // few candidates: the skip runs long, then a hit (or a near miss) at each offset of a 64-byte step
    const enc = new TextEncoder();
    const words = ['the', 'of', 'Digital', 'twins', 'and', 'QUANTUM', 'sensing', 'a', 'for', 'zebra', 'é', 'jaxz'];
    let seed = 3;
    const rand = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) >>> 8) & 0xffff;
    for (const text of ['digital twin', 'quantum', 'twin', 'jaxz q', 'zz', 'éa', 'x', 'the twin of a digital']) {
      const needle = enc.encode(text);
      for (let round = 0; round < 12; round++) {
        const parts: string[] = [];
        while (parts.join(' ').length < 3000) parts.push(words[rand() % words.length]!);
        const hay = enc.encode(parts.join(' '));
        // the needle (some of it upper-case), and the needle with one byte changed, planted at offsets 0..63 of a step
        for (let k = 0; k < 6; k++) {
          const at = 64 * (1 + (rand() % 40)) + ((round * 6 + k) % 64);
          if (at + needle.length > hay.length) continue;
          hay.set(
            needle.map((b, i) => (i % 2 === round % 2 && b >= 0x61 && b <= 0x7a ? b - 0x20 : b)),
            at,
          );
          if (k % 2 === 1) hay[at + (rand() % needle.length)] ^= 1;
        }
        // rows of a few hundred bytes, so a row with a hit is left for the next and most rows have none
        const bounds = [0];
        while (bounds[bounds.length - 1]! < hay.length)
          bounds.push(Math.min(hay.length, bounds[bounds.length - 1]! + 1 + (rand() % 400)));
        const offsets = Int32Array.from(bounds);
        for (const fold of [false, true]) {
          const [got, want] = both(hay, needle, fold, offsets);
          expect(got, `${text} ${fold ? 'folded' : ''} round ${round}`).toEqual(want);
        }
      }
    }
  });

  it('counts a hit only inside its row: one that ends exactly at the row end counts, one a byte longer does not', () => {
    const hay = new TextEncoder().encode('xxlaser|laseR|xxlas|erxx|laser');
    const needle = new TextEncoder().encode('laser');
    const offsets = Int32Array.of(0, 7, 13, 18, 23, 29, 29, 30);
    expect(both(hay, needle, false, offsets)[0]).toEqual([1, 0, 0, 0, 0, 0, 0]);
    expect(both(hay, needle, true, offsets)[0]).toEqual([1, 1, 0, 0, 0, 0, 0]);
    // the row bounds hold where the same bytes sit in a longer column: rows 1-4 of it, from byte 7
    const [got, want] = both(hay.subarray(7, 23), needle, true, offsets, 1, 4, 7);
    expect(got).toEqual(want);
    expect(got).toEqual([1, 0, 0]);
  });

  it('folds A-Z only: punctuation one bit away from a needle byte, and bytes above 0x7f, match only themselves', () => {
    const enc = new TextEncoder();
    // '[' | 0x20 is '{', '@' | 0x20 is '`': the filter ORs 0x20 into letters' positions only
    const hay = enc.encode('{x|`a|[X|@A|Łaser|ŁASER|laserÉ');
    const offsets = Int32Array.of(0, 2, 3, 5, 6, 8, 9, 11, 12, 18, 19, 25, 26, 33);
    const rows = (needle: string, fold: boolean) => both(hay, enc.encode(needle), fold, offsets)[0];
    expect(rows('[x', true)).toEqual([0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0]);
    expect(rows('@a', true)).toEqual([0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0]);
    expect(rows('laser', true)).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1]);
    expect(rows('aser', true)).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 1, 0, 1]);
    expect(rows('aser', false)).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1]);
  });

  it('a needle longer than the bytes, or no rows, marks nothing; an empty needle is left to the caller', () => {
    expect([...rowSearch(Uint8Array.of(1, 2), Uint8Array.of(1, 2, 3), false, Int32Array.of(0, 2), 0, 1, 0)!]).toEqual([
      0,
    ]);
    expect([...rowSearch(new Uint8Array(0), Uint8Array.of(1), true, Int32Array.of(5), 0, 0, 5)!]).toEqual([]);
    expect(rowSearch(Uint8Array.of(1), new Uint8Array(0), false, Int32Array.of(0, 1), 0, 1, 0)).toBeNull();
  });
});

describe('searchArea: bytes read straight into the search memory', () => {
  it('are searched where they are, at any offset, unchanged, with the rows a copy gives', () => {
    let seed = 11;
    const rand = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) >>> 8) & 0xff;
    for (let round = 0; round < 200; round++) {
      const n = 1 + rand() * 3;
      const hay = Uint8Array.from({ length: n }, () => [0x61, 0x41, 0x62, 0xc3, 0xa9][rand() % 5]!);
      const k = 1 + (rand() % 12);
      const needle = Uint8Array.from({ length: k }, () => [0x61, 0x62][rand() & 1]!);
      const fold = round % 2 === 1;
      const offsets = randomBounds(n, rand);
      const [want] = both(hay, needle, fold, offsets);
      // the page somewhere inside the area, as a page of rows sits inside its blocks
      const at = rand() % 40;
      const area = searchArea(at + n + (rand() % 40))!;
      area.set(hay, at);
      expect(both(area.subarray(at, at + n), needle, fold, offsets)[0], `round ${round}`).toEqual(want);
      expect([...searchArea(at + n)!.subarray(at, at + n)]).toEqual([...hay]);
    }
  });

  it('keeps its bytes when a long needle makes the memory grow', () => {
    // an area that fits the memory as it is, with just the room kept after it for a needle of 4 KiB and a page's rows
    const size = searchArea(1_000_000)!.buffer.byteLength;
    const hay = new Uint8Array(size - 86_144).fill(0x62);
    hay[10] = 0x61;
    hay[hay.length - 109_000] = 0x61;
    const area = searchArea(hay.length)!;
    expect(area.buffer.byteLength).toBe(size);
    area.set(hay);
    const needle = new Uint8Array(100_000).fill(0x62); // longer than that room
    needle[0] = 0x61;
    const offsets = Int32Array.of(0, 5, 200_000, hay.length - 110_000, hay.length);
    expect(both(area, needle, false, offsets)[0]).toEqual([0, 1, 0, 1]);
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
