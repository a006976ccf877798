// Which closures the fold accepts (prelude/fast/closureFilter.ts): 1-3 columns read as d.X /
// d['X'], no effects, pure methods only. Answers are checked against the
// row-by-row path in differential.test.ts; this pins the decision itself.
import { describe, expect, test } from 'vitest';
import { foldableColumns } from '../../../../prelude/fast/closureFilter.js';

const wanted = new Set(['x']);
const lim = 2;
const re = /a/g;
const f = (s: unknown) => s === 'x';
let n = 0;

describe('foldableColumn', () => {
  test('accepts pure closures over one column', () => {
    expect(foldableColumns((d: any) => ['DOD', 'NASA'].includes(d.Agency))).toEqual(['Agency']);
    expect(foldableColumns((d: any) => d['Award Title'].toLowerCase().startsWith('quantum'))).toEqual(['Award Title']);
    expect(foldableColumns((d: any) => wanted.has(d.K2))).toEqual(['K2']);
    expect(
      foldableColumns((d: any) => {
        const s = d.K2;
        return s === 'x' || ['y'].some((w) => w === s);
      }),
    ).toEqual(['K2']);
    expect(foldableColumns((d: any) => /^a/i.test(d.K1))).toEqual(['K1']);
    expect(foldableColumns((d: any) => d.K1 !== undefined && d.K1.length > lim)).toEqual(['K1']);
  });
  test('rejects closures with effects, shared state or unknown calls', () => {
    expect(foldableColumns((d: any) => d.K2 === 'x' && n++ < 3)).toBeUndefined();
    expect(foldableColumns((d: any) => re.test(d.K1))).toBeUndefined(); // a shared /g regex has state
    expect(foldableColumns((d: any) => [d.K2].some(f))).toBeUndefined(); // a callback we cannot see
    expect(foldableColumns((d: any) => f(d.K2))).toBeUndefined();
    expect(foldableColumns((d: any) => new Set([1]).has(d.K2))).toBeUndefined();
    expect(
      foldableColumns((d: any) => {
        d.K2 = 1;
        return true;
      }),
    ).toBeUndefined();
  });
  test('accepts up to three columns; rejects more, or the row as a whole', () => {
    expect(foldableColumns((d: any) => d.K1 === 'a' && d['Award Year'] >= lim)).toEqual(['K1', 'Award Year']);
    expect(foldableColumns((d: any) => d.A === 1 || d.B === 2 || d.C === 3 || d.D === 4)).toBeUndefined();
    expect(foldableColumns((d: any) => JSON.stringify(d).includes('x'))).toBeUndefined();
    expect(foldableColumns((d: any) => Object.keys(d).length > 0)).toBeUndefined();
    expect(foldableColumns((d: any, $: any) => d.K1 === $.k)).toBeUndefined();
    expect(
      foldableColumns(function (this: unknown, d: any) {
        return d.K1 === this;
      }),
    ).toBeUndefined();
    expect(foldableColumns(async (d: any) => d.K1)).toBeUndefined();
  });
});
