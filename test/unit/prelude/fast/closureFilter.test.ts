// Which closures the per-dictionary-entry fold accepts (prelude/fast/closureFilter.ts): one
// column read as d.X / d['X'], no effects, pure methods only. Answers are checked against the
// row-by-row path in differential.test.ts; this pins the decision itself.
import { describe, expect, test } from 'vitest';
import { foldableColumn } from '../../../../prelude/fast/closureFilter.js';

const wanted = new Set(['x']);
const lim = 2;
const re = /a/g;
const f = (s: unknown) => s === 'x';
let n = 0;

describe('foldableColumn', () => {
  test('accepts pure closures over one column', () => {
    expect(foldableColumn((d: any) => ['DOD', 'NASA'].includes(d.Agency))).toBe('Agency');
    expect(foldableColumn((d: any) => d['Award Title'].toLowerCase().startsWith('quantum'))).toBe('Award Title');
    expect(foldableColumn((d: any) => wanted.has(d.K2))).toBe('K2');
    expect(foldableColumn((d: any) => { const s = d.K2; return s === 'x' || ['y'].some((w) => w === s); })).toBe('K2');
    expect(foldableColumn((d: any) => /^a/i.test(d.K1))).toBe('K1');
    expect(foldableColumn((d: any) => d.K1 !== undefined && d.K1.length > lim)).toBe('K1');
  });
  test('rejects closures with effects, shared state or unknown calls', () => {
    expect(foldableColumn((d: any) => d.K2 === 'x' && n++ < 3)).toBeUndefined();
    expect(foldableColumn((d: any) => re.test(d.K1))).toBeUndefined(); // a shared /g regex has state
    expect(foldableColumn((d: any) => [d.K2].some(f))).toBeUndefined(); // a callback we cannot see
    expect(foldableColumn((d: any) => f(d.K2))).toBeUndefined();
    expect(foldableColumn((d: any) => new Set([1]).has(d.K2))).toBeUndefined();
    expect(foldableColumn((d: any) => { d.K2 = 1; return true; })).toBeUndefined();
  });
  test('rejects closures that read two columns or the row as a whole', () => {
    expect(foldableColumn((d: any) => d.K1 === 'a' && d.K2 === 'x')).toBeUndefined();
    expect(foldableColumn((d: any) => JSON.stringify(d).includes('x'))).toBeUndefined();
    expect(foldableColumn((d: any) => Object.keys(d).length > 0)).toBeUndefined();
    expect(foldableColumn((d: any, $: any) => d.K1 === $.k)).toBeUndefined();
    expect(foldableColumn(function (this: unknown, d: any) { return d.K1 === this; })).toBeUndefined();
    expect(foldableColumn(async (d: any) => d.K1)).toBeUndefined();
  });
});
