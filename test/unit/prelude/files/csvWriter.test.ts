// Differential test of to_csv's byte writer (prelude/files/csv/): on random tables (host columns
// read from their typed arrays, plain arrays of any JS values, filters, orders) it must give
// exactly the bytes of the previous writer (row strings joined, then UTF-8 encoded), which is
// kept as the reference in csvReference.ts. The reference predates formula escaping (a leading
// = + - @ tab or CR quoted with ' by default: test/security/csv-formula-injection.test.ts), so the
// comparison runs with escaping off.
import fc from 'fast-check';
import { ColumnTable } from 'arquero';
import { describe, expect, test } from 'vitest';
import { columnsOf } from '../../../../prelude/files/columnsOf.js';
import { writeCsv } from '../../../../prelude/files/csv/writeCsv.js';
import { utf8Encode } from '../../../../prelude/polyfills/utf8.js';
import { csvText } from './csvReference.js';
import { caseArb, tableOf } from './randomFileTables.js';

const SEED = Number(process.env.FAST_CHECK_SEED ?? 20261124);
const reference = (t: ColumnTable) => {
  const { columns, numRows } = columnsOf(t, 'to_csv');
  return Buffer.from(utf8Encode(csvText(columns, numRows))).toString('utf8');
};
const written = (t: ColumnTable) => Buffer.from(writeCsv(t, undefined, false)).toString('utf8');

describe('to_csv writer: the same bytes as the reference writer', () => {
  test('random tables', () => {
    fc.assert(
      fc.property(caseArb, (c) => {
        const t = tableOf(c);
        expect(written(t)).toBe(reference(t));
      }),
      { numRuns: 300, seed: SEED },
    );
  });

  test('edge values: quoting, white space, dates far from 1970, non-finite numbers', () => {
    const t = new ColumnTable({
      'a,"b"': [' lead', 'trail ', '\u00a0nbsp', 'x\u2028', 'say "hi"', 'a\r\nb', '', null],
      d: [
        new Date(-62198755200000),
        new Date(253402300799999),
        new Date(-1),
        new Date(8.64e15),
        new Date(-8.64e15),
        new Date(Number.NaN),
        new Date(1.5),
        null,
      ],
      n: [Number.NaN, Infinity, -0, 1e21, 1e-7, 2 ** 53, -1.5, undefined],
      o: [{ a: 1 }, [1, 'x'], 10n ** 20n, true, false, 'é', null, undefined],
    } as never);
    expect(written(t)).toBe(reference(t));
    expect(written(new ColumnTable({}, []))).toBe(reference(new ColumnTable({}, [])));
  });
});
