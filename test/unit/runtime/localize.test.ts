// Which top-level names run as locals (src/runtime/prepare/localize.ts), and that the user's code
// keeps every line and column inside the wrapper. What the runs answer is checked against the
// plain transform in localsDifferential.test.ts.
import * as acorn from 'acorn';
import { describe, expect, it } from 'vitest';
import { functionReads, planLocals } from '../../../src/runtime/prepare/localize.js';
import { prepareCode } from '../../../src/runtime/prepare/transform.js';

const withoutInserted = (line: string) => line.replace(/\/\*\$sbtRow<\*\/.*?\/\*>\$sbtRow\*\//g, '');

const locals = (code: string, resultName = false) =>
  planLocals(acorn.parse(code, { ecmaVersion: 'latest' }) as never, code, resultName)?.locals;

describe('planLocals', () => {
  it('localizes the names a top-level loop uses', () => {
    expect(locals('let total = 0;\nfor (const r of rows) total += r.x;\ntotal')).toEqual(['total']);
    expect(locals('const rows = f();\nlet s = 0, n = 0;\nfor (const r of rows) { s += r.x; n++ }\ns / n')).toEqual([
      'rows',
      's',
      'n',
    ]);
    expect(locals('const [a, b] = f();\nlet t = 0;\nwhile (t < a) t += b;\nt')).toEqual(['a', 'b', 't']);
  });

  it('leaves code without a top-level loop, or loops only in functions, to the plain transform', () => {
    expect(locals('const n = award_data.numRows(); n')).toBeUndefined();
    expect(locals('let s = 0;\nfunction f() { for (const v of xs) s += v }\nf(); s')).toBeUndefined();
  });

  it('keeps a name global when a function, arrow or class refers to it', () => {
    // n is captured: its whole declaration stays global; the arrow's own name is not captured
    expect(locals('let n = 0, m = 0;\nconst inc = () => n++;\nfor (const v of xs) { inc(); m++ }\nm')).toEqual(['inc']);
    expect(
      locals('let base = 1;\nfunction g() { return base }\nfor (const v of xs) base += g();\nbase'),
    ).toBeUndefined();
    expect(locals('let k = 1;\nconst C = class { m() { return k } };\nfor (const v of xs) k++;\nk')).toBeUndefined();
    // a property name is not a reference
    expect(locals('let total = 0;\nconst f = (r) => r.total;\nfor (const v of xs) total += f(v);\ntotal')).toEqual([
      'total',
      'f',
    ]);
  });

  it('keeps every name global when the code could read globals by name', () => {
    for (const code of [
      'let s = 0;\nfor (const v of xs) s += this.v;\ns',
      'let s = 0;\nfor (const v of xs) s += globalThis.s;\ns',
      'let s = 0;\nfor (const v of xs) s += eval("s");\ns',
      'let s = 0;\nfor (const v of xs) s += Function("return 1")();\ns',
      'let s = 0;\nfor (const v of xs) s++;\nt.query("x > @s")',
      'let s = 0;\nfor (const v of xs) s++;\nt.query(q)',
      'let s = 0;\nfor (const v of xs) s++;\n`@${s}`',
      'let s = 0;\nfor (const v of xs) s++;\ndelete s',
      'let s = 0;\nwith (o) for (const v of xs) s++;\ns',
      '"use strict";\nlet s = 0;\nfor (const v of xs) s++;\ns',
      'class K {}\nlet s = 0;\nfor (const v of xs) s++;\ns',
      'function f() {}\nf = 1;\nlet s = 0;\nfor (const v of xs) s++;\ns',
      'function f() {}\nvar f;\nlet s = 0;\nfor (const v of xs) s++;\ns',
      '#!/usr/bin/env node\nlet s = 0;\nfor (const v of xs) s++;\ns',
    ])
      expect(
        planLocals(acorn.parse(code, { ecmaVersion: 'latest', allowHashBang: true }) as never, code, false),
        code,
      ).toBeUndefined();
  });

  it('localizes only declarations before the last statement that always has a value', () => {
    expect(locals('let a = 0;\nfor (const v of xs) a += b;\nlet b = 1;')).toEqual(['a']);
    expect(locals('let a = 0;\nlet b = 1;\nfor (const v of xs) a += b;')).toEqual(['a', 'b']);
    expect(locals('let a = 0;\nfor (const v of xs) a++;\nconst b = a;')).toEqual(['a']);
    // with `result` the completion value is not read: every declaration may go
    expect(locals('let result = 0;\nfor (const v of xs) result += c;\nconst c = 2;', true)).toEqual(['result', 'c']);
  });

  it('reads the global of a name only when the run may read it before its declaration assigns it', () => {
    // the first line's array: the global of a fresh name is not read (a placeholder, `{}`), and written
    // back only when it changed; anything mentioned earlier, in its own init or declared bare starts as its global
    const start = (code: string) =>
      /const \$sbtLocals=\[(.*?),\(/.exec(prepareCode(code).code.split('\n')[0]!)?.[1]?.split(',');
    expect(start('const rows = f();\nlet s = 0, n = 0;\nfor (const r of rows) s++;\ns')).toEqual(['{}', '{}', '{}']);
    expect(start('print(a);\nlet a = 1, b = a;\nfor (const v of xs) b++;\nb')).toEqual(['a', '{}']);
    expect(start('let c = c + 1;\nlet d = e, e = 2;\nfor (const v of xs) c += d;\nc')).toEqual(['c', '{}', 'e']);
    expect(start('let [p] = f(), q;\nfor (const v of xs) q = p;\nq')).toEqual(['p', 'q']);
    const back = prepareCode('let k = 0;\nfor (const v of xs) k++;\nk').code;
    expect(back).toContain('if($sbtLocals0!==$sbtLocals[0])k=$sbtLocals0;');
  });

  it('lists what functions may read when a later run calls them, and keeps those names global', () => {
    const reads = (code: string) => functionReads(acorn.parse(code, { ecmaVersion: 'latest' }) as never);
    expect(reads('function peek() { return rows.length }\nlet s = 0; s')).toEqual(['peek', 'rows']);
    expect(reads('const f = (r) => r.total + base;\nf')).toEqual(['base']);
    // a parameter hides its name in its function and those inside it, not outside or in a sibling
    expect(reads('const g = (s, [a, { b }]) => (n) => s + a + b + n + m;\nconst h = () => s;\ng')).toEqual(['m', 's']);
    expect(reads('const sorted = xs.sort((a, b) => b[1] - a[1]);\nsorted')).toEqual([]);
    expect(reads('let s = 0;\nfor (const v of xs) s += v;\ns')).toEqual([]);
    for (const code of [
      'function g(k) { return this[k] }',
      'const q = (t) => t.query("x > 1")',
      'const h = () => "@a"',
      'const e = () => globalThis',
    ])
      expect(reads(code), code).toBe('all');
    const code = 'let rows = f();\nlet s = 0;\nfor (const r of rows) s += r.x;\ns';
    expect(prepareCode(code).locals).toEqual(['rows', 's']);
    expect(prepareCode(code, undefined, new Set(['rows'])).locals).toEqual(['s']);
    expect(prepareCode(code, undefined, 'all').locals).toBeUndefined();
    expect(prepareCode('function peek() { return rows }\n1').functionReads).toEqual(['peek', 'rows']);
  });

  it('leaves object patterns and names JavaScript fixes to the plain transform', () => {
    expect(locals('const {a} = o;\nlet s = 0;\nfor (const v of xs) s += a;\ns')).toEqual(['s']);
    expect(locals('let undefined = 1, s = 0;\nfor (const v of xs) s++;\ns')).toBeUndefined();
  });

  it('keeps every line and column of the user code, one line below the wrapper', () => {
    const code = 'const rows = f()\nlet s = 0, n; for (const r of rows) { s += r.x; n = r }\nconst {a} = o; s / a';
    const p = prepareCode(code);
    expect(p.lineOffset).toBe(1);
    const lines = p.code.split('\n');
    // the loop sits in a function of its own, inserted between the markers error columns skip
    expect(lines.slice(1, -1).map(withoutInserted)).toEqual([
      ';     rows = f()',
      ';   s = 0, n; for (const r of rows) { s += r.x; n = r }',
      'var   {a} = o; s / a',
    ]);
    expect(lines[0]).toMatch(/^var rows,s,n;\{const \$sbtLocals=\[/);
    expect(lines.at(-1)).toBe(
      '}catch($sbtLocalse){if($sbtLocals[5]($sbtLocalse))$sbtLocals[3](rows,s,n);throw $sbtLocalse}const $sbtLocalsd=$sbtLocals[3](rows,s,n);}}',
    );
  });

  it('puts a top-level loop before the value in a function of its own, its locals passed in and written back', () => {
    const code =
      'const xs = f();\nlet s = 0, n = 0;\nfor (const v of xs) { s += v; n++ }\nfor (const v of xs) print(v)\ns / n';
    const lines = prepareCode(code).code.split('\n');
    expect(lines[3]).toMatch(
      /^\/\*\$sbtRow<\*\/\{const \$sbtLocalso0=\[s,n\];try\{\(\(xs,s,n\)=>\{try\{\/\*>\$sbtRow\*\/for /,
    );
    expect(lines[3]).toContain('})(xs,$sbtLocalso0[0],$sbtLocalso0[1])}');
    expect(lines[4]).toMatch(
      /^\/\*\$sbtRow<\*\/\(\(xs\)=>\{\/\*>\$sbtRow\*\/for \(const v of xs\) print\(v\)\/\*\$sbtRow<\*\/\}\)\(xs\);/,
    );
    expect(lines.slice(1, -1).map(withoutInserted)[2]).toBe('for (const v of xs) { s += v; n++ }');
  });

  it('leaves a loop in place when a function scope would change it, or when it gives the value', () => {
    const outlined = (code: string) =>
      prepareCode(code).code.includes('=>{try{/*>$sbtRow*/') || /\(\([\w$,]*\)=>\{\/\*>/.test(prepareCode(code).code);
    expect(outlined('let s = 0;\nfor (const v of xs) s += v;\ns')).toBe(true);
    expect(outlined('let s = 0;\nfor (var i = 0; i < 3; i++) s += i;\ns')).toBe(false);
    expect(outlined('let s = 0;\nfor (const v of xs) { function g() {} s += v }\ns')).toBe(false);
    expect(outlined('let s = 0;\nfor (const v of xs) s += arguments.length;\ns')).toBe(false);
    expect(outlined('let s = 0;\nfor (const v of xs) s += v;')).toBe(false);
    expect(outlined('let s = 0;\nfor (const v of xs) g(v);\ns')).toBe(false);
    // a loop the columns answer (keyed and scalar loops: keyedLoops.ts, scalarLoops.ts) runs no body
    expect(
      outlined(
        "const m = new Map();\nfor (const a of award_data.array('Agency')) m.set(a, (m.get(a) || 0) + 1);\n[...m]",
      ),
    ).toBe(false);
    expect(outlined("let t = 0;\nfor (const r of award_data.objects()) t += r['Award Amount'] || 0;\nt")).toBe(false);
    // an index loop's sum is one since session 19; a body the columns do not answer is outlined
    expect(
      outlined(
        "const xs = award_data.array('Award Amount');\nlet t = 0;\nfor (let i = 0; i < xs.length; i++) t += xs[i] || 0;\nt",
      ),
    ).toBe(false);
    expect(
      outlined(
        "const xs = award_data.array('Award Amount');\nlet t = 0;\nfor (let i = 0; i < xs.length; i++) t += xs[i] * 2;\nt",
      ),
    ).toBe(true);
  });

  it('picks helper names the code does not use', () => {
    const code = 'let $sbtLocals = 1;\nlet s = 0;\nfor (const v of xs) s += $sbtLocals;\ns';
    const p = prepareCode(code);
    expect(p.code.split('\n')[0]).toContain('const $sbtLocals0_=[');
  });
});
