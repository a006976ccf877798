// A chain's array sorted at once into a name that only reads its length and elements
// (src/runtime/prepare/sortedBound.ts, prelude/fast/handSort.ts `chainSorter`): the name holds the
// sort the session keeps, not a copy of it. That changes what the run is handed, never what it
// answers: each sequence goes through a real sandbox session twice, rewritten and with the rewrite
// defeated (a comment naming `$sbtRow`), on both engines; values, output, errors with line and
// column, and what later runs see (the global, written into; the next sort of the same chain) must
// be the same. Steps marked `lent` also check that the preparation lends (the others that it does not).
import { afterAll, describe, expect, it } from 'vitest';
import { createSandbox, shutdown } from '../../../src/index.js';
import { prepareCode } from '../../../src/runtime/prepare/transform.js';
import { INSERTED_CLOSE } from '../../../schema/rowLoop.js';
import { runOutcome } from '../../helpers/runOutcome.js';

afterAll(() => shutdown());

type Step = string | { code: string; lent: boolean };
const lent = (code: string): Step => ({ code, lent: true });
const LENT = `, 4${INSERTED_CLOSE}`;

/** Every value, -0 and NaN told apart, in one string. */
const SETUP = `var sig = (xs) => xs.map((v) => (Object.is(v, -0) ? '-0' : typeof v === 'number' ? String(v) : typeof v + ':' + String(v))).join(',');
1`;

const MEDIAN = (name: string, chain: string, cmp = '(x, y) => x - y') =>
  `const ${name} = ${chain}.sort(${cmp});\n${name}.length % 2 ? ${name}[(${name}.length - 1) / 2] : (${name}[${name}.length / 2 - 1] + ${name}[${name}.length / 2]) / 2`;

const SEQUENCES: Record<string, Step[]> = {
  'medians and quantiles of other columns, filters and directions, asked again': [
    ...[
      MEDIAN('a', "award_data.array('Award Amount').filter(v => v != null)"),
      MEDIAN('m', "award_data.select('Award Amount').objects().map(r => r['Award Amount']).filter(v => v != null)"),
      MEDIAN('e', "award_data.array('Number Employees').filter(v => v != null && v > 3)"),
      MEDIAN('y', "award_data.array('Award Year').filter(v => v >= 2010)", '(p, q) => q - p'),
      MEDIAN(
        'k',
        "award_data.array('Award Amount').map(v => v === null ? -0 : v / 1e6)",
        'function (a, b) { return a - b; }',
      ),
      // a quarter, the ends, an index that is not an integer, one past the end, before the start
      "const q = award_data.array('Award Amount').filter(v => v > 1e5).sort((a, b) => b - a);\n[q[q.length >> 2], q[0], q[q.length - 1], q[q.length * 0.5], q[q.length], q[-1], q.length]",
      "const z = award_data.array('Award Amount').filter(v => v != null).map(v => v > 5e5 ? -0 : v < 1e5 ? 0 : v).sort((a, b) => a - b);\n[Object.is(z[0], -0), Object.is(z[z.length - 1], -0), z[z.length >> 1], ({ mid: z[z.length >> 1], n: z.length })]",
      // none kept: the median of nothing reads past the ends
      MEDIAN('none', "award_data.array('Award Amount').filter(v => v > 1e15)"),
      // nulls and NaN among the values: no kept sort (not all numbers), the run's own array
      MEDIAN('nul', "award_data.array('Award Amount').map(v => v)"),
      MEDIAN('nan', "award_data.array('Award Amount').map(v => v === null ? NaN : v)", '(a, b) => b - a'),
    ].flatMap((c) => [lent(c), lent(c), lent(c)]),
    // the other direction of a chain already kept one way
    lent(MEDIAN('a', "award_data.array('Award Amount').filter(v => v != null)", '(x, y) => y - x')),
  ],
  'the global a run leaves is its own: written, cut and pushed, the next sort does not see it': [
    lent(MEDIAN('a', "award_data.array('Award Amount').filter(v => v != null)")),
    '[a.length, sig(a.slice(0, 5)), sig(a.slice(-5)), Array.isArray(a)]',
    "a[0] = 'written'; a.reverse(); a.length = 5; a.push(-0);\nsig(a)",
    lent(MEDIAN('a', "award_data.array('Award Amount').filter(v => v != null)")),
    'a[1] = -1; a.sort((x, y) => y - x);\n[a.length, sig(a.slice(0, 4))]',
    lent(MEDIAN('b', "award_data.array('Award Amount').filter(v => v != null)")),
    '[a.length, b.length, a === b, sig(b.slice(0, 4))]',
    // the name never read after the run, then the same sort again, then read
    lent(MEDIAN('a', "award_data.array('Award Amount').filter(v => v != null)")),
    lent(MEDIAN('a', "award_data.array('Award Amount').filter(v => v != null)")),
    '[a.length, sig(a.slice(0, 3)), Object.keys(a).length > 3]',
    // a global the next run declares again before reading it, and one a function of an earlier run reads
    lent(MEDIAN('a', "award_data.array('Award Amount').filter(v => v != null)")),
    'var readA = () => [a.length, a[3], sig(a.slice(-2))];\nreadA()',
    lent(MEDIAN('c', "award_data.array('Award Amount').filter(v => v > 2e5)")),
    "const a = 'replaced';\n[readA(), c.length]",
  ],
  // a Proxy as Array.prototype's prototype (no `this` in the run's functions: one that holds it keeps
  // every later run's names global, off this path) sees each read that is not of an own element
  'a read past the end reaches a prototype of the run that writes into its receiver: a copy of its own': [
    "var AP = Object.getPrototypeOf([]);\nvar writes = 0;\nvar OP = Object.getPrototypeOf({});\nObject.setPrototypeOf(AP, new Proxy(OP, { get(t, k, rec) { if ((k === '-1' || k === '7.5') && Array.isArray(rec)) { writes++; rec[0] = 'got'; rec.push('more'); return 'read ' + k; } return Reflect.get(t, k, rec); } }));\n1",
    ...[0, 1].map(() =>
      lent(
        "const g = award_data.array('Award Amount').filter(v => v != null).sort((x, y) => x - y);\n[g[-1], g[0], g.length, g[g.length - 1], g[7.5], g.length, g[0], writes]",
      ),
    ),
    lent(
      "const g2 = award_data.array('Award Amount').filter(v => v != null).sort((x, y) => x - y);\n[g2[0], g2.length, g2[g2.length - 1], writes]",
    ),
    'Object.setPrototypeOf(AP, OP);\n[g.length, g[0], g2.length, writes]',
    lent(MEDIAN('a', "award_data.array('Award Amount').filter(v => v != null)")),
    "const g3 = award_data.array('Award Amount').filter(v => v != null).sort((x, y) => x - y);\n[g3[0], g3.length, sig(g3.slice(-2))]",
  ],
  'a run that throws after the sort, and errors at the reads': [
    lent(
      "const t1 = award_data.array('Award Amount').filter(v => v != null).sort((x, y) => x - y);\nconst mid = t1[t1.length >> 1];\nnull.x",
    ),
    '[t1.length, mid, sig(t1.slice(0, 3))]',
    lent("const t2 = award_data.array('Award Amount').filter(v => v != null).sort((x, y) => x - y);\nt2[0].foo()"),
    lent("const t3 = award_data.array('Award Amount').filter(v => v > 1e15).sort((x, y) => x - y);\nt3[0].toFixed(2)"),
    'typeof t2 + t2.length + typeof t3',
  ],
  'an index held in a const of the program (`mid`): lent; other names in the index: the copy': [
    ...[0, 1].map(() =>
      lent(
        "const s1 = award_data.array('Award Amount').filter(v => v != null).sort((x, y) => x - y);\nconst mid = Math.floor(s1.length / 2);\ns1.length % 2 ? s1[mid] : (s1[mid - 1] + s1[mid]) / 2",
      ),
    ),
    lent(
      "const s2 = award_data.array('Award Year').filter(v => v >= 2015).sort((x, y) => y - x);\nconst half = s2.length >> 1, q1 = half >> 1;\n[s2[q1], s2[half], s2[half + q1], s2[s2.length - q1 - 1]]",
    ),
    // an index that converts itself: the rewritten read and the written one convert it once each
    'var nconv = 0;\n1',
    lent(
      "const s3 = award_data.array('Award Amount').filter(v => v != null).sort((x, y) => x - y);\nconst ko = { toString() { nconv++; return '3'; } };\n[s3[ko], nconv, s3[0], s3.length]",
    ),
    // read before its declaration: the same ReferenceError
    lent(
      "const s4 = award_data.array('Award Amount').filter(v => v != null).sort((x, y) => x - y);\nconst r4 = s4[late];\nconst late = 2;\nr4",
    ),
    // a name the program also binds in a block, a `let`, an earlier run's global, a name a function reads, a pattern's name
    "const s5 = award_data.array('Award Amount').filter(v => v != null).sort((x, y) => x - y);\nconst m5 = s5.length >> 1;\n{ const m5 = 0; }\ns5[m5]",
    "const s6 = award_data.array('Award Amount').filter(v => v != null).sort((x, y) => x - y);\nlet m6 = s6.length >> 1;\ns6[m6]",
    'var gk = 1;\n1',
    "const s7 = award_data.array('Award Amount').filter(v => v != null).sort((x, y) => x - y);\n[s7[gk], s7[gk + 1]]",
    "const s8 = award_data.array('Award Amount').filter(v => v != null).sort((x, y) => x - y);\nconst m8 = s8.length >> 1;\nconst f8 = () => m8;\n[s8[m8], f8()]",
    "const s9 = award_data.array('Award Amount').filter(v => v != null).sort((x, y) => x - y);\nconst { m9 } = { m9: 4 };\ns9[m9]",
    '[s1.length, mid, s3.length, nconv, typeof s4, s5.length, m6, s7.length, m8, m9]',
  ],
  'a chain sorted in place by the statement after its declaration, then read: lent; any other shape: as written': [
    ...[0, 1].map(() =>
      lent(
        "const p1 = award_data.array('Award Amount').filter(v => v != null);\np1.sort((x, y) => x - y);\nconst pm = Math.floor(p1.length / 2);\np1.length % 2 ? p1[pm] : (p1[pm - 1] + p1[pm]) / 2",
      ),
    ),
    lent(
      "const p2 = award_data.array('Award Year').filter(v => v >= 2012);\np2.sort(function (a, b) { return b - a; });\n[p2[0], p2[p2.length - 1], p2[p2.length >> 1], p2.length]",
    ),
    // nulls among the values (no kept sort): the run's own sorted array
    lent(
      "const p3 = award_data.array('Award Amount').map(v => v);\np3.sort((a, b) => a - b);\n[p3[0], p3[p3.length - 1], p3.length]",
    ),
    lent("const p4 = award_data.array('Award Amount').filter(v => v != null);\np4.sort((a, b) => a - b);\nnull.x"),
    '[p1.length, sig(p1.slice(0, 3)), p2[0], p3[p3.length - 1], typeof p4, sig(p4.slice(-2))]',
    "p1[0] = 'mine'; p1.push(-0);\n[p1[0], p1.length]",
    lent(
      "const p5 = award_data.array('Award Amount').filter(v => v != null);\np5.sort((a, b) => a - b);\n[p5[0], p5.length]",
    ),
    // a statement between, the sort the program's last statement, its value kept, a keyed comparator,
    // another read of the name, two declarators, a `let`, the name read in its own initializer
    "const q1 = award_data.array('Award Amount').filter(v => v != null);\nconst q1n = q1.length;\nq1.sort((a, b) => a - b);\n[q1[0], q1n]",
    "const q2 = award_data.array('Award Amount').filter(v => v != null);\nq2.sort((a, b) => a - b);",
    "const q3 = award_data.array('Award Amount').filter(v => v != null);\nconst q3s = q3.sort((a, b) => a - b);\n[q3[0], q3s === q3]",
    "const q4 = award_data.array('Award Amount').filter(v => v != null).map(v => ({ v }));\nq4.sort((a, b) => a.v - b.v);\n[q4[0].v, q4.length]",
    "const q5 = award_data.array('Award Amount').filter(v => v != null);\nq5.sort((a, b) => a - b);\n[q5[0], q5.slice(-1)]",
    "const q6 = award_data.array('Award Amount').filter(v => v != null), q6b = 1;\nq6.sort((a, b) => a - b);\n[q6[0], q6b]",
    "let q7 = award_data.array('Award Amount').filter(v => v != null);\nq7.sort((a, b) => a - b);\n[q7[0], q7.length]",
    "const q8 = award_data.array('Award Amount').filter(v => v > (typeof q8));\nq8.sort((a, b) => a - b);\nq8.length",
    '[sig(q2.slice(0, 2)), q3.length, q5.length, q7.length, p5.length]',
  ],
  'any other use of the name: the sorted copy as before': [
    // written, called, spread, in a function, `let`, a pattern's target, typeof, `?.`
    "const w1 = award_data.array('Award Amount').filter(v => v != null).sort((x, y) => x - y);\nw1[0] = 5;\n[w1[0], w1.length]",
    "const w2 = award_data.array('Award Amount').filter(v => v != null).sort((x, y) => x - y);\n[w2.slice(0, 2), w2.length]",
    "const w3 = award_data.array('Award Amount').filter(v => v != null).sort((x, y) => x - y);\n[Math.max(...w3), w3.length]",
    "const w4 = award_data.array('Award Amount').filter(v => v != null).sort((x, y) => x - y);\nconst f4 = () => w4[0];\nf4()",
    "let w5 = award_data.array('Award Amount').filter(v => v != null).sort((x, y) => x - y);\nw5[w5.length >> 1]",
    "const w7 = award_data.array('Award Amount').filter(v => v != null).sort((x, y) => x - y);\n({ k: w7[0] } = { k: 'set' });\n[w7[0], w7.length]",
    "const w8 = award_data.array('Award Amount').filter(v => v != null).sort((x, y) => x - y);\n[typeof w8, w8.length]",
    "const w9 = award_data.array('Award Amount').filter(v => v != null).sort((x, y) => x - y);\n[w9?.[0], w9.length]",
    "const w10 = award_data.array('Award Amount').filter(v => v != null).sort((x, y) => x - y);\nw10[0]++;\n[w10[0], w10.length]",
    "const w11 = award_data.array('Award Amount').filter(v => v != null).sort((x, y) => x - y);\nw11",
    "const w12 = award_data.array('Award Amount').filter(v => v != null).sort((x, y) => x - y);\n[w12[w12.length - 1 + ''], w12.length]",
    '[w1[0], w2.length, w5.length, w7[0], w10[0], w11.length]',
    // the lent sort again after all of those: the same answer
    lent(MEDIAN('a', "award_data.array('Award Amount').filter(v => v != null)")),
  ],
};

/** The same program with the rewrite defeated: a comment naming its marker turns it off. */
const asWritten = (code: string) => `${code}\n// $sbtRow`;

describe.each(['isolated-vm', 'quickjs'] as const)('sorted chains lent to a reading name on %s', (engine) => {
  it.each(Object.keys(SEQUENCES))('%s: same answers as the code as written', async (name) => {
    await using rewritten = await createSandbox({ engine });
    await using plain = await createSandbox({ engine });
    for (const box of [rewritten, plain]) expect((await box.run(SETUP)).ok).toBe(true);
    for (const step of SEQUENCES[name]!) {
      const code = typeof step === 'string' ? step : step.code;
      expect(prepareCode(code).code.includes(LENT), code).toBe(typeof step !== 'string' && step.lent);
      const [a, b] = [await rewritten.run(code), await plain.run(asWritten(code))];
      expect(a.ok || a.error.type !== 'POLICY_VIOLATION', code).toBe(true);
      expect(runOutcome(a), code).toEqual(runOutcome(b));
    }
  });
});
