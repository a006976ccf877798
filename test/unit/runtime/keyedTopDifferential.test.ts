// The top entries of a keyed loop's object or Map read from the groups it wrote (src/runtime/prepare/
// keyedTop.ts, prelude/data/keyedTop.ts), and its totals deferred when only that statement reads the
// target, change how the program is evaluated, never what it leaves: each sequence of runs goes
// through a real sandbox session twice, rewritten and as written (a comment naming `$sbtRow` turns
// every rewrite off), on both engines; values, output, errors with line and column, and what later
// runs see of the target must be the same. Steps marked `rw` also check that the preparation routed
// the statement through the guest's `top` (`df`: and deferred the totals); `as` steps that it did not.
// A user table brings ties, -0 and null totals, keys on Object.prototype, null and 'null', and
// array-index keys (which come first in an object's own order).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, shutdown } from '../../../src/index.js';
import { byHand } from '../../helpers/byHand.js';
import { prepareCode } from '../../../src/runtime/prepare/transform.js';
import { runOutcome } from '../../helpers/runOutcome.js';

let dir = '';
let edgeCsv = '';
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'keyed-top-'));
  edgeCsv = join(dir, 'edge.csv');
  // every value at least twice: the string columns are dictionary-coded (dictEncode's rule)
  const rows = [
    ['b', '2', '-0', 'constructor'],
    ['a', '1', '5', 'null'],
    ['10', '3', '', 'x'],
    ['2', '3', '5', 'y'],
    ['c', '-0', '7', 'x'],
    ['a', '', '-0', 'null'],
    ['01', '1', '3', 'y'],
    ['z', '2', '2', 'x'],
  ];
  const lines = ['S,V,W,P'];
  for (let k = 0; k < 2; k++) for (const r of rows) lines.push(r.join(','));
  writeFileSync(edgeCsv, lines.join('\n') + '\n');
});
afterAll(async () => {
  await shutdown();
  rmSync(dir, { recursive: true, force: true });
});

type Step = string | { code: string; top: boolean; defer?: boolean };
const rw = (code: string): Step => ({ code, top: true });
const df = (code: string): Step => ({ code, top: true, defer: true });
const as = (code: string): Step => ({ code, top: false });

const mapLoop = (name: string, key: string, term: string, t = 'award_data') =>
  `const ${name} = new Map();\nfor (const r of ${t}.objects()) ${name}.set(r[${key}], (${name}.get(r[${key}]) || 0) + (${term}));\n`;
const objectLoop = (name: string, key: string, term: string, t = 'award_data') =>
  `const ${name} = {};\nfor (const r of ${t}.objects()) ${name}[r[${key}]] = (${name}[r[${key}]] || 0) + (${term});\n`;

const SEQUENCES: Record<string, Step[]> = {
  'the model-style programs, both directions, every loop form, and the targets read by later runs': [
    df(
      "const by = new Map();\nfor (const r of award_data.select('Company', 'Award Amount').objects()) by.set(r.Company, (by.get(r.Company) || 0) + (r['Award Amount'] || 0));\n[...by].sort((a, b) => b[1] - a[1]).slice(0, 5)",
    ),
    df(
      "const c = award_data.array('Company'), a = award_data.array('Award Amount');\nconst byc = {};\nfor (let i = 0; i < c.length; i++) byc[c[i]] = (byc[c[i]] || 0) + (a[i] || 0);\nObject.entries(byc).sort((x, y) => y[1] - x[1]).slice(0, 5)",
    ),
    // the same again: the loop's kept groups
    df(
      "const by = new Map();\nfor (const r of award_data.select('Company', 'Award Amount').objects()) by.set(r.Company, (by.get(r.Company) || 0) + (r['Award Amount'] || 0));\n[...by].sort((a, b) => b[1] - a[1]).slice(0, 5)",
    ),
    df(
      "const ya = {};\nfor (const y of award_data.array('Award Year')) ya[y] = (ya[y] || 0) + 1;\nObject.entries(ya).sort((p, q) => p[1] - q[1]).slice(0, 7)",
    ),
    df(
      "const ag = new Map();\nfor (const r of award_data.select('Agency').objects()) ag.set(r.Agency, (ag.get(r.Agency) ?? 0) + 1);\n[...ag].sort(function (a, b) { return a[1] - b[1]; }).slice(0, 100)",
    ),
    df(
      "const ph = {};\nfor (const r of award_data.select('Phase', 'Award Amount').objects()) { if (r['Award Amount'] == null) continue; ph[r.Phase] = (ph[r.Phase] || 0) + r['Award Amount']; }\nObject.entries(ph).sort((a, b) => b[1] - a[1]).slice(0, 0)",
    ),
    '[by.size, [...by].slice(0, 3), Object.keys(byc).length, Object.entries(byc).slice(-2), Object.entries(ya), [...ag], ph]',
    // read later through a function, a spread and a reassignment
    df(
      "const z = new Map();\nfor (const r of award_data.select('State').objects()) z.set(r.State, (z.get(r.State) || 0) + 1);\n[...z].sort((a, b) => b[1] - a[1]).slice(0, 3)",
    ),
    '(() => z.get(null))()',
    df(
      "const z2 = {};\nfor (const r of award_data.select('State').objects()) z2[r.State] = (z2[r.State] || 0) + 1;\nObject.entries(z2).sort((a, b) => b[1] - a[1]).slice(0, 3)",
    ),
    'z2 = 5; z2',
    // the target read again after the statement: its totals are written at the loop, the top still read
    rw(
      "const w = new Map();\nfor (const r of award_data.select('Agency').objects()) w.set(r.Agency, (w.get(r.Agency) || 0) + 1);\n[...w].sort((a, b) => b[1] - a[1]).slice(0, 2);\nw.size",
    ),
  ],
  'ties, -0 and nulls, array-index keys, keys that meet or sit on Object.prototype (a user table)': [
    df(`${objectLoop('t1', "'S'", 'r.V || 0', 'k')}Object.entries(t1).sort((a, b) => b[1] - a[1]).slice(0, 20)`),
    df(`${objectLoop('t2', "'S'", 'r.V ?? 0', 'k')}Object.entries(t2).sort((a, b) => a[1] - b[1]).slice(0, 4)`),
    df(`${mapLoop('t3', "'S'", 'r.W || 0', 'k')}[...t3].sort((a, b) => b[1] - a[1]).slice(0, 20)`),
    df(`${mapLoop('t4', "'V'", '1', 'k')}[...t4].sort((a, b) => a[1] - b[1]).slice(0, 3)`),
    df(`${objectLoop('t5', "'V'", 'r.W || 0', 'k')}Object.entries(t5).sort((a, b) => b[1] - a[1]).slice(0, 20)`),
    // 'constructor' is on Object.prototype, null and 'null' meet as property keys: the loop runs as written
    df(`${objectLoop('t6', "'P'", '1', 'k')}Object.entries(t6).sort((a, b) => b[1] - a[1]).slice(0, 20)`),
    df(`${mapLoop('t7', "'P'", 'r.V || 0', 'k')}[...t7].sort((a, b) => b[1] - a[1]).slice(0, 20)`),
    '[Object.entries(t1), Object.entries(t2), [...t3], [...t4], Object.keys(t5), Object.entries(t6), [...t7]]',
  ],
  'methods a run replaced: the statement runs as written, on totals written first': [
    'const AP = Object.getPrototypeOf([]), MP = Object.getPrototypeOf(new Map()), OP = Object.getPrototypeOf({});\n' +
      'const saved = { sort: AP.sort, slice: AP.slice, it: MP[Symbol.iterator], entries: Object.entries }; 1',
    "AP.sort = function () { return [['mine', 1]] }; 1",
    df(`${mapLoop('s1', "'Agency'", '1')}[...s1].sort((a, b) => b[1] - a[1]).slice(0, 2)`),
    's1.size',
    "AP.sort = saved.sort; MP[Symbol.iterator] = function* () { yield ['it', 1] }; 1",
    df(`${mapLoop('s3', "'Agency'", '1')}[...s3].sort((a, b) => b[1] - a[1]).slice(0, 2)`),
    's3.size',
    // entries the statement as written reads from the target: its totals must be there
    "MP[Symbol.iterator] = saved.it; Object.entries = (o) => saved.entries(o).map(([k, v]) => [k + '!', v]); 1",
    df(
      `${objectLoop('s4', "'Agency'", "r['Award Amount'] || 0")}Object.entries(s4).sort((a, b) => b[1] - a[1]).slice(0, 3)`,
    ),
    'Object.entries = saved.entries; Object.keys(s4).length',
    // the statement as written throws: the run's write-back still holds the totals
    "Object.entries = (o) => { const e = saved.entries(o); if (e.some(([k]) => k === 'Phase II')) throw new Error('no entries'); return e }; 1",
    df(`${objectLoop('s5', "'Phase'", '1')}Object.entries(s5).sort((a, b) => b[1] - a[1]).slice(0, 2)`),
    'Object.entries = saved.entries; Object.entries(s5)',
    // a setter put on Object.prototype after the run: the deferred totals are defined, not assigned
    df(`${objectLoop('s6', "'Phase'", '1')}Object.entries(s6).sort((a, b) => b[1] - a[1]).slice(0, 2)`),
    "Object.defineProperty(OP, 'Phase I', { set(v) { print('setter', v) }, configurable: true }); 1",
    '[Object.entries(s6), s6["Phase I"]]',
    "delete OP['Phase I']; [[3, 1, 2].sort(), [...new Map([[1, 2]])], Object.entries({ a: 1 }).slice(0)]",
  ],
  'entries mapped to [key, value] first: pair accumulators and totals': [
    df(
      "const by = new Map();\nfor (const r of award_data.select('Company', 'Award Amount', 'Number Employees').objects()) {\n  if (!(r['Number Employees'] >= 10)) continue;\n  const e = by.get(r.Company) || { s: 0, e: 0 };\n  e.s += r['Award Amount'] || 0; e.e = Math.max(e.e, r['Number Employees']);\n  by.set(r.Company, e);\n}\n[...by].map(([c, v]) => [c, v.s / v.e]).sort((a, b) => b[1] - a[1]).slice(0, 3)",
    ),
    df(
      "const c = award_data.array('Company'), a = award_data.array('Award Amount'), n = award_data.array('Number Employees');\nconst bya = new Map();\nfor (let i = 0; i < c.length; i++) { if (!(n[i] >= 10)) continue; const e = bya.get(c[i]) || [0, 0]; e[0] += a[i] || 0; e[1] = Math.max(e[1], n[i]); bya.set(c[i], e); }\n[...bya].map(([k, [s, e]]) => [k, s / e]).sort((x, y) => y[1] - x[1]).slice(0, 3)",
    ),
    df(
      "const ph = {};\nfor (const r of award_data.select('Phase', 'Award Amount').objects()) { const e = (ph[r.Phase] ||= [0, 0]); e[0] += r['Award Amount'] || 0; e[1]++; }\nObject.entries(ph).map(([k, v]) => [k, -(v[0] - 1) / (v[1] * 2 + 0.5)]).sort((x, y) => x[1] - y[1]).slice(0, 2)",
    ),
    df(
      `${objectLoop('m1', "'S'", 'r.V || 0', 'k')}Object.entries(m1).map(([k, v]) => [k, v * 0]).sort((a, b) => b[1] - a[1]).slice(0, 20)`,
    ),
    df(
      `${mapLoop('m2', "'S'", 'r.W || 0', 'k')}[...m2].map(([k, t]) => [k, t / (t - 5)]).sort((a, b) => b[1] - a[1]).slice(0, 20)`,
    ),
    '[[...by].slice(0, 2), [...bya].slice(0, 2), ph, Object.entries(m1), [...m2]]',
  ],
  'statements the rewrite leaves as written': [
    as(`${mapLoop('u1', "'Agency'", '1')}[...u1].sort((a, b) => b[1] - a[1]).slice(1, 3)`),
    as(`${mapLoop('u2', "'Agency'", '1')}[...u2].sort((a, b) => b[1] - a[1]).slice(0, 101)`),
    as(`${mapLoop('u3', "'Agency'", '1')}[...u3].sort((a, b) => b[0] - a[0]).slice(0, 3)`),
    as(`${mapLoop('u4', "'Agency'", '1')}[...u4].sort((a, b) => b[1] - a[1])`),
    as(`${objectLoop('u5', "'Agency'", '1')}Object.values(u5).sort((a, b) => b - a).slice(0, 3)`),
    as(
      `const Object = { entries: () => [['o', 1]] };\n${objectLoop('u6', "'Agency'", '1')}Object.entries(u6).sort((a, b) => b[1] - a[1]).slice(0, 3)`,
    ),
    as(`${mapLoop('u7', "'Agency'", '1')}[...u7, ...u7].sort((a, b) => b[1] - a[1]).slice(0, 3)`),
    as(`${mapLoop('u8', "'Agency'", '1')}const n8 = 2;\n[...u8].sort((a, b) => b[1] - a[1]).slice(0, n8)`),
    as(
      `${mapLoop('u9', "'Agency'", '1')}[...u9].map(([k, v]) => [k, Math.sqrt(v)]).sort((a, b) => b[1] - a[1]).slice(0, 2)`,
    ),
    as(`${mapLoop('u10', "'Agency'", '1')}[...u10].map(([k, v]) => [v, k]).sort((a, b) => b[1] - a[1]).slice(0, 2)`),
    as(`${mapLoop('u11', "'Agency'", '1')}[...u11].map(([k, v]) => [k, v.s]).sort((a, b) => b[1] - a[1]).slice(0, 2)`),
  ],
};

/** The same program with the rewrite defeated: a comment naming its prefix turns it off. */
const asWritten = (code: string) => `${code}\n// $sbtRow`;

describe.each(['isolated-vm', 'quickjs'] as const)('top entries of keyed loops on %s', (engine) => {
  it.each(Object.keys(SEQUENCES))('%s: same answers as the code as written', async (name) => {
    await using rewritten = await createSandbox({ engine, tables: { k: edgeCsv } });
    await using plain = await createSandbox({ engine, tables: { k: edgeCsv } });
    for (const step of SEQUENCES[name]!) {
      const code = typeof step === 'string' ? step : step.code;
      if (typeof step !== 'string') {
        const prepared = prepareCode(code).code;
        expect(prepared.includes('__sbirtools_rowLoop.top('), code).toBe(step.top);
        expect(prepared.includes('["defer",'), code).toBe(step.defer === true);
      }
      const [a, b] = [await rewritten.run(code), await plain.run(asWritten(code))];
      expect(runOutcome(a), code).toEqual(runOutcome(b));
    }
  });

  it('the guest answers only the target the last keyed loop wrote', async () => {
    await using box = byHand(await createSandbox({ engine }));
    const r = await box.run(
      "const m = new Map([['a', 1]]);\nconst none = __sbirtools_rowLoop.top(m, ['map', 1, 1]);\n" +
        "const m2 = new Map();\nfor (const r of award_data.select('Phase').objects()) m2.set(r.Phase, (m2.get(r.Phase) || 0) + 1);\n" +
        "const other = __sbirtools_rowLoop.top(m, ['map', 1, 1]);\nconst again = __sbirtools_rowLoop.top(m2, ['map', 1, 1]);\n" +
        '[none, other, again, m2.size > 0]',
    );
    expect(r.error).toBeUndefined();
    expect(r.value).toEqual([null, null, null, true]);
  });
});
