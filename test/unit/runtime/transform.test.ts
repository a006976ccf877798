import { describe, it, expect } from 'vitest';
import { prepareCode } from '../../../src/runtime/prepare/transform.js';

describe('prepareCode', () => {
  it('keeps plain scripts unwrapped and turns top-level const/let into var of the same length', () => {
    const p = prepareCode('const big = 1;\nlet x = 2\nbig + x');
    expect(p).toEqual({ code: 'var   big = 1;\nvar x = 2\nbig + x', async: false, lineOffset: 0, resultName: false });
  });

  it('leaves nested declarations alone', () => {
    const p = prepareCode('for (let i = 0; i < 2; i++) { const y = i }\n{ let z = 1 }');
    expect(p.code).toBe('for (let i = 0; i < 2; i++) { const y = i }\n{ let z = 1 }');
  });

  it('wraps top-level await in an async IIFE on one added line and returns the last expression', () => {
    const p = prepareCode('const a = await Promise.resolve(2);\na * 21');
    expect(p.async).toBe(true);
    expect(p.lineOffset).toBe(1);
    expect(p.code).toBe('var a; (async () => {\n      a = await Promise.resolve(2);\nreturn (a * 21\n)\n})()');
  });

  it('wraps top-level return and does not treat returns inside functions as top level', () => {
    expect(prepareCode('function f() { return 1 }\nf()').async).toBe(false);
    const p = prepareCode('const t = 3;\nreturn t * 2;');
    expect(p.async).toBe(true);
    expect(p.resultName).toBe(false);
    expect(p.code).toContain('return t * 2;');
  });

  it('hoists destructuring, functions and classes out of the async wrapper', () => {
    const p = prepareCode('const { a, b: [c] } = await x;\nfunction f() {}\nclass K {}\nlet u;');
    expect(p.code.split('\n')[0]).toBe('var a, c, f, K, u; (async () => {');
    expect(p.code).toContain('    ( { a, b: [c] } = await x);');
    expect(p.code).toContain('K = class K {}');
    expect(p.code).toContain('u = void 0;');
    expect(p.code).toContain('globalThis["f"] = f;');
  });

  it('detects an explicit result variable', () => {
    expect(prepareCode('const result = 5; 7').resultName).toBe(true);
    expect(prepareCode('if (true) { result = 5 } 7').resultName).toBe(true);
    expect(prepareCode('const results = 5').resultName).toBe(false);
    expect(prepareCode('function g() { result = 1 }').resultName).toBe(false);
  });

  it('returns a parenthesized last expression and one followed by a line comment', () => {
    expect(prepareCode('await 1; ({a: 1})').code).toContain('return (({a: 1})\n)');
    expect(prepareCode('await 1;\n6 * 7; // answer').code).toContain('return (6 * 7\n);');
  });

  it('treats for await as top-level await', () => {
    expect(prepareCode('for await (const x of [1]) {}').async).toBe(true);
  });
});
