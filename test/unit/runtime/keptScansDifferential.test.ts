// The host's text-scan answers are kept in the isolate for the session (prelude/data/keptScans.ts)
// and shared by every style that asks them: loops the preparation rewrites, array and objects()
// chains, Arquero filters, Series string methods. One isolated-vm session runs many such questions
// of two text columns, interleaved and three times over, so each question meets answers another one
// kept (another needle, another fold, lengths in characters and in UTF-16 units, another column):
// every answer must be what QuickJS gives by testing the decoded rows, run after run.
import { afterAll, describe, expect, it } from 'vitest';
import { createSandbox, shutdown } from '../../../src/index.js';
import { runOutcome } from '../../helpers/runOutcome.js';

afterAll(() => shutdown());

const ROWS = 9_000; // three pages of 4,096 rows
const SPECIAL = [
  'N/A',
  'n/a',
  '',
  'café “Machine Learning”',
  '😀 pair 𝔘 machine learning',
  'Quantum dots',
  '\uD83D lone high',
  'İSTANBUL QUANTUM',
  'machine learning',
  'N/A ',
];
function textOf(i: number, salt: number): string | null {
  if (i % (13 + salt) === 0) return null;
  if (i % (7 + salt) === 0) return SPECIAL[((i / (7 + salt) + salt) % SPECIAL.length) | 0]!;
  return `${i} text ${'lorem '.repeat((i + salt) % 25)}${i % (11 + salt) === 0 ? 'machine learning' : ''}${i % 5 === salt ? ' quantum' : ''}`;
}
const rows = Array.from({ length: ROWS }, (_, id) => ({ id, body: textOf(id, 0), title: textOf(id, 2) }));
const tables = { docs: rows };

/** The styles of bench/model-styles.mjs, over both columns, several needles and folds. */
const PROGRAMS: string[] = [];
for (const col of ['body', 'title']) {
  const q = `'${col}'`;
  PROGRAMS.push(
    // missing or a marker
    `docs.select(${q}).objects().filter(r => r.${col} == null || r.${col} === 'N/A').length`,
    `docs.array(${q}).filter(a => a == null || a === 'n/a').length`,
    `docs.filter(d => d.${col} == null || d.${col} === 'N/A ').numRows()`,
    `docs[${q}].isna().sum() + docs[${q}].eq('N/A').sum()`,
    `[docs[${q}].notna().sum(), docs[${q}].ne('n/a').sum()]`,
    // contains, folded or not
    `let n = 0;\nfor (const r of docs.select(${q}).objects()) if (r.${col} && r.${col}.toLowerCase().includes('quantum')) n++;\nn`,
    `let n = 0;\nfor (const t of docs.array(${q})) if (t && t.includes('Quantum')) n++;\nn`,
    `docs.filter(d => op.includes(op.lower(d.${col}), 'machine learning')).numRows()`,
    `docs.filter(d => op.includes(d.${col}, 'Machine Learning')).numRows()`,
    `docs[${q}].str.contains('machine learning', { regex: false }).sum()`,
    `docs[${q}].str.contains('QUANTUM', { case: false }).sum()`,
    `docs.select(${q}).objects().filter(r => r.${col} && r.${col}.includes('machine learning')).length`,
    // lengths: characters (str.len) and UTF-16 units (.length, op.length)
    `let total = 0, n = 0;\nfor (const a of docs.array(${q})) if (a && a.length >= 40) { total += a.length; n++; }\ntotal / n`,
    `let total = 0, n = 0;\nfor (const r of docs.select(${q}).objects()) if (r.${col} && r.${col}.length >= 20) { total += r.${col}.length; n++; }\ntotal / n`,
    `docs.derive({ len: d => op.length(d.${col}) }).filter(d => d.len >= 40).rollup({ m: op.mean('len') }).get('m', 0)`,
    `const len = docs[${q}].str.len();\nlen.filter(len.ge(40)).mean()`,
    `docs[${q}].str.len().sum()`,
    `docs.filter(d => d.${col} != null && d.${col}.length > 30).numRows()`,
    // distinct values
    `docs[${q}].nunique()`,
    // two filters: the second ands into a copy of the first one's kept truth, never into it
    `docs.array(${q}).filter(a => a != null).filter(a => a !== 'N/A').length`,
    `[docs.array(${q}).filter(a => a != null).length, docs.array(${q}).filter(a => a !== 'N/A').length]`,
    `docs.array(${q}).filter(a => a != null && a.includes('quantum')).filter(a => a.length > 30).length`,
    `docs.select(${q}).objects().filter(r => r.${col} != null && r.${col}.includes('quantum')).length`,
    `docs.array(${q}).filter(a => a != null).some(a => a === 'N/A ')`,
  );
}

describe('text-scan answers kept for the session (isolated-vm) against QuickJS on the decoded rows', () => {
  it('every style, interleaved, three passes: the same answers', async () => {
    await using kept = await createSandbox({ awardData: false, tables, timeoutMs: 60_000 });
    await using plain = await createSandbox({ engine: 'quickjs', awardData: false, tables, timeoutMs: 60_000 });
    const want = new Map<string, unknown>();
    for (const code of PROGRAMS) want.set(code, runOutcome(await plain.run(code)));
    for (let pass = 0; pass < 3; pass++) {
      // the order changes between passes: a question first asked after another one kept its answers
      const order = pass === 1 ? [...PROGRAMS].reverse() : PROGRAMS;
      for (const code of order) {
        const got = await kept.run(code);
        expect(got.ok, `${code}: ${got.error?.message}`).toBe(true);
        expect(runOutcome(got), `pass ${pass}: ${code}`).toEqual(want.get(code));
      }
    }
    // a run replaces a string method the kept answers stand for: the callbacks run as written again
    const replaced = [
      // a derived length column kept for the session: a run writing into its array writes a copy
      "const a = docs.derive({ len: d => op.length(d.body) }).array('len'); a.fill(3); a[1]",
      "docs.derive({ len: d => op.length(d.body) }).filter(d => d.len >= 40).rollup({ m: op.mean('len') }).get('m', 0)",
      "aq.addFunction('length', (x) => 100, { override: true });\ndocs.derive({ len: d => op.length(d.body) }).filter(d => d.len >= 40).rollup({ m: op.mean('len') }).get('m', 0)",
      "Object.getPrototypeOf('').includes = function () { return true; };\ndocs.select('body').objects().filter(r => r.body && r.body.includes('machine learning')).length",
      "docs.array('title').filter(a => a != null && a.includes('quantum')).length",
      "let n = 0;\nfor (const t of docs.array('body')) if (t && t.includes('Quantum')) n++;\nn",
    ];
    for (const code of replaced)
      expect(runOutcome(await kept.run(code)), code).toEqual(runOutcome(await plain.run(code)));
  }, 180_000);
});
