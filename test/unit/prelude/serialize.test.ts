// Serialization inside the isolate: documented conversions, caps, and hostile values.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createHarness, type Harness } from './harness.js';
import { expectNoHang } from '../../helpers/hangGuard.js';

let h: Harness;
beforeAll(() => {
  h = createHarness();
});
afterAll(() => h.dispose());

describe('conversions (docs/prelude.md "Result values")', () => {
  test('every special value', async () => {
    const r = await h.run(`var sym = Symbol('k');
      var o = { n: 12345678901234567890n, d: new Date(Date.UTC(2020, 0, 2)), bad: new Date(NaN),
        m: new Map([['a', 1], [2, 'b']]), m2: new Map([[{ k: 1 }, 'v']]), s: new Set([1, 'x']),
        ta: new Float64Array([1.5, -0]), nan: NaN, inf: Infinity, nz: -0, f: function named() {}, anon: (() => () => 1)(),
        c: class K {}, re: /a+/gi, u: undefined, err: new TypeError('bad'), sy: Symbol('v'), [sym]: 'skipped',
        get g() { throw new Error('getters are never invoked'); }, set s2(v) {}, nested: [undefined, null] };
      o.self = o; o`);
    expect(r.value).toEqual({
      n: '12345678901234567890n',
      d: '2020-01-02T00:00:00.000Z',
      bad: null,
      m: { a: 1, 2: 'b' },
      m2: [[{ k: 1 }, 'v']],
      s: [1, 'x'],
      ta: [1.5, 0],
      nan: null,
      inf: null,
      nz: 0,
      f: '[Function named]',
      anon: '[Function (anonymous)]',
      c: '[class K]',
      re: '/a+/gi',
      err: { name: 'TypeError', message: 'bad' },
      g: '[Getter]',
      s2: '[Setter]',
      nested: [null, null],
      self: '[Circular]',
    });
    expect(r.truncatedValue).toBe(false);
  });
  test('an own __proto__ key survives as a plain own property', async () => {
    const r = await h.run('JSON.parse(\'{"__proto__": {"polluted": true}, "a": 1}\')');
    expect(r.raw).toContain('"__proto__":{"polluted":true}');
    expect(Object.getOwnPropertyNames(r.value)).toEqual(['__proto__', 'a']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
  test('a nested table becomes row objects', async () => {
    expect((await h.run("({ top: award_data.select('Agency').head(2) })")).value).toEqual({
      top: [{ Agency: 'DOD' }, { Agency: 'NASA' }],
    });
  });
  test('valueText is readable; a string value is its own text', async () => {
    expect((await h.run("({ a: 1, 'b c': [1, 'x'] })")).valueText).toBe("{ a: 1, 'b c': [ 1, 'x' ] }");
    expect((await h.run("'line1\\nline2'")).valueText).toBe('line1\nline2');
  });
});

describe('caps', () => {
  test('shared subtrees ("billion laughs") stop at the byte cap, fast', async () => {
    const t0 = Date.now();
    const r = await h.run('var laughs = [1]; for (let i = 0; i < 40; i++) laughs = [laughs, laughs]; laughs');
    expectNoHang(Date.now() - t0, 500, 'capping shared subtrees');
    expect(r.truncatedValue).toBe(true);
    expect(r.raw.length).toBeLessThanOrEqual(256 * 1024 + 512);
  });
  test('a long array is cut at maxResultBytes', async () => {
    const small = createHarness({ limits: { maxResultBytes: 2000 } });
    try {
      const r = await small.run("Array.from({ length: 100000 }, (_, i) => 'item ' + i)");
      expect(r.truncatedValue).toBe(true);
      expect(Buffer.byteLength(r.raw)).toBeLessThanOrEqual(2000 + 200);
      expect((r.value as string[])[0]).toBe('item 0');
      const big = await small.run("'x'.repeat(1e6)");
      expect(big.truncatedValue).toBe(true);
      expect(Buffer.byteLength(big.raw)).toBeLessThanOrEqual(2200);
    } finally {
      small.dispose();
    }
  });
  test('tables are capped by maxRows and bytes, Markdown says how many rows it shows', async () => {
    const small = createHarness({ limits: { maxRows: 3 } });
    try {
      const r = await small.run('award_data');
      expect(r.table).toMatchObject({ totalRows: 8, truncated: true });
      expect(r.table!.rows).toHaveLength(3);
      expect(r.table!.markdown.endsWith('(3 of 8 rows shown)')).toBe(true);
      expect(r.truncatedValue).toBe(true);
    } finally {
      small.dispose();
    }
    const tiny = createHarness({ limits: { maxResultBytes: 600 } });
    try {
      const r = await tiny.run('award_data');
      expect(r.table!.truncated).toBe(true);
      expect(r.table!.rows.length).toBeLessThan(8);
      expect(Buffer.byteLength(r.raw)).toBeLessThanOrEqual(800);
    } finally {
      tiny.dispose();
    }
  });
  test('deep nesting is cut at depth 32', async () => {
    const r = await h.run(
      'var deep = {}; var cur = deep; for (let i = 0; i < 100; i++) { cur.x = {}; cur = cur.x; } deep',
    );
    expect(r.truncatedValue).toBe(true);
    expect(r.raw).toContain('"[Object]"');
  });
  test('table cells: dates as ISO strings, NaN/Infinity as null', async () => {
    const r = await h.run(
      'aq.table({ d: [new Date(Date.UTC(2021, 5, 1)), null], x: [NaN, Infinity], b: [true, null] })',
    );
    expect(r.table).toMatchObject({
      columns: ['d', 'x', 'b'],
      dtypes: ['date', 'number', 'boolean'],
      rows: [
        ['2021-06-01T00:00:00.000Z', null, true],
        [null, null, null],
      ],
    });
  });
});
