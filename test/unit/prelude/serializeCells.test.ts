// The result serializer's short ways (session 24): a table's cells written without a writeJson
// context each (`writeCell`), an array's elements read by index instead of through a generator, pieces
// known to be ASCII counted by their length, and utf8Length's one native scan of an ASCII string.
// Each against the long way it replaces, on values of every kind and on budgets that cut the text
// anywhere: the same text, the same bytes left, the same truncation flag.
import { describe, expect, test } from 'vitest';
import { Budget, JsonOut } from '../../../prelude/serialize/jsonOut.js';
import { writeCell, writeJson } from '../../../prelude/serialize/writeJson.js';
import { utf8Length } from '../../../prelude/polyfills/utf8.js';

const VALUES: unknown[] = [
  0,
  -0,
  1,
  -1.5,
  1e21,
  5e-324,
  NaN,
  Infinity,
  -Infinity,
  '',
  'plain',
  'quote " back \\ slash',
  'ünïcödé €',
  '\ud83d\ude00 emoji',
  '\ud800 lone',
  '\n\t\u0000',
  null,
  undefined,
  true,
  false,
  new Date(Date.UTC(2020, 1, 3)),
  new Date(NaN),
  [1, [2, [3, [4, [5, [6]]]]]],
  { a: 1, b: 'x' },
  new Map([['k', 1]]),
  new Set([1, 2]),
  12n,
  Symbol('s'),
  () => 1,
  /re/g,
];

/** What the long way wrote: text, bytes left, truncated. */
function written(f: (out: JsonOut) => boolean, bytes: number): [boolean, string, number, boolean] {
  const budget = new Budget(bytes);
  const out = new JsonOut(budget);
  const ok = f(out);
  return [ok, out.text(), budget.remaining, budget.truncated];
}

/** The generator read of an array writeJson used before (session 23), with its `items` loop. */
function arrayTheLongWay(a: ArrayLike<unknown>, out: JsonOut): boolean {
  function* iter(): Iterable<unknown> {
    const n = a.length;
    for (let i = 0; i < n; i++) yield a[i];
  }
  if (!out.open('[')) return false;
  let first = true;
  for (const v of iter()) {
    const m = out.mark();
    if ((!first && !out.push(',')) || !writeJson(v === undefined ? null : v, out, { maxDepth: 31 })) {
      out.rollback(m);
      out.budget.truncated = true;
      break;
    }
    first = false;
  }
  out.close(']');
  return true;
}

describe('the serializer short ways write what the long ways wrote', () => {
  test('a cell of every kind, under every budget', () => {
    const opts = { maxDepth: 4, maxRows: 20 };
    for (const v of VALUES)
      for (let bytes = 0; bytes <= 40; bytes++)
        expect(
          written((out) => writeCell(v, out, opts), bytes),
          `${String(typeof v === 'symbol' ? 'symbol' : v)} in ${bytes}`,
        ).toEqual(written((out) => writeJson(v, out, opts), bytes));
  });

  test('arrays: holes, undefined, typed arrays, nested, under every budget', () => {
    const holes: unknown[] = [1, , 3]; // eslint-disable-line no-sparse-arrays
    const arrays: ArrayLike<unknown>[] = [
      [],
      VALUES.filter((v) => typeof v !== 'symbol'),
      holes,
      [undefined, null, -0, 'ü'],
      new Float64Array([1.5, -0, NaN]),
      new Int32Array([7, -8]),
      Array.from({ length: 40 }, (_, i) => [1983 + i, i * 37]),
    ];
    for (const [k, a] of arrays.entries())
      for (let bytes = 0; bytes <= 400; bytes += 3)
        expect(
          written((out) => writeJson(a, out), bytes),
          `array ${k} in ${bytes}`,
        ).toEqual(written((out) => arrayTheLongWay(a, out), bytes));
  });

  test('utf8Length counts the bytes Buffer counts, ASCII or not, short or long', () => {
    const texts = [
      '',
      'a',
      'abcdefgh',
      'abcdefghi',
      'x'.repeat(5000),
      'x'.repeat(20) + 'é',
      'é' + 'x'.repeat(20),
      '\ud83d\ude00'.repeat(9),
      'abcdefghij\ud800',
      'abcdefghij\udc00x',
      '\u007f'.repeat(12),
      '\u0080'.repeat(12),
      '\u07ff\u0800\uffff'.repeat(4),
    ];
    for (const s of texts) expect(utf8Length(s), JSON.stringify(s)).toBe(Buffer.byteLength(s, 'utf8'));
  });

  test('pushAscii takes what push takes for ASCII pieces, under every budget', () => {
    for (const piece of ['', ',', 'null', '-1.5e-7', '123456789012']) {
      for (let bytes = 0; bytes <= 14; bytes++) {
        expect(written((out) => out.pushAscii(piece), bytes)).toEqual(written((out) => out.push(piece), bytes));
      }
    }
  });
});
