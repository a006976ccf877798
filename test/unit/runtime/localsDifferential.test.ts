// Top-level locals (src/runtime/prepare/localize.ts) change how a run is evaluated, never what it
// answers: each sequence of runs goes through a real sandbox session twice, as written (names a
// top-level loop uses become block-scoped locals, written back at the end) and with localization
// defeated (a never-called function naming every identifier keeps them all global: the plain
// `var` transform), on both engines; values, output, errors with line and column, and what later
// runs see must be the same. Each sequence also checks that the transform did apply to it.
import * as acorn from 'acorn';
import { afterAll, describe, expect, it } from 'vitest';
import { createSandbox, shutdown } from '../../../src/index.js';
import { prepareCode } from '../../../src/runtime/prepare/transform.js';
import { runOutcome } from '../../helpers/runOutcome.js';

afterAll(() => shutdown());

/** Runs, in order, in one session; `local: true` marks a run the transform must localize. */
type Step = string | { code: string; local: boolean };

const SEQUENCES: Record<string, Step[]> = {
  'a loop total, read by the next run and redeclared as const': [
    { code: 'let total = 0;\nfor (const x of [1, 2, 3]) total += x;\ntotal', local: true },
    'total * 2',
    { code: 'const total = 5;\nfor (let i = 0; i < total; i++) {}\ntotal', local: true },
    'total',
  ],
  'a closure captures a top-level variable (stays global)': [
    {
      code: 'let n = 0;\nconst inc = () => ++n;\nfor (let i = 0; i < 3; i++) inc();\nlet m = 0;\nfor (let i = 0; i < 3; i++) m += n;\n[n, m]',
      local: true,
    },
    'inc(); [n, m]',
  ],
  'a function kept and called in a later run': [
    {
      code: 'let base = 10;\nfunction addBase(x) { return x + base }\nlet acc = 0;\nfor (let i = 0; i < 3; i++) acc += addBase(i);\nacc',
      local: true,
    },
    'base = 100; [addBase(1), acc]',
    'typeof addBase',
  ],
  'a function declared after the loop that reads its type': [
    {
      code: 'const out = [];\nfor (let i = 0; i < 2; i++) out.push(typeof later);\nfunction later() { return 7 }\nout',
      local: true,
    },
    'later() + out.length',
  ],
  'top-level await (the async path)': [
    'let s = 0;\nfor (const v of [1, 2]) s += await Promise.resolve(v);\ns',
    'let t = s;\nfor (const v of [3]) t += v;\nt',
    's + t',
  ],
  'an error mid-loop, then a later run reads the values': [
    {
      code: "let k = 0;\nfor (let i = 0; i < 10; i++) { k += i; if (i === 4) throw new Error('stop at ' + k) }\nk",
      local: true,
    },
    'k',
    {
      code: 'let seen = [];\ntry { for (const v of [1, 2, 3]) { seen.push(v); if (v === 2) null.x } } catch (e) { seen.push(e.name) }\nseen',
      local: true,
    },
    'seen.length',
    { code: 'let late = 1;\nfor (const v of [1]) late += v;\nundefinedFn(late);\nlet never = 3;\nlate', local: true },
    '[late, typeof never]',
  ],
  'a run that throws before a declaration, or in its init: the global keeps its value': [
    'let fr = [1, 2];\nlet fr2 = 5;\nfr.length + fr2',
    {
      code: "if (fr2 > 0) throw new Error('early');\nconst fr = [3];\nlet fr2 = 0;\nfor (const v of fr) fr2 += v;\nfr2",
      local: true,
    },
    '[fr, fr2]',
    { code: 'let n3 = 0;\nfor (let i = 0; i < 2; i++) n3++;\nconst fr = [n3].map((v) => v.x.y);\nfr', local: true },
    '[fr, n3]',
    {
      code: 'const fr = fr.concat([9]);\nlet fr3 = fr2, fr2 = 1;\nfor (const v of fr) fr2 += v;\n[fr, fr2, fr3]',
      local: true,
    },
    '[fr, fr2, fr3]',
  ],
  'a function an earlier run kept reads a name a later run declares (the name stays global there)': [
    "function peekN() { return typeof cnt === 'undefined' ? -1 : cnt }\n1",
    'let cnt = 0;\nfor (let i = 0; i < 3; i++) cnt += peekN() < 0 ? 1 : 2;\n[cnt, peekN()]',
    { code: 'let other = 0;\nfor (let i = 0; i < 3; i++) other += i;\nother', local: true },
    'const step = (k) => k + later3;\n1',
    'let later3 = 5;\nlet acc3 = 0;\nfor (let i = 0; i < 2; i++) acc3 += step(i);\n[acc3, later3]',
    'function readG(k) { return this[k] }\n1',
    "let g5 = 1;\nfor (let i = 0; i < 2; i++) g5 += readG('g5') ?? 10;\ng5",
  ],
  'labels, break and continue': [
    {
      code: 'let hits = 0;\nouter: for (let i = 0; i < 5; i++) { for (let j = 0; j < 5; j++) { if (j > i) continue outer; if (i === 4) break outer; hits++ } }\nhits',
      local: true,
    },
  ],
  'destructuring declarations': [
    {
      code: 'const {a, b} = {a: 1, b: 2};\nconst [c, d = 4, ...rest] = [3, undefined, 9];\nlet sum = 0;\nfor (const v of [a, b, c, d, ...rest]) sum += v;\nsum',
      local: true,
    },
    '[a, b, c, d, rest, sum]',
  ],
  'shadowing in blocks and for (let ...)': [
    {
      code: 'let x = 1;\n{ let x = 2; for (let i = 0; i < 2; i++) x += i }\nfor (let i = 0; i < 2; i++) x += 10;\nx',
      local: true,
    },
    'x',
    'typeof i',
  ],
  'use before the declaration, and a later run that redeclares without a value': [
    'let y = 7; y',
    { code: 'print(y);\nlet z = 0;\nfor (let i = 0; i < 2; i++) z += y;\nlet y = 1;\n[z, y]', local: true },
    { code: 'let keep = 5;\nfor (const v of []) keep;\nkeep', local: true },
    { code: 'let keep;\nfor (let i = 0; i < 1; i++) keep;\nkeep', local: true },
  ],
  'completion values': [
    { code: 'let q = 0;\nfor (let i = 0; i < 3; i++) q += i;', local: true },
    { code: 'let r2 = 0;\nfor (let i = 0; i < 3; i++) r2 += i;\nlet after = 1;', local: true },
    { code: 'let w = 0;\nwhile (w < 5) w++;\nif (w > 100) w;', local: true },
    { code: 'let e = 0;\nfor (const v of []) e += v;', local: true },
    {
      code: 'let sw = 0;\ndo { sw++ } while (sw < 3)\nswitch (sw) { case 3: "three"; break; default: "other" }',
      local: true,
    },
    { code: 'let tr = 0;\nfor (const v of [1, 2]) tr += v;\ntry { tr * 2 } finally { tr = -1 }', local: true },
    '[q, r2, after, w, e, sw, tr]',
  ],
  'an explicit result': [
    { code: 'const result = [];\nfor (let i = 0; i < 3; i++) result.push(i);\nconst extra = 1;', local: true },
    { code: 'let result = 0;\nfor (let i = 0; i < 4; i++) result += i;\n"ignored"', local: true },
    'result',
  ],
  'errors keep their line and column': [
    { code: 'let m = 0;\nfor (let i = 0; i < 3; i++) m += i;\n  m.foo.bar', local: true },
    { code: 'let p = 0;\nfor (let i = 0; i < 3; i++) { p += i; if (i == 2) undefinedFn(p) }\np', local: true },
    { code: 'const frozen = 1;\nfor (let i = 0; i < frozen; i++) {}\n  nope.x = frozen;\nfrozen', local: true },
  ],
  'assigning to a const (a var today, so allowed)': [
    { code: 'const cc = 1;\nfor (let i = 0; i < cc; i++) {}\ncc = 2;\ncc', local: true },
    'cc',
  ],
  'var, let and for-in together; no semicolons': [
    { code: 'var vv = 1;\nlet ll = 0;\nfor (const k in {a: 1, b: 2}) ll += vv;\nll', local: true },
    { code: 'let g1 = 1\nlet g2 = [1, 2]\nfor (const v of g2) g1 += v\ng1', local: true },
    { code: 'let h = 0\nh\nlet [h2] = [5]\nfor (const v of [1]) h += h2 * v\nh', local: true },
    '[vv, ll, g1, g2, h, h2]',
  ],
  'rows of award_data, and a query with @names (stays global)': [
    {
      code: "let big = 0;\nfor (const r of award_data.select('Award Amount').objects()) if (r['Award Amount'] > 1e6) big++;\nbig",
      local: true,
    },
    "const limit = 1e6;\nlet n2 = 0;\nfor (let i = 0; i < 1; i++) n2 = award_data.query('`Award Amount` > @limit').numRows();\nn2 === big",
  ],
  'generators, async functions and a throwing helper declared at top level': [
    {
      code: 'function* gen(n) { for (let i = 0; i < n; i++) yield i }\nasync function later2() { return 2 }\nfunction boom(x) { if (x > 2) throw new RangeError("too big: " + x); return x }\nlet acc2 = 0;\nfor (const v of gen(5)) acc2 += boom(v);\nacc2',
      local: true,
    },
    '[typeof gen, typeof later2, typeof boom, acc2, [...gen(3)]]',
  ],
  'identifiers written with unicode escapes and non-ASCII names': [
    {
      code: 'let caf\\u00e9 = 0;\nfor (const v of [1, 2]) café += v;\nlet Δ = 1;\nfor (const v of [3]) Δ *= v;\n[café, Δ]',
      local: true,
    },
    '[café, Δ]',
  ],
  'loops moved into functions of their own (outlineLoops.ts), and loops a function scope would change': [
    { code: 'let s1 = 0;\nfor (var i1 = 0; i1 < 3; i1++) s1 += i1;\n[s1, i1]', local: true },
    '[s1, i1]',
    {
      code: 'let s2 = 0;\nfor (let i = 0; i < 2; i++) { function inner2() { return i } s2 += inner2() + 1 }\n[s2, typeof inner2]',
      local: true,
    },
    {
      code: 'let a1 = 1, b1 = 2, n1 = 0;\nwhile (n1 < 3) { [a1, b1] = [b1, a1 + b1]; n1++ }\n[a1, b1, n1]',
      local: true,
    },
    { code: "let key = '';\nlet cnt = 0;\nfor (key in {x: 1, y: 2}) cnt++;\n[key, cnt]", local: true },
    {
      code: 'let t1 = 0;\nfor (const v of [1, 2]) t1 += v;\nfor (const v of [3]) t1 *= v;\nlet t2 = t1;\ndo t2--; while (t2 > 5)\n[t1, t2]',
      local: true,
    },
    { code: 'let z1 = 0\nfor (const v of [1, 2]) z1 += v\n;[z1].length', local: true },
    { code: 'let br = 0;\nfor (;;) { if (++br > 4) break; if (br % 2) continue; br += 10 }\nbr', local: true },
    '[a1, b1, n1, key, cnt, t1, t2, z1, br]',
    {
      code: "const xs9 = [1, 2, 3];\nlet hit = -1;\nfor (let i = 0; i < xs9.length; i++) { if (xs9[i] === 2) { hit = i; xs9.push(0).toFixed.call('x') } }\nhit",
      local: true,
    },
    '[hit, xs9]',
  ],
  // a program a function of an earlier run reads a local of is prepared again with it kept global, and
  // that preparation is kept for the session (sessionHost.ts keepGlobal) only until a run adds a read:
  // the second run keeps tot9 global (f9 reads it) and n9 local; g9 reads n9 after it, so the third
  // must keep n9 global too (g9 sees this run's n9, not the one the second run wrote back)
  'a program asked again after a later function reads another of its locals': [
    'function f9() { return tot9 }',
    {
      code: "k9 = (typeof k9 === 'number' ? k9 : 0) + 1;\nlet tot9 = 0;\nfor (const v of [1, 2, 3]) tot9 += v;\nlet n9 = 0;\nfor (const v of [1, 2, 3]) n9 += v * k9;\n[tot9, n9, typeof g9 === 'function' ? g9() : null, f9()]",
      local: true,
    },
    'function g9() { return n9 }',
    {
      code: "k9 = (typeof k9 === 'number' ? k9 : 0) + 1;\nlet tot9 = 0;\nfor (const v of [1, 2, 3]) tot9 += v;\nlet n9 = 0;\nfor (const v of [1, 2, 3]) n9 += v * k9;\n[tot9, n9, typeof g9 === 'function' ? g9() : null, f9()]",
      local: true,
    },
    {
      code: "k9 = (typeof k9 === 'number' ? k9 : 0) + 1;\nlet tot9 = 0;\nfor (const v of [1, 2, 3]) tot9 += v;\nlet n9 = 0;\nfor (const v of [1, 2, 3]) n9 += v * k9;\n[tot9, n9, typeof g9 === 'function' ? g9() : null, f9()]",
      local: true,
    },
  ],
  'names the prelude and JavaScript define': [
    {
      code: 'let print2 = 0;\nlet undefined = 3;\nfor (let i = 0; i < 2; i++) print2 += i;\n[print2, typeof undefined]',
      local: true,
    },
  ],
};

/** The same program with every name kept global: the plain transform, as before localization. */
function unlocalized(code: string): string {
  // the async wrapper never localizes, and would return the function below as the last statement
  if (prepareCode(code).async) return code;
  const names = new Set<string>();
  const program = acorn.parse(code, { ecmaVersion: 'latest', allowAwaitOutsideFunction: true });
  const stack: unknown[] = [program];
  while (stack.length) {
    const n = stack.pop() as Record<string, unknown> | null;
    if (!n || typeof n !== 'object') continue;
    if (n.type === 'Identifier' && n.name !== 'undefined') names.add(n.name as string);
    for (const v of Object.values(n)) if (v && typeof v === 'object') stack.push(...(Array.isArray(v) ? v : [v]));
  }
  return `${code}\nfunction $noLocals() { ${[...names].join('; ')} }`;
}

const outcome = runOutcome;

describe.each(['isolated-vm', 'quickjs'] as const)('top-level locals on %s', (engine) => {
  it.each(Object.keys(SEQUENCES))('%s: same answers as the plain transform', async (name) => {
    await using localized = await createSandbox({ engine });
    await using plain = await createSandbox({ engine });
    for (const step of SEQUENCES[name]!) {
      const code = typeof step === 'string' ? step : step.code;
      if (typeof step !== 'string') expect(prepareCode(code).lineOffset === 1, code).toBe(step.local);
      const reference = prepareCode(unlocalized(code));
      expect(reference.lineOffset, 'the reference run is not localized').toBe(reference.async ? 1 : 0);
      const [a, b] = [await localized.run(code), await plain.run(unlocalized(code))];
      expect(outcome(a), code).toEqual(outcome(b));
    }
  });
});
