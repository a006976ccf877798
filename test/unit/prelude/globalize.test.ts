// Session persistence rewrite (prelude/runtime/globalize.ts): top-level const/let become var in
// place, classes also land on globalThis; code that cannot declare anything is returned as is
// without a parse (the trivial run's path).
import { describe, expect, test } from 'vitest';
import { globalize } from '../../../prelude/runtime/globalize.js';

describe('globalize', () => {
  test('rewrites top-level declarations, keeping every column', () => {
    expect(globalize('const a = 1;\nlet b = 2;')).toBe('var   a = 1;\nvar b = 2;');
    expect(globalize('class K {}')).toBe('class K {};globalThis["K"]=K;');
    expect(globalize('1 + 1; const t = award_data.numRows()')).toBe('1 + 1; var   t = award_data.numRows()');
  });
  test('leaves nested declarations and code without declarations alone', () => {
    expect(globalize('{ const a = 1; }')).toBe('{ const a = 1; }');
    expect(globalize('award_data.numRows()')).toBe('award_data.numRows()');
    expect(globalize('1 + 1')).toBe('1 + 1');
    expect(globalize('"\\u0063onst"; 2')).toBe('"\\u0063onst"; 2');
  });
  test('returns code that does not parse unchanged (eval reports it)', () => {
    expect(globalize('const = ;')).toBe('const = ;');
  });
});
