// A row array bound to a name that only loops read (`['defer']`, src/runtime/prepare/rowArrays.ts)
// keeps its rows pending past its run (prelude/data/pendingRows.ts `holdRows`): the global becomes an
// accessor that builds them at the first read and is dropped, unbuilt, by a write. Which runs read
// the name must never show: each sequence of runs goes through a real sandbox session twice, as
// written and with the name kept global (a never-called function naming every identifier: the rows
// are then built at the objects() call), on both engines; values, output and errors must be the same.
// The last test shows when the rows are built, through a second global holding the array.
import * as acorn from 'acorn';
import { afterAll, describe, expect, it } from 'vitest';
import { createSandbox, shutdown } from '../../../src/index.js';
import { byHand } from '../../helpers/byHand.js';
import { prepareCode } from '../../../src/runtime/prepare/transform.js';
import { runOutcome } from '../../helpers/runOutcome.js';

afterAll(() => shutdown());

/** The program that leaves `pr` pending: only a loop reads it. */
const P =
  "const pr = award_data.select('Award Amount', 'Phase').objects();\nlet ps = 0, pn = 0;\nfor (const r of pr) if (r['Award Amount'] != null) { ps += r['Award Amount']; pn++ }\nps / pn";

/** Loops and `.length` read it (`len(pl2).length`): the rows' count from the call, the array still empty. */
const PL =
  "const pl2 = award_data.select('Award Amount', 'Phase').objects();\nlet pls2 = 0;\nconst before = pl2.length;\nfor (const r of pl2) pls2 += r['Award Amount'] || 0;\n[pls2 / pl2.length, before, pl2.length > 0]";

const SEQUENCES: Record<string, string[]> = {
  "loops and the name's length: the count at once, the rows at the first read": [
    PL,
    '1 + 1',
    PL,
    '[pl2.length, pl2[0], pl2[pl2.length - 1], Object.keys(pl2).length, 0 in pl2, Array.isArray(pl2)]',
    PL,
    "let n3 = 0;\nfor (const r of pl2) n3 += r.Phase === 'Phase I';\n[n3, pl2.length]",
    PL,
    'pl2.length = 2; pl2',
    "const pf = award_data.filter(d => d.Phase === 'Phase II').orderby('Award Amount').objects();\nlet pfs = 0;\nfor (const r of pf) pfs += r['Award Amount'];\n[pfs, pf.length]",
    '[pf.length, pf[0], pf[pf.length - 1]]',
    "const pe = award_data.filter(d => d.Phase === 'nope').objects();\nlet pes = 0;\nfor (const r of pe) pes++;\n[pes, pe.length]",
    'pe',
    // the array iterator replaced: the loop runs as written over the rows, built at the loop
    "const AI = Array.prototype[Symbol.iterator];\nArray.prototype[Symbol.iterator] = function () { return AI.call(this) };\nconst pi = award_data.select('Phase').objects();\nlet pic = 0;\ntry { for (const r of pi) pic += r.Phase === 'Phase I'; } finally { Array.prototype[Symbol.iterator] = AI }\n[pic, pi.length]",
    '[pi.length, pi[1]]',
    PL,
    'function sloppyLength() { return Object.getOwnPropertyDescriptor(this, "pl2").value.length }\nsloppyLength()',
  ],
  'later runs that do not mention the name, then one that reads it': [
    P,
    '1 + 1',
    "let k = 0;\nfor (const r of award_data.select('Phase').objects()) k += r.Phase === 'Phase I';\nk",
    '[pr.length, pr[0], pr[pr.length - 1], Object.keys(pr[1]), Array.isArray(pr)]',
    'pr.length',
  ],
  'iterate, chain, JSON and print the pending name': [
    P,
    "let c = 0;\nfor (const r of pr) c += r.Phase === 'Phase II';\nc",
    P,
    "pr.filter(r => r.Phase === 'Phase I').length",
    P,
    'JSON.stringify(pr.slice(0, 3))',
    P,
    'print(pr.length, pr[2]); typeof pr',
    P,
    'pr',
  ],
  'change the array or assign the name': [
    P,
    "pr.length = 2;\npr[0].Phase = 'x';\npr",
    P,
    'pr.push({ Phase: 1 });\n[pr.length, pr[pr.length - 1]]',
    P,
    'pr = [1, 2];\npr',
    'pr',
  ],
  'redeclare the name: as a value, as other rows, from its old value, in an async run': [
    P,
    'const pr = 7;\npr',
    P,
    "const pr = award_data.select('Phase').objects();\nlet q = 0;\nfor (const r of pr) q += r.Phase === 'Phase I';\n[q, pr.length, pr[3]]",
    P,
    "const pr = pr.slice(0, 3);\nlet q2 = 0;\nfor (const r of pr) q2 += r['Award Amount'] || 0;\n[q2, pr]",
    P,
    'let pr;\nfor (let i = 0; i < 2; i++) pr;\npr.length',
    P,
    'const pr = await Promise.resolve(3);\npr',
    P,
    'let pr2 = 0;\nfor (let i = 0; i < 3; i++) pr2 += i;\nconst pr = pr2;\n[pr, pr2]',
  ],
  'a run that throws before its redeclaration, one that throws mid-loop, one that throws elsewhere': [
    P,
    "if (award_data.numRows() > 0) throw new Error('early');\nconst pr = award_data.select('Phase').objects();\nfor (const r of pr) r.Phase;\n1",
    '[pr.length, pr[1]]',
    "const pt = award_data.select('Award Amount').objects();\nlet z = 0;\nfor (const r of pt) { z++; if (z > 3) throw new Error('stop at ' + r['Award Amount']) }",
    '[pt.length, pt[4], z]',
    P,
    'null.x',
    'pr.length',
    P,
    'let w = 0;\nfor (let i = 0; i < 3; i++) w++;\nconst pr = [w].map((v) => v.x.y);\nfor (const r of pr) r.x',
    '[typeof pr, pr && pr.length]',
  ],
  'a function of an earlier run reads it; delete; the global object through a sloppy this': [
    P,
    // made while the rows are pending (mentioning the name reads nothing), called in a later run
    'function peek(k) { return typeof pr === "undefined" ? -1 : pr[k] }\n1',
    'peek(2)',
    P,
    'peek(3)',
    P,
    'delete pr',
    'typeof pr',
    P,
    '(function () { const d = Object.getOwnPropertyDescriptor(this, "pr"); return ["value" in d, d.enumerable, d.value.length] })()',
    P,
    '(function () { return Object.keys(this).filter((k) => k === "pr").map((k) => this[k].length) })()',
  ],
  'values of the objects() call: an array column changed in a later run before the read': [
    "const xs = [1, 2, null];\nconst ut = aq.table({ a: xs, b: ['p', 'q', 'r'] });\nconst ur = ut.objects();\nlet us = 0;\nfor (const r of ur) us += r.a ?? 5;\nus",
    'xs[0] = 100;\nxs.length = 1;\n1',
    '[ur, xs]',
    "const ds = award_data.select('Proposal Award Date').objects();\nlet dn = 0;\nfor (const r of ds) dn += r['Proposal Award Date'] ? 1 : 0;\ndn",
    "const d0 = ds.find((r) => r['Proposal Award Date']);\n[dn, d0['Proposal Award Date'].getUTCFullYear(), ds.length]",
  ],
  'a list (tolist) only destructuring loops read': [
    "const pl = award_data.select('Phase', 'Award Amount').tolist();\nlet pls = 0;\nfor (const [p, a] of pl) pls += a || 0;\npls",
    '1',
    '[pl.length, pl[0], pl[3], Array.isArray(pl[1])]',
    "const pl = award_data.select('Phase', 'Award Amount').tolist();\nlet pls = 0;\nfor (const [p, a] of pl) pls += a || 0;\npls",
    "const pl = award_data.select('Phase').tolist();\nlet plc = 0;\nfor (const [p] of pl) plc += p === 'Phase I';\n[plc, pl.length, pl[2]]",
  ],
  'a query string that names it': [
    P,
    "const picked = award_data.filter(aq.escape((d) => d.Phase === 'Phase I')).numRows();\naward_data.params({ lim: 1e6 }).filter((d, $) => d['Award Amount'] > $.lim).numRows() + picked",
    P,
    "const few = aq.table({ Phase: ['Phase I', 'Phase II'] });\nfew.query('Phase in @pr').numRows()",
  ],
};

/** The same program with every name kept global (see localsDifferential.test.ts): no array is deferred. */
function global(code: string): string {
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

describe.each(['isolated-vm', 'quickjs'] as const)('rows a bound array defers past its run on %s', (engine) => {
  it.each(Object.keys(SEQUENCES))('%s: same answers as the name kept global', async (name) => {
    await using pending = await createSandbox({ engine });
    await using plain = await createSandbox({ engine });
    for (const code of SEQUENCES[name]!) {
      if (code === P) expect(prepareCode(code).code).toContain('["defer"]');
      if (code === PL) expect(prepareCode(code).code).toContain('__sbirtools_rowLoop.len(');
      expect(prepareCode(global(code)).code).not.toContain('["defer');
      const [a, b] = [await pending.run(code), await plain.run(global(code))];
      expect(runOutcome(a), code).toEqual(runOutcome(b));
    }
  });

  it('builds the rows at the first read of the name, and never when a write or a redeclaration comes first', async () => {
    await using box = byHand(await createSandbox({ engine }));
    // the guest's own calls, made by hand: a second global holding the array shows whether it was built
    const defer = (name: string, alias: string) =>
      `const ${alias} = award_data.select('Phase').objects(__sbirtools_rowLoop.open(['Phase'], ['defer']));\n` +
      `var ${name} = ${alias};\n__sbirtools_rowLoop.release(${alias}, '${name}');\n${alias}.length`;
    const steps: [string, unknown][] = [
      [defer('ga', 'a1'), 0],
      ['a1.length', 0],
      ['[ga.length > 0, a1.length === ga.length, ga[0].Phase === a1[0].Phase]', [true, true, true]],
      [defer('gb', 'b1'), 0],
      ['gb = 5;\n[gb, b1.length]', [5, 0]],
      [defer('gc', 'c1'), 0],
      // a program that declares the name first: neither the old array's rows nor its global are read
      [
        "const gc = award_data.select('Phase').objects();\nlet k = 0;\nfor (const r of gc) k++;\n[k > 0, c1.length]",
        [true, 0],
      ],
      ['[gc.length > 0, c1.length]', [true, 0]],
      [defer('gd', 'd1'), 0],
      ['let gd;\nfor (let i = 0; i < 1; i++) gd;\nd1.length > 0', true],
    ];
    for (const [code, value] of steps) expect((await box.run(code)).value, code).toEqual(value);
  });
});
