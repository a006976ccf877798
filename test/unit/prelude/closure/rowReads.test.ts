// Which closures may run on a plain row object (prelude/closure/rowReads.ts): the row read only as
// d.X / d['X'] / d?.X or destructured. Answers are checked against the view in columnScan.test.ts;
// this pins the decision, above all the refusals (a row that escapes or is written).
import { describe, expect, test } from 'vitest';
import { rowReads } from '../../../../prelude/closure/rowReads.js';

const seen: unknown[] = [];
const re = /a/g;
const f = (x: unknown) => x;
let n = 0;

describe('rowReads', () => {
  test('reads: the columns, in first-read order, whatever else the closure does', () => {
    expect(rowReads((d: any) => d.Abstract.length > 5000)).toEqual(['Abstract']);
    expect(rowReads((d: any) => d['Award Amount'] > 1e6 && d.Agency === 'DOD')).toEqual(['Award Amount', 'Agency']);
    expect(rowReads((d: any) => re.test(d.Abstract) && n++ < 5)).toEqual(['Abstract']);
    expect(rowReads((d: any) => (seen.push(d.K), f(d?.T)))).toEqual(['K', 'T']);
    expect(rowReads(({ Abstract, 'Award Year': y = 0 }: any) => Abstract && y > 2000)).toEqual([
      'Abstract',
      'Award Year',
    ]);
    expect(rowReads((d: any, $: any) => d.K === $.want)).toEqual(['K']);
    expect(
      rowReads((d: any) => {
        const x = { d: 1 };
        return ['a'].some((w) => w === d.T) && x.d > 0;
      }),
    ).toEqual(['T']);
  });
  test('refuses a row that escapes, is written, or could be reached another way', () => {
    expect(rowReads((d: any) => f(d))).toBeUndefined();
    expect(rowReads((d: any) => JSON.stringify(d).length)).toBeUndefined();
    expect(rowReads((d: any) => Object.keys(d).length)).toBeUndefined();
    expect(rowReads((d: any) => ({ d }))).toBeUndefined();
    expect(rowReads((d: any) => d[String(n)])).toBeUndefined();
    expect(
      rowReads((d: any) => {
        d.K = 1;
        return true;
      }),
    ).toBeUndefined();
    expect(
      rowReads((d: any) => {
        [d.K] = [1];
        return true;
      }),
    ).toBeUndefined();
    expect(
      rowReads((d: any) => {
        for (d.K of [1]);
        return true;
      }),
    ).toBeUndefined();
    expect(rowReads((d: any) => d.N++ > 0)).toBeUndefined();
    expect(rowReads((d: any) => delete d.K)).toBeUndefined();
    expect(rowReads((d: any) => 'K' in d)).toBeUndefined();
    expect(rowReads(({ K, ...rest }: any) => K && rest)).toBeUndefined();
    expect(
      rowReads(function (d: any) {
        return d.K;
      }),
    ).toBeUndefined(); // reachable through .arguments
    // eslint-disable-next-line @typescript-eslint/no-unused-vars -- d is read by the eval'd string
    expect(rowReads((d: any) => eval('d.K'))).toBeUndefined();
    expect(rowReads((d: any) => [1].map((d) => d).length > 0 && d.K)).toBeUndefined(); // a shadowing d is a bare use
  });
});
