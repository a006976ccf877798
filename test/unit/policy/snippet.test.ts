import { describe, expect, it } from 'vitest';
import { caretSnippet } from '../../../src/policy/index.js';

describe('caretSnippet', () => {
  it('puts a caret under a 1-based column of a 1-based line', () => {
    expect(caretSnippet('a\nconst x = require("fs")\nb', 2, 11)).toBe('const x = require("fs")\n          ^');
  });

  it('keeps tabs in the caret line so the caret stays aligned', () => {
    expect(caretSnippet('\t\tx.constructor', 1, 5)).toBe('\t\tx.constructor\n\t\t  ^');
  });

  it('cuts long lines to a window around the column, marked with …', () => {
    const line = `${'a'.repeat(500)}EVAL${'b'.repeat(500)}`;
    const [shown, caret] = caretSnippet(line, 1, 501).split('\n');
    expect(shown!.length).toBeLessThan(130);
    expect(shown!.startsWith('…') && shown!.endsWith('…')).toBe(true);
    expect(shown!.slice(caret!.indexOf('^'), caret!.indexOf('^') + 4)).toBe('EVAL');
  });

  it('replaces control characters and lone surrogates one for one', () => {
    const snippet = caretSnippet('a\u0000b\uD800c\u001bd', 1, 7);
    expect(snippet).toBe('a\uFFFDb\uFFFDc\uFFFDd\n      ^');
    expect(snippet).not.toMatch(/[\uD800-\uDFFF]/);
  });

  it('counts lines as ECMAScript does (\\r\\n, \\r, \\u2028, \\u2029)', () => {
    expect(caretSnippet('1\r\n2\r3\u20284\u20295', 5, 1)).toBe('5\n^');
  });

  it('clamps positions past the end of the line or the code', () => {
    expect(caretSnippet('ab', 1, 10)).toBe('ab\n  ^');
    expect(caretSnippet('ab', 3, 1)).toBe('\n^');
  });
});
