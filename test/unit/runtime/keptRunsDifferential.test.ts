// Kept runs (prelude/runtime/keptRuns.ts, functionForm.ts) change how a synchronous run is evaluated,
// never what it answers: each sequence of runs goes through a real sandbox session twice, as written
// (the program compiled once to a function, called by every run of the same text) and with the
// function form defeated (a comment naming `$sbtEval` keeps the eval of today), on both engines;
// values, output, errors with line and column, and what later runs see must be the same. Steps are
// repeated so the second run of a text calls the kept function; each step marked `kept` also checks
// that the program does get a function form (and `kept: false` that it stays on eval), and that the
// code check sends it with the prepared code (runForm.ts): on isolated-vm the kept arm runs the host's
// form, no parse in the isolate; on QuickJS, which is sent none, the form the prelude makes.
import { afterAll, describe, expect, it } from 'vitest';
import { createSandbox, shutdown } from '../../../src/index.js';
import { prepareCode } from '../../../src/runtime/prepare/transform.js';
import { checkAndPrepare } from '../../../src/runtime/prepare/checkAndPrepare.js';
import { EVAL_ONLY, functionForm } from '../../../prelude/runtime/functionForm.js';
import { runOutcome } from '../../helpers/runOutcome.js';

afterAll(() => shutdown());

type Step = string | { code: string; kept: boolean };
const k = (code: string): Step => ({ code, kept: true });
const e = (code: string): Step => ({ code, kept: false });

const SEQUENCES: Record<string, Step[]> = {
  'a loop total re-run, read and redeclared by later runs': [
    k('let total = 0;\nfor (const x of [1, 2, 3]) total += x;\ntotal'),
    k('let total = 0;\nfor (const x of [1, 2, 3]) total += x;\ntotal'),
    'total * 2',
    k('const total = 5;\nlet more = 0;\nfor (let i = 0; i < total; i++) more += i;\n[total, more]'),
    k('const total = 5;\nlet more = 0;\nfor (let i = 0; i < total; i++) more += i;\n[total, more]'),
    'total + more',
  ],
  'const twice in two runs, var without a value keeps the global': [
    k('const x1 = 1;\nx1'),
    k('const x1 = 2;\nx1'),
    k('var x1;\nx1'),
    k('let x1;\n[x1, typeof x1]'),
    k('var x1;\nx1'),
  ],
  'declarations in every place a var can be': [
    k(
      'var a = 1, b; const {c, d: [e2] = [4]} = {c: 3};\nfor (var i = 0, n; i < 2; i++) {}\nfor (var kk in {p: 1}) ;\nfor (var v of [7]) ;\nif (a) var q = 2; else var {w} = {w: 9};\nlab: var z = 5;\nswitch (a) { case 1: var sw = "one" }\n{ var inBlock = 6 }\ntry { var tr = 1 } catch (err) { var cv = 2 }\n[a, b, c, e2, i, n, kk, v, q, w, z, sw, inBlock, tr, cv]',
    ),
    '[a, b, c, e2, i, n, kk, v, q, typeof w, z, sw, inBlock, tr, typeof cv]',
    k('var [m1, ...m2] = [1, 2, 3], {m3 = 8, ...m4} = {m5: 5}; [m1, m2, m3, m4]'),
    k('var [m1, ...m2] = [1, 2, 3], {m3 = 8, ...m4} = {m5: 5}; [m1, m2, m3, m4]'),
  ],
  'the order and kind of the globals the declarations make': [
    k('var g2 = 2;\nlet g1 = 1;\nconst g3 = 3;\n1'),
    "Object.keys(globalThis).filter((n) => /^g[123]$/.test(n)).join(',')",
    "JSON.stringify(Object.getOwnPropertyDescriptor(globalThis, 'g1'))",
    'delete globalThis.g2; typeof g2',
    k('var g2;\n[typeof g2, "g2" in globalThis]'),
    k('var g2;\n[typeof g2, "g2" in globalThis]'),
  ],
  'completion values': [
    k('1; var t1;'),
    k('2; { let b1 = 1 } var t2 = 3; class C1 {}'),
    k('let t3 = 0;'),
    k('({a: 1})'),
    k('1, 2'),
    k('let t4 = 0; try { t4 + 5 } catch (e) { throw e }'),
    k('let t5 = 0; try { let inner = 1 } catch (e) { throw e }'),
    e('let t6 = 0; try { t6 + 5 } catch (e) { 7 }'),
    e('let t7 = 0; try { t7 + 5 } finally { 8 }'),
    e('let t8 = 0;\nfor (let i = 0; i < 3; i++) t8 += i;'),
    e('let t9 = 3;\nif (t9 > 1) t9; else 0;'),
    e('switch (1) { case 1: "one" }'),
    k('"la" + "st"\n// a comment at the end'),
    e('"a directive"\n1'),
    k('let t10 = 1 // no semicolons\nt10 + 1 // and a comment'),
    '[typeof t1, t2, typeof C1, t3, t4, t5, t6, t7, t8, t9, t10]',
  ],
  'an explicit result': [
    k('const result = [];\nfor (let i = 0; i < 3; i++) result.push(i);\nconst extra = 1;'),
    k('let result = 0;\nfor (let i = 0; i < 4; i++) result += i;\nif (result) "ignored"'),
    k('let result = 0;\nfor (let i = 0; i < 4; i++) result += i;\nif (result) "ignored"'),
    'result',
  ],
  'errors keep their line and column': [
    k('let m = 0;\nfor (let i = 0; i < 3; i++) m += i;\n  m.foo.bar'),
    k('let m = 0;\nfor (let i = 0; i < 3; i++) m += i;\n  m.foo.bar'),
    k('let p = 0;\nfor (let i = 0; i < 3; i++) { p += i; if (i == 2) undefinedFn(p) }\np'),
    k('const cc = 1; const dd = null.x;\ncc'),
    k('const f3 = (v) => v.x.y;\n[1].map(f3)'),
    k('const f3 = (v) => v.x.y;\n[1].map(f3)'),
    k("throw new RangeError('top')"),
    k('let q2 = [3, 1, 2];\nq2.sort((a, b) => a - b).nope()'),
    k('Promise.reject(new TypeError("later"))'),
    '[m, p, cc, typeof dd]',
  ],
  'classes at top level, redefined by a later run': [
    k('class K1 { v() { return 1 } }\nnew K1().v()'),
    'new K1().v()',
    k('class K1 { v() { return 2 } }\nnew K1().v()'),
    'new K1().v()',
  ],
  'closures of an earlier run read the globals a later run sets': [
    k(
      'let base = 10;\nconst addBase = (x) => x + base;\nlet acc = 0;\nfor (let i = 0; i < 3; i++) acc += addBase(i);\nacc',
    ),
    k('let base = 100;\nlet acc2 = 0;\nfor (let i = 0; i < 3; i++) acc2 += addBase(i);\nacc2'),
    k('let base = 100;\nlet acc2 = 0;\nfor (let i = 0; i < 3; i++) acc2 += addBase(i);\nacc2'),
    '[base, acc, acc2, addBase.name]',
  ],
  'function declarations, eval, arguments, this and with stay on eval': [
    e('function fd(x) { return x * 2 }\nlet fs = 0;\nfor (let i = 0; i < 3; i++) fs += fd(i);\nfs'),
    'fd(5)',
    e('var ev = 1; eval("var ev2 = ev + 1"); ev2'),
    e('typeof arguments'),
    k('this === globalThis'),
    k('var th = 1; this.th'),
    e('"use strict"; var us = 1; us'),
    e('with ({wx: 1}) wx'),
    e('if (1) { function inner() { return 3 } }\ninner()'),
    '[fs, ev, ev2, th, us]',
  ],
  'a run that throws mid-way, then the same text again and a reader': [
    k(
      'let cnt = 0;\nlet lim = typeof limit === "number" ? limit : 3;\nfor (let i = 0; i < lim; i++) { cnt += i; if (i === 4) throw new Error("stop at " + cnt) }\ncnt',
    ),
    'var limit = 10',
    k(
      'let cnt = 0;\nlet lim = typeof limit === "number" ? limit : 3;\nfor (let i = 0; i < lim; i++) { cnt += i; if (i === 4) throw new Error("stop at " + cnt) }\ncnt',
    ),
    '[cnt, lim]',
  ],
  'top-level await between synchronous runs (the async path)': [
    k('let s = 0;\nfor (const v of [1, 2]) s += v;\ns'),
    'let s = 0;\nfor (const v of [1, 2]) s += await Promise.resolve(v);\ns',
    k('let s = 0;\nfor (const v of [1, 2]) s += v;\ns'),
    's',
  ],
  'rows of award_data, printed output': [
    k(
      "let big = 0;\nfor (const r of award_data.select('Award Amount').objects()) if (r['Award Amount'] > 1e6) big++;\nprint(big);\nbig",
    ),
    k(
      "let big = 0;\nfor (const r of award_data.select('Award Amount').objects()) if (r['Award Amount'] > 1e6) big++;\nprint(big);\nbig",
    ),
    k(
      "const amounts = award_data.array('Award Amount');\nlet tot = 0;\nfor (let i = 0; i < amounts.length; i++) tot += amounts[i] || 0;\ntot",
    ),
    k(
      "const amounts = award_data.array('Award Amount');\nlet tot = 0;\nfor (let i = 0; i < amounts.length; i++) tot += amounts[i] || 0;\ntot",
    ),
    '[big, tot, amounts.length]',
  ],
};

const asWritten = (code: string) => code;
const onEval = (code: string) => `${code}\n// ${EVAL_ONLY}`;

describe.each(['isolated-vm', 'quickjs'] as const)('kept runs on %s', (engine) => {
  it.each(Object.keys(SEQUENCES))('%s: same answers as the eval', async (name) => {
    await using kept = await createSandbox({ engine });
    await using evaluated = await createSandbox({ engine });
    for (const step of SEQUENCES[name]!) {
      const code = typeof step === 'string' ? step : step.code;
      if (typeof step !== 'string') {
        const prepared = prepareCode(code);
        const form = prepared.async ? undefined : functionForm(prepared.code, prepared.resultName);
        expect(form !== undefined, code).toBe(step.kept);
        const checked = checkAndPrepare(code, 'standard');
        // (a program the policy refuses is refused alike in both arms)
        if (checked.ok) expect(checked.prepared.form, code).toEqual(form);
      }
      const [a, b] = [await kept.run(asWritten(code)), await evaluated.run(onEval(code))];
      expect(runOutcome(a), code).toEqual(runOutcome(b));
    }
  });
});
