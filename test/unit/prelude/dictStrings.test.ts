// A dictionary column's strings are decoded when read: a row read decodes the entries it shows, a
// scan decodes the rest once, and the row reads and the fast paths share that one copy. The
// answers must be those of a whole-dictionary decode, in any order of reads within a session.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DictStrings } from '../../../prelude/data/dictStrings.js';
import { utf8Decode, utf8Encode } from '../../../prelude/polyfills/utf8.js';
import { createHarness, type Harness } from './harness.js';
import { columnar, dict } from './fixture.js';

function encoded(strings: string[]): { bytes: Uint8Array; offsets: Int32Array } {
  const parts = strings.map((s) => utf8Encode(s));
  const offsets = new Int32Array(parts.length + 1);
  parts.forEach((p, i) => (offsets[i + 1] = offsets[i]! + p.length));
  const bytes = new Uint8Array(offsets[parts.length]!);
  parts.forEach((p, i) => bytes.set(p, offsets[i]!));
  return { bytes, offsets };
}

describe('DictStrings', () => {
  const words = ['alpha', 'ü€😀', '', 'x\ny', 'zeta', 'Ωmega'];
  test('get decodes one entry, all() decodes the rest once and equals a whole decode', () => {
    const { bytes, offsets } = encoded(words);
    const d = new DictStrings(bytes, offsets);
    expect(d.size).toBe(words.length);
    expect(d.get(3)).toBe('x\ny');
    expect(d.get(1)).toBe('ü€😀');
    expect(d.strings.filter((s) => s !== undefined)).toEqual(['ü€😀', 'x\ny']);
    const all = d.all();
    expect(all).toEqual(words);
    expect(d.all()).toBe(all);
    expect(d.get(4)).toBe('zeta');
  });

  test('all() of a large dictionary (ASCII entries sliced from one string) equals each entry decoded alone', () => {
    // 40,000 entries past the 8,192-byte chunks: ASCII, Latin-1 and wider characters, empty entries,
    // bytes that are not UTF-8 (lossy), entries that straddle a chunk boundary
    const words = Array.from({ length: 40_000 }, (_, k) =>
      k === 997 ? '' : k % 13 === 0 ? `Café ${k}` : k % 101 === 0 ? `😀 ${k} 𝔘` : `Company ${k}, Inc.`,
    );
    const { bytes: good, offsets } = encoded(words);
    const bytes = good.slice();
    const bad = offsets[5 * 13]! + 1; // inside 'Café 65': 0xff where 'a' was
    bytes[bad] = 0xff;
    for (const order of ['rows first', 'all first']) {
      const d = new DictStrings(bytes, offsets);
      if (order === 'rows first') for (const k of [0, 1, 13, 65, 101, 39_999]) d.get(k);
      const all = d.all();
      expect(all.length).toBe(words.length);
      for (let k = 0; k < words.length; k++) {
        const want = utf8Decode(bytes, offsets[k], offsets[k + 1]);
        if (all[k] !== want) expect([k, all[k]]).toEqual([k, want]);
      }
      expect(all[65]).toBe('C\uFFFDfé 65');
      // the lossy entry is noticed: canonical() maps codes (here none repeats: the codes as they are)
      const codes = Int32Array.from([65, 1, -1]);
      expect(d.canonical(codes)).toBe(codes);
    }
    const clean = new DictStrings(good, offsets).all();
    expect(clean).toEqual(words);
  });

  test('invalid UTF-8 decodes as the whole-dictionary decoder does (U+FFFD)', () => {
    const bytes = Uint8Array.from([0x61, 0xff, 0x62, 0xc3, 0x28]);
    const offsets = Int32Array.from([0, 2, 3, 5]);
    const d = new DictStrings(bytes, offsets);
    expect(d.get(2)).toBe(utf8Decode(bytes, 3, 5));
    expect(d.all()).toEqual([utf8Decode(bytes, 0, 2), 'b', utf8Decode(bytes, 3, 5)]);
  });

  test('canonical: codes of entries that decode to one string (bytes that are not UTF-8) share the first code', () => {
    // entries: 'a' + 0xfe, 'ok', 'a' + 0xff, 'a\uFFFD' (valid), 'b' + 0xff: the first, third and fourth read 'a\uFFFD'
    const bytes = Uint8Array.from([0x61, 0xfe, 0x6f, 0x6b, 0x61, 0xff, 0x61, 0xef, 0xbf, 0xbd, 0x62, 0xff]);
    const offsets = Int32Array.from([0, 2, 4, 6, 10, 12]);
    const codes = Int32Array.from([2, 0, -1, 1, 3, 4, 2, 7]);
    const d = new DictStrings(bytes, offsets);
    expect(d.get(2)).toBe('a\uFFFD'); // a row read first: the lossy entry is noted there too
    const c = d.canonical(codes);
    expect([...c]).toEqual([0, 0, -1, 1, 0, 4, 0, 7]); // a code outside the dictionary is left to its checks
    expect(d.canonical(codes)).toBe(c); // made once
    expect([...codes]).toEqual([2, 0, -1, 1, 3, 4, 2, 7]); // the column's own codes are untouched
    // one lossy entry, no repeat: the codes as they are
    const one = new DictStrings(Uint8Array.from([0x61, 0xff, 0x62]), Int32Array.from([0, 2, 3]));
    const own = Int32Array.from([1, 0]);
    expect(one.canonical(own)).toBe(own);
  });

  test('canonical: a dictionary of valid UTF-8 is used as it is (its host interned the entries)', () => {
    const { bytes, offsets } = encoded([...words, '\uFFFD']);
    const codes = Int32Array.from([0, 5, 6, -1]);
    expect(new DictStrings(bytes, offsets).canonical(codes)).toBe(codes);
  });

  test('an empty dictionary', () => {
    const d = new DictStrings(new Uint8Array(0), Int32Array.from([0]));
    expect(d.size).toBe(0);
    expect(d.all()).toEqual([]);
  });
});

describe('a dictionary column read row by row and scanned in one session', () => {
  const values: Array<string | null> = [];
  for (let i = 0; i < 600; i++) values.push(i % 7 === 0 ? null : `name ${i % 97} ${i % 3 ? 'ü' : 'é😀'}`);
  let h: Harness;
  beforeAll(() => {
    h = createHarness({ tables: [columnar('award_data', { k: dict(values) })] });
  });
  afterAll(() => h.dispose());

  const counts = (): Array<[string, number]> => {
    const m = new Map<string, number>();
    for (const v of values) if (v !== null) m.set(v, (m.get(v) ?? 0) + 1);
    return [...m].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  };

  test('a row read first, then a scan, then every row: the same strings as the values', async () => {
    expect((await h.run("award_data.get('k', 5)")).value).toBe(values[5]);
    expect((await h.run('award_data.slice(598).objects().map(r => r.k)')).value).toEqual(values.slice(598));
    const vc = (await h.run('award_data.k.value_counts().to_dict()')).value as Record<string, number>;
    expect(vc).toEqual(Object.fromEntries(counts()));
    const target = values[10]!;
    expect((await h.run(`award_data.filter(d => d.k === ${JSON.stringify(target)}).numRows()`)).value).toBe(
      values.filter((v) => v === target).length,
    );
    expect((await h.run("award_data.array('k')")).value).toEqual(values);
    expect((await h.run("award_data.get('k', 0)")).value).toBeNull();
  });
});
