// Column decoding inside the isolate (lazy, per kind) and the UTF-8 polyfill.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { utf8Decode, utf8Encode, utf8Length } from '../../../prelude/polyfills/utf8.js';
import { createHarness, type Harness } from './harness.js';
import { bool, columnar, dict, f64, utf8 } from './fixture.js';

let h: Harness;
beforeAll(() => {
  h = createHarness({
    tables: [
      columnar('award_data', {
        s: utf8(['a', null, '', 'ü€😀', 'x\ny']),
        k: dict(['p', 'q', null, 'p', 'ü']),
        n: f64([1.5, null, 3, NaN, -0]),
        i: f64([1, 2, 3, 4, 5], 'integer'),
        d: f64(['2020-02-29', null, '1999-12-31', '2024-01-01', '1970-01-01'], 'date'),
        b: bool([true, false, null, true, false]),
      }),
    ],
  });
});
afterAll(() => h.dispose());

describe('columns load lazily, on first access, once', () => {
  test('nothing is fetched until a value is read', async () => {
    expect((await h.run('award_data.numRows() + award_data.columnNames().length')).value).toBe(11);
    expect(h.fetched).toEqual([]);
    await h.run("award_data.filter(d => d.i > 2).numRows(); award_data.array('i')");
    expect(h.fetched).toEqual(['award_data/i']);
    await h.run("award_data.select('s').head(1)");
    expect(h.fetched).toEqual(['award_data/i', 'award_data/s']);
  });
});

describe('decoded values', () => {
  test('per kind, with nulls', async () => {
    const r = await h.run("['s', 'k', 'n', 'i', 'd', 'b'].map(c => award_data.array(c))");
    expect(r.value).toEqual([
      ['a', null, '', 'ü€😀', 'x\ny'],
      ['p', 'q', null, 'p', 'ü'],
      [1.5, null, 3, null, 0],
      [1, 2, 3, 4, 5],
      [
        '2020-02-29T00:00:00.000Z',
        null,
        '1999-12-31T00:00:00.000Z',
        '2024-01-01T00:00:00.000Z',
        '1970-01-01T00:00:00.000Z',
      ],
      [true, false, null, true, false],
    ]);
  });
  test('dates are Date objects that op.year and year() read in UTC', async () => {
    const r = await h.run(
      "award_data.derive({ y: d => op.year(d.d), m: d => month(d.d), isDate: d => d.d instanceof Date }).select('y', 'm', 'isDate').objects()",
    );
    expect(r.value).toEqual([
      { y: 2020, m: 2, isDate: true },
      { y: null, m: null, isDate: false },
      { y: 1999, m: 12, isDate: true },
      { y: 2024, m: 1, isDate: true },
      { y: 1970, m: 1, isDate: true },
    ]);
  });
  test('an all-valid float column reads straight from its Float64Array', async () => {
    expect((await h.run("award_data.column('i').at(4) + award_data.get('i', 0)")).value).toBe(6);
  });
  test('dtypes come from the host schema', async () => {
    expect((await h.run('award_data.dtypes')).value).toEqual({
      s: 'string',
      k: 'string',
      n: 'number',
      i: 'integer',
      d: 'date',
      b: 'boolean',
    });
  });
  test('TextDecoder/TextEncoder exist in the isolate', async () => {
    const r = await h.run("[new TextDecoder().decode(new TextEncoder().encode('ü€😀')), typeof TextDecoder]");
    expect(r.value).toEqual(['ü€😀', 'function']);
  });
});

describe('utf8 polyfill', () => {
  const samples = ['', 'ascii', 'ü', '€', '😀', 'a😀b€c', '\u0000', 'x'.repeat(20000) + 'ü'];
  test.each(samples)('round trip %#', (s) => {
    const bytes = utf8Encode(s);
    expect(Buffer.from(bytes).equals(Buffer.from(s, 'utf8'))).toBe(true);
    expect(utf8Decode(bytes)).toBe(s);
    expect(utf8Length(s)).toBe(Buffer.byteLength(s));
  });
  test('invalid sequences decode to U+FFFD like TextDecoder', () => {
    for (const bytes of [
      [0xff],
      [0xc3],
      [0xe2, 0x82],
      [0xed, 0xa0, 0x80],
      [0xf0, 0x9f, 0x98],
      [0x61, 0x80, 0x62],
      [0xc0, 0xaf],
    ]) {
      expect(utf8Decode(Uint8Array.from(bytes))).toBe(new TextDecoder().decode(Uint8Array.from(bytes)));
    }
  });
});
