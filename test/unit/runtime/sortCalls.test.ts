// Which hand-written sorts and Math.min/max spreads go through the guest's fast paths
// (src/runtime/prepare/sortCalls.ts): the comparator shapes copied exactly, one negative case per way a
// comparator or a call can differ, and the shape of the rewrite (inserted text only, between markers).
// What the runs answer is checked against the calls as written in sortCallsDifferential.test.ts.
import * as acorn from 'acorn';
import { describe, expect, it } from 'vitest';
import { comparatorShape, planSortCalls } from '../../../src/runtime/prepare/sortCalls.js';
import { prepareCode } from '../../../src/runtime/prepare/transform.js';
import { calleeText } from '../../../src/runtime/prepare/v8CalleeText.js';
import { repairMessage } from '../../../schema/handSort.js';

const OPTIONS = { ecmaVersion: 'latest', allowReturnOutsideFunction: true, allowAwaitOutsideFunction: true } as const;
const parse = (code: string) => acorn.parse(code, OPTIONS) as never;
const shape = (fn: string) => comparatorShape(acorn.parseExpressionAt(fn, 0, OPTIONS) as never);
/** The prepared code with the inserted texts taken out. */
const withoutInserts = (code: string) => code.replace(/\/\*\$sbtRow<\*\/.*?\/\*>\$sbtRow\*\//g, '');
const prepared = (code: string) => prepareCode(code).code;
const rewrites = (code: string) => planSortCalls(parse(code), code).length > 0;

describe('comparatorShape: the comparators a stable number sort copies', () => {
  it('reads the order and the key of each accepted shape', () => {
    expect(shape('(a, b) => a - b')).toEqual({ desc: false, key: undefined });
    expect(shape('(x, y) => y - x')).toEqual({ desc: true, key: undefined });
    expect(shape('(a, b) => b[1] - a[1]')).toEqual({ desc: true, key: '1' });
    expect(shape('(a, b) => a.amount - b.amount')).toEqual({ desc: false, key: 'amount' });
    expect(shape("(a, b) => a['Award Amount'] - b['Award Amount']")).toEqual({ desc: false, key: 'Award Amount' });
    // the same key written two ways is one property
    expect(shape("(a, b) => a.x - b['x']")).toEqual({ desc: false, key: 'x' });
    expect(shape('(p, q) => (p[0] - q[0])')).toEqual({ desc: false, key: '0' });
    expect(shape('function (a, b) { return a - b; }')).toEqual({ desc: false, key: undefined });
    expect(shape('function byAmount(a, b) { return b.n - a.n }')).toEqual({ desc: true, key: 'n' });
    expect(shape('(a, b) => { return b - a }')).toEqual({ desc: true, key: undefined });
  });

  it('leaves every other comparator as written', () => {
    for (const fn of [
      '(a, b) => a - c', // another variable
      '(a, b) => c - b',
      '(a, b) => a - a',
      '(a, a2) => a2.x - a2.x',
      '(a, b) => a.x - b.y', // different keys
      '(a, b) => a[0] - b[1]',
      '(a, b) => a[k] - b[k]', // a computed key
      '(a, b) => a[k + 1] - b[k + 1]',
      '(a, b) => a?.x - b?.x', // optional chaining
      '(a, b) => a.x.y - b.x.y', // a path
      '(a, b) => a.f() - b.f()', // calls
      '(a, b) => +a - +b',
      '(a, b) => a + b',
      '(a, b) => a < b ? -1 : 1',
      '(a, b) => a.localeCompare(b)',
      '(a, b) => (a - b) || 0',
      '(a, b) => (n++, a - b)', // a side effect
      '(a, b) => { n++; return a - b }',
      '(a, b) => { return a - b; n++ }',
      '(a, b = 0) => a - b', // defaults, rest, patterns
      '(...a) => a[0] - a[1]',
      '([a], [b]) => a - b',
      '({ x: a }, { x: b }) => a - b',
      '(a) => a - 1',
      '(a, b, c) => a - b',
      'async (a, b) => a - b',
      'function* (a, b) { return a - b }',
      'cmp', // not inline
      'f(a, b)',
    ])
      expect(shape(fn), fn).toBeUndefined();
  });
});

describe('planSortCalls: the rewrite', () => {
  it('inserts text only, between markers: the user code stays, every line and column', () => {
    const code =
      // filter(Boolean): a chain of pure callbacks on array() is also rewritten (arrayChains.ts)
      "const a = award_data.array('Award Amount').filter(Boolean).sort((x, y) => x - y);\n" +
      'const top = Object.entries(m).sort((a, b) => b[1] - a[1]).slice(0, 5);\n' +
      '[Math.min(...ys), Math.max( ...ys ), a, top, rows.sort((p, q) => q.amount - p.amount)]';
    const out = prepared(code);
    // X's chain holds a call: a plain call of the helper; else in `(0, ...)` (V8 then points where it did)
    expect(out).toContain("__sbirtools_sort.by(/*>$sbtRow*/award_data.array('Award Amount').filter(Boolean)");
    expect(out).toContain('/*$sbtRow<*/,0/*=by:award_data.array(...).filter(...)*/)/*>$sbtRow*/.sort((x, y) => x - y)');
    expect(out).toContain('/*$sbtRow<*/,1,"1"/*=by:Object.entries(...)*/)/*>$sbtRow*/.sort((a, b) => b[1] - a[1])');
    expect(out).toContain('/*$sbtRow<*/(0,__sbirtools_sort.by(/*>$sbtRow*/rows/*$sbtRow<*/,1,"amount"/*=by:rows*/))');
    expect(out).toContain(
      'Math.min(.../*$sbtRow<*/__sbirtools_sort.min(/*>$sbtRow*/ys/*$sbtRow<*//*=min:ys*/)/*>$sbtRow*/)',
    );
    expect(out).toContain(
      'Math.max( .../*$sbtRow<*/__sbirtools_sort.max(/*>$sbtRow*/ys/*$sbtRow<*//*=max:ys*/)/*>$sbtRow*/ )',
    );
    expect(withoutInserts(out)).toBe(prepared(`${code} // $sbtRow`).replace(' // $sbtRow', ''));
  });

  it('nests: an outer call on a sorted array inserts before the inner one', () => {
    const out = prepared('xs.sort((a, b) => a - b).sort((a, b) => b - a)');
    expect(withoutInserts(out)).toBe('xs.sort((a, b) => a - b).sort((a, b) => b - a)');
    expect(out.startsWith('/*$sbtRow<*/__sbirtools_sort.by(/*>$sbtRow*//*$sbtRow<*/(0,__sbirtools_sort.by(')).toBe(
      true,
    );
  });

  it('keeps the async wrapper and published functions before an insert at the same place', () => {
    const out = prepared('function f() { return 1 }\nawait 0;\nxs.sort((a, b) => a - b)');
    expect(out).toContain('return (/*$sbtRow<*/(0,__sbirtools_sort.by(');
    expect(out.indexOf('globalThis["f"] = f;')).toBeLessThan(out.indexOf('__sbirtools_sort'));
    const first = prepared('await 0; [1].sort((a, b) => a - b)');
    expect(first).toContain('return (/*$sbtRow<*/(0,__sbirtools_sort.by(/*>$sbtRow*/[1]');
  });

  it('never inserts a `(` that would continue the line before', () => {
    for (const code of [
      'const a = f()\nxs.sort((p, q) => p - q)',
      'let a = 1 // done;\nxs.sort((p, q) => p - q)',
      'let a = 1 /* done; */\nxs.sort((p, q) => p - q)',
      'let a = x\n/* c */ xs.sort((p, q) => p - q)',
      'let a = `;\n`\nxs.sort((p, q) => p - q)',
    ])
      expect(prepared(code), code).not.toContain('(0,');
    for (const code of [
      'xs.sort((p, q) => p - q)',
      'f();\nxs.sort((p, q) => p - q)',
      'if (c) {\n  xs.sort((p, q) => p - q)\n}',
      'y = xs.sort((p, q) => p - q)',
    ])
      expect(prepared(code), code).toContain('(0,');
  });

  it('leaves the call as written for every other shape', () => {
    for (const code of [
      'xs.sort()', // no comparator, a named one, two arguments
      'xs.sort(cmp)',
      'xs.sort((a, b) => a - b, 1)',
      'xs.sort((a, b) => a.x - b.y)',
      'xs.sort((a, b) => a - b - k)',
      'xs?.sort((a, b) => a - b)', // optional chaining anywhere on the way
      'xs.sort?.((a, b) => a - b)',
      'o?.xs.sort((a, b) => a - b)',
      'f?.().sort((a, b) => a - b)',
      'xs["sort"]((a, b) => a - b)', // computed
      '(a, b).sort((x, y) => x - y)', // parenthesized receivers
      '(xs).sort((x, y) => x - y)',
      'xs.toSorted((a, b) => a - b)',
      'new xs.sort((a, b) => a - b)',
      'class C extends A { m() { return super.sort((a, b) => a - b) } }',
      'Math.min(xs)', // min/max: not one spread of a variable
      'Math.min(...xs, 1)',
      'Math.min(0, ...xs)',
      'Math.min(...xs.map(v => v.x))',
      'Math.min(...[1, 2])',
      'Math.min(...(xs))',
      'Math.min?.(...xs)',
      'Math?.min(...xs)',
      'Math["min"](...xs)',
      'Math.abs(...xs)',
      'M.min(...xs)',
      'const Math = { min: () => 0 }; Math.min(...xs)', // a Math of the program's own
      'function f(Math) { return Math.min(...xs) }',
      'let m = Math; m.min(...xs)',
      'Math = 1; Math.min(...xs)',
      'eval(""); Math.min(...xs)',
      'xs.sort((a, b) => a - b) // $sbtRow', // the marker or the global named
      'xs.sort((a, b) => a - b); __sbirtools_sort',
      'var \\u0024sbtRow; xs.sort((a, b) => a - b)',
    ])
      expect(rewrites(code), code).toBe(false);
    expect(planSortCalls(parse('xs.sort((a, b) => a - b)'), 'xs.sort((a, b) => a - b)')).toHaveLength(2);
  });

  it('rewrites any receiver expression and calls inside functions and loops', () => {
    for (const code of [
      'Object.entries(m).sort((a, b) => b[1] - a[1])',
      '[...m].sort((a, b) => a[0] - b[0])',
      'a.b[c](d).sort((x, y) => y.v - x.v)',
      'function f(xs) { return xs.sort(function (a, b) { return a - b; }) }',
      'for (const k of ks) groups[k].sort((a, b) => a - b)',
      'const lo = Math.min(...ys)',
      'function r(ys) { return [Math.min(...ys), Math.max(...ys)] }',
    ])
      expect(rewrites(code), code).toBe(true);
  });
});

describe('calleeText and repairMessage: errors name the user expression, as V8 does', () => {
  // each X holds a value without a callable `sort`: V8 names it in "X.sort is not a function"
  const env = { o: { n: 5, 'x y': 1, f: () => ({}), g: { h: () => 2 } }, nums: 5, k: 'n' };
  const v8Name = (x: string) => {
    try {
      new Function(...Object.keys(env), `(${x}).sort((a, b) => a - b)`)(...Object.values(env));
    } catch (e) {
      return (e as Error).message.replace(/\.sort is not a function$/, '');
    }
    return undefined;
  };

  it('matches the V8 this process runs for every shape it names', () => {
    for (const x of [
      'o',
      'nums',
      'o.n',
      "o['x y']",
      'o[`x y`]',
      'o.f()',
      'o.f(1, 2)',
      'o.g.h()',
      "o['f']()",
      'Object.keys(o).length',
      '"str"',
      '`t`',
      '7',
      'new Map()',
      'this',
    ]) {
      const node = acorn.parseExpressionAt(x, 0, OPTIONS) as never;
      expect(calleeText(node), x).toBe(v8Name(x));
    }
    for (const x of ['o[k]', '[1]', '{ a: 1 }', '(() => o)()', 'o?.f()', 'o.n + 1'])
      if (calleeText(acorn.parseExpressionAt(x, 0, OPTIONS) as never) !== undefined)
        expect(calleeText(acorn.parseExpressionAt(x, 0, OPTIONS) as never), x).toBe(v8Name(x));
  });

  it('replaces the helper by the name carried on the error line, and nothing else', () => {
    const line = prepared("award_data['Award Amount'].sort((a, b) => a - b)");
    const at = line.indexOf('.sort(') + 2;
    expect(repairMessage('(0 , __sbirtools_sort.by(...)).sort is not a function', line, at)).toBe(
      'award_data.Award Amount.sort is not a function',
    );
    const call = prepared('o.f(1).sort((a, b) => b - a)');
    expect(repairMessage('__sbirtools_sort.by(...).sort is not a function', call, call.indexOf('.sort(') + 1)).toBe(
      'o.f(...).sort is not a function',
    );
    const spread = prepared('Math.min(...un)');
    expect(repairMessage('__sbirtools_sort.min(...) is not iterable', spread, 10)).toBe('un is not iterable');
    expect(repairMessage('x is not defined', line, 3)).toBe('x is not defined');
    expect(repairMessage('__sbirtools_sort.by(...).sort is not a function', 'no inserts', 3)).toBe(
      '__sbirtools_sort.by(...).sort is not a function',
    );
  });
});
