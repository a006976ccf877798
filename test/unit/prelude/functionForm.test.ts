// The function form of a synchronous program (prelude/runtime/functionForm.ts): declarations become
// same-length assignments with their names declared apart, the run's value is captured between the
// markers error columns skip, and anything a function scope would change keeps the eval. What the
// form answers is checked against the eval in test/unit/runtime/keptRunsDifferential.test.ts.
import { describe, expect, test } from 'vitest';
import { EVAL_ONLY, functionForm } from '../../../prelude/runtime/functionForm.js';
import { INSERTED_CLOSE, INSERTED_OPEN, userColumn } from '../../../schema/rowLoop.js';

const capture = (expr: string, name = '$sbtValue') =>
  `${INSERTED_OPEN}${name}=(${INSERTED_CLOSE}${expr}${INSERTED_OPEN})${INSERTED_CLOSE}`;
const body = (form: { text: string } | undefined) => form?.text.split('\n').slice(1, -1).join('\n');

describe('functionForm', () => {
  test('declarations keep every column; their names are declared in the order written', () => {
    const code =
      'let s = 0, n;\nvar [a, {b}] = [1, {b: 2}];\nfor (var i = 0, j; i < 2; i++) s += i;\nfor (var k in {}) ;\ns';
    const form = functionForm(code, false)!;
    expect(body(form)).toBe(
      `;0, s = 0, 0;\n;0, [a, {b}] = [1, {b: 2}];\nfor (    i = 0, 0; i < 2; i++) s += i;\nfor (    k in {}) ;\n${capture('s')}`,
    );
    expect(form.declare).toBe('var s,n,a,b,i,j,k;');
    expect(form.text.startsWith('(function(){let $sbtValue;\n')).toBe(true);
    expect(form.text.endsWith('\nreturn $sbtValue})')).toBe(true);
    const lines = body(form)!.split('\n');
    code.split('\n').forEach((line, i) => expect(lines[i]!.length === line.length || i === 4).toBe(true));
  });

  test('a declaration that is a loop body is not its head', () => {
    expect(body(functionForm('for (;;) var x = 1;\nfor (k in o) var y;', true))).toBe(
      'for (;;)  0, x = 1;\nfor (k in o)  0, 0;',
    );
  });

  test('a declaration that is a branch or a label body is not split by a `;`', () => {
    expect(body(functionForm('if (x) var q = 1; else var {w} = o;\nlab: var z = 2;', true))).toBe(
      'if (x)  0, q = 1; else  0, {w} = o;\nlab:  0, z = 2;',
    );
  });

  test('the value is the last statement that has one, looked for through blocks and a rethrowing try', () => {
    expect(body(functionForm('1; var t;', false))).toBe(`${capture('1')}; ;0, 0;`);
    expect(body(functionForm('x = 1; try { 2 } catch (e) { throw e }', false))).toBe(
      `x = 1; try { ${capture('2')} } catch (e) { throw e }`,
    );
    expect(body(functionForm('({a: 1});', false))).toBe(`${capture('({a: 1})')};`);
    expect(body(functionForm('let t = 1;', false))).toBe(';0, t = 1;');
  });

  test('a top-level class is also a global, as globalize makes it', () => {
    expect(body(functionForm('class K {}\n1', false))).toBe(`class K {};globalThis["K"]=K;\n${capture('1')}`);
    // globalize's assignment is the program's value when nothing valued follows the class
    expect(body(functionForm('2; class K {}', false))).toBe(
      `2; class K {};${INSERTED_OPEN}$sbtValue=${INSERTED_CLOSE}globalThis["K"]=K;`,
    );
  });

  test('the capture goes around a text the preparation inserted at the statement, never inside it', () => {
    const inserted = `${INSERTED_OPEN}(0,h.by(${INSERTED_CLOSE}big${INSERTED_OPEN},0))${INSERTED_CLOSE}.sort()`;
    const line = body(functionForm(inserted, false))!;
    expect(line).toBe(capture(inserted));
    // the `.sort` of the code as written is at column 4
    expect(userColumn(line, line.indexOf('.sort') + 1)).toBe(4);
  });

  test('a capture name no identifier of the code uses', () => {
    expect(body(functionForm('var $sbtValue = 1;\n$sbtValue', false))).toBe(
      `;0, $sbtValue = 1;\n${capture('$sbtValue', '$sbtValue0_')}`,
    );
  });

  test('resultName runs need no capture, so any last statement will do', () => {
    expect(functionForm('let result = 0;\nfor (const v of [1]) result += v;', true)).toBeDefined();
    expect(functionForm('let result = 0;\nfor (const v of [1]) result += v;', false)).toBeUndefined();
  });

  test.each([
    ['a function declaration', 'function f() {}\n1'],
    ['a function declaration in a block', '{ function f() {} }\n1'],
    ['eval', 'eval("1")'],
    ['arguments', 'typeof arguments'],
    ['with', 'with ({}) 1'],
    ['a directive', '"use strict"; 1'],
    ['a hashbang', '#!/usr/bin/env node\n1'],
    ['an Annex B for-in initializer', 'for (var a = 1 in {}) ;\n1'],
    ['a loop last', 'for (const v of []) v;'],
    ['an if last', 'if (x) 1;'],
    ['a try whose catch may not throw', 'try { 1 } catch (e) { 2 }'],
    ['a try with finally', 'try { 1 } finally { }'],
    ['code that does not parse', 'let = ;'],
    ['the eval-only marker', `1 // ${EVAL_ONLY}`],
  ])('%s keeps the eval', (_, code) => {
    expect(functionForm(code, false)).toBeUndefined();
  });

  test('functions, arrows and classes may hold any declaration (their own scope)', () => {
    expect(
      functionForm('const f = function () { var x = arguments; function g() {} return x };\nf()', false),
    ).toBeUndefined(); // `arguments` anywhere keeps the eval
    expect(body(functionForm('const f = () => { var x = 1; function g() {} return x };\nf()', false))).toBe(
      `;0,   f = () => { var x = 1; function g() {} return x };\n${capture('f()')}`,
    );
  });
});
