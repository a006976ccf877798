// One parse serves the policy check and the notebook transform: the results must be exactly
// those of the two separate parses they replace (checkCode, then prepareCode on a fresh parse).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkAndPrepare } from '../../../src/runtime/prepare/checkAndPrepare.js';
import { CodeChecker, INLINE_CHECK_MAX_UNITS } from '../../../src/runtime/prepare/codeChecker.js';
import { prepareCode } from '../../../src/runtime/prepare/transform.js';
import { withRunForm } from '../../../src/runtime/prepare/runForm.js';
import { checkCode, inspectCode } from '../../../src/policy/index.js';

const PROGRAMS = [
  '1 + 1',
  'const big = 1;\nlet x = 2\nbig + x',
  'const a = await Promise.resolve(2);\na * 21',
  'const t = 3;\nreturn t * 2;',
  'const { a, b: [c] } = await x;\nfunction f() {}\nclass K {}\nlet u;',
  'const result = 5; 7',
  'if (true) { result = 5 } 7',
  'function g() { result = 1 }',
  'await 1; ({a: 1})',
  'for await (const x of [1]) {}',
  "let n = 0; for (const a of award_data.array('Abstract')) if (a && a.length > 5000) n++; n",
  "const m = new Map(); for (const k of award_data.array('Agency')) m.set(k, (m.get(k) ?? 0) + 1); [...m]",
  'async function f() { await 1; return 2 }\nf()',
  'class A { m() { return 1 } }\nnew A().m()',
];

const TOKENS = [
  'const ',
  'let ',
  'var ',
  'x',
  ' = ',
  '1',
  ';',
  '\n',
  'await ',
  'return ',
  'result',
  '(',
  ')',
  '{',
  '}',
  '[',
  ']',
  ',',
  '=>',
  'async ',
  'function ',
  'f',
  '+',
  '.',
  'for (',
  ' of ',
  'class ',
  'K',
];
const tokenSoup = fc.array(fc.constantFrom(...TOKENS), { maxLength: 60 }).map((t) => t.join(''));

/** The former path: checkCode, then prepareCode parsing again. */
function twoParses(code: string) {
  const check = checkCode(code, 'standard');
  return check.ok ? { ok: true, prepared: withRunForm(prepareCode(code)) } : { ok: false, type: check.type };
}

describe('checkAndPrepare (one parse)', () => {
  it('prepares exactly what checkCode + a second parse prepared, for the corpus', () => {
    for (const code of PROGRAMS) {
      const one = checkAndPrepare(code, 'standard');
      const two = twoParses(code);
      expect(one.ok, code).toBe(two.ok);
      if (one.ok && two.ok) expect(one.prepared, code).toEqual(two.prepared);
    }
  });

  it('agrees with the two-parse path on random token soup (pass/fail, error type, prepared code)', () => {
    fc.assert(
      fc.property(tokenSoup, (code) => {
        const one = checkAndPrepare(code, 'standard');
        const two = twoParses(code);
        expect(one.ok).toBe(two.ok);
        if (one.ok && two.ok) expect(one.prepared).toEqual(two.prepared);
        if (!one.ok && !two.ok) expect(one.error.type).toBe(two.type);
      }),
      { numRuns: 300 },
    );
  });

  it('inspectCode hands back the program only when the code passed', () => {
    expect(inspectCode('1 + 1').program?.body).toHaveLength(1);
    expect(inspectCode("require('fs')").program).toBeUndefined();
    expect(inspectCode('let = ;').program).toBeUndefined();
  });

  it('errors keep the former text: the first violation, and how many more', () => {
    const r = checkAndPrepare("require('fs'); process.exit(1)", 'standard');
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error.type).toBe('POLICY_VIOLATION');
      expect(r.error.message).toMatch(/\(and 1 more: see violations\)$/);
      expect(r.error.violations).toHaveLength(2);
      expect([r.error.line, r.error.column]).toEqual([1, 1]);
    }
  });
});

describe('CodeChecker', () => {
  it('answers small programs synchronously and remembers a program that passed', () => {
    const checker = new CodeChecker();
    const a = checker.check('award_data.numRows()', 'standard', 30_000, 512, 's');
    expect(a).not.toBeInstanceOf(Promise);
    const b = checker.check('award_data.numRows()', 'standard', 30_000, 512, 's');
    expect(b).toBe(a);
    // a different preset is a different check
    expect(checker.check('award_data.numRows()', 'strict', 30_000, 512, 's')).not.toBe(a);
  });

  it('does not remember failures: the caller gets its own error object each time', () => {
    const checker = new CodeChecker();
    const a = checker.check('let = ;', 'standard', 30_000, 512, 's');
    const b = checker.check('let = ;', 'standard', 30_000, 512, 's');
    expect(a).not.toBe(b);
    expect(a).toEqual(b);
  });

  it('sends a program over the bound to a worker thread, with the same answer', async () => {
    const checker = new CodeChecker();
    const code = 'let s = 0;\n' + 's += 1;\n'.repeat(Math.ceil(INLINE_CHECK_MAX_UNITS / 8)) + 's';
    const pending = checker.check(code, 'standard', 30_000, 512, 's');
    expect(pending).toBeInstanceOf(Promise);
    expect(await pending).toEqual(checkAndPrepare(code, 'standard'));
    checker.close();
  });

  it('a tiny deadline sends even a mid-sized program to the worker, and a cancel stops it', async () => {
    const checker = new CodeChecker();
    const code = '1;\n'.repeat(2_000);
    const pending = checker.check(code, 'standard', 5, 512, 'k');
    expect(pending).toBeInstanceOf(Promise);
    expect(checker.cancel('k')).toBe(true);
    expect(await pending).toBe('aborted');
    expect(checker.cancel('k')).toBe(false);
  });
});
