// Hazard: a run replaces a builtin or writes to a prototype (Object.prototype[0], a setter named
// like a column value, Map.prototype.get, Math.max, `Map = ...`), then runs a loop or chain the
// preparation rewrites (keyed loops, row loops, row arrays, date loops, text loops, table loops,
// array chains, sort calls, row chains). The rewritten program must answer exactly what the program
// as written does in the same polluted realm (a comment naming `$sbtRow` turns every rewrite off):
// the fast path either does not depend on what the run changed (the prelude binds its builtins when
// it loads: scripts/build-prelude.mjs, prelude/intrinsics.ts) or declines. The next run of the
// session must agree too: the pollution stays (a session keeps what its runs did), the prelude keeps
// working. Both engines. Before session 14, Set.prototype.add, Map.prototype.get, Math.max, a
// reassigned Map or Float64Array made the fast path throw ("Cannot read properties of undefined
// (reading 'column')", "Maximum call stack size exceeded", "textScan returned malformed data") or
// answer wrongly (a text loop's total read null) where the loop as written answered.
import { afterAll, describe, expect, it } from 'vitest';
import { createSandbox, shutdown } from '../../src/index.js';
import { PLAIN_JS_FEELS, PRELUDE_IMMUNE, PROTOS } from '../helpers/pollutions.js';
import { runOutcome } from '../helpers/runOutcome.js';

afterAll(() => shutdown());

/** One program per rewrite (and shape of it), over the embedded sample. */
const PROGRAMS: Record<string, string> = {
  'keyed loop, object':
    "const c = {};\nfor (const r of award_data.select('Phase').objects()) c[r.Phase] = (c[r.Phase] || 0) + 1;\nObject.entries(c)",
  'keyed loop, Map over arrays':
    "const ag = award_data.array('Agency'), amt = award_data.array('Award Amount');\nconst m = new Map();\nfor (let i = 0; i < ag.length; i++) m.set(ag[i], (m.get(ag[i]) || 0) + (amt[i] || 0));\n[...m]",
  'keyed loop, number keys':
    "const y = {};\nfor (const a of award_data.array('Award Year')) y[a] = (y[a] || 0) + 1;\nObject.entries(y)",
  'keyed loop, pair accumulator':
    "const q = {};\nfor (const r of award_data.select('Phase', 'Award Amount').objects()) { if (r['Award Amount'] == null) continue; const e = (q[r.Phase] ||= [0, 0]); e[0] += r['Award Amount']; e[1]++; }\nObject.entries(q).map(([k, [s, n]]) => [k, s / n])",
  'keyed loop, entry objects with Math.max':
    "const q = new Map();\nfor (const r of award_data.select('State', 'Award Amount').objects()) { const k = r.State; if (!q.has(k)) q.set(k, { sum: 0, n: 0, hi: 0 }); const e = q.get(k); e.sum += r['Award Amount'] || 0; e.n++; e.hi = Math.max(e.hi, r['Award Amount'] || 0); }\n[...q].slice(0, 8)",
  'keyed loop over a table':
    'const u = {};\nfor (const r of award_data) u[r.Agency] = (u[r.Agency] || 0) + 1;\nObject.entries(u)',
  'row loop':
    "let s = 0, n = 0;\nfor (const r of award_data.objects()) { if (r.Phase === 'Phase II') { s += r['Award Amount'] || 0; n++; } }\n[s, n]",
  'row loop, tolist': "let s = 0;\nfor (const r of award_data.tolist()) s += r['Award Year'];\ns",
  'row array, index loop':
    "const rows = award_data.objects();\nlet s = 0;\nfor (let i = 0; i < rows.length; i++) s += rows[i]['Award Amount'] || 0;\ns",
  'row loop that pushes':
    "const out = [];\nfor (const r of award_data.objects()) if (r['Award Amount'] > 1e6) out.push(r.Company);\n[out.length, out.slice(0, 3)]",
  'date loop, parts':
    "const m = new Array(13).fill(0);\nfor (const d of award_data.array('Proposal Award Date')) if (d && d.getUTCFullYear() >= 2020) m[d.getUTCMonth() + 1]++;\nm",
  'date loop, times':
    "let latest = -Infinity;\nfor (const d of award_data.array('Proposal Award Date')) if (d && d.getTime() > latest) latest = d.getTime();\nlatest",
  'array chain, filter and map': "award_data.array('Award Amount').filter(x => x > 500000).map(x => x * 2).length",
  'array chain, reduce': "award_data.array('Award Amount').filter(x => x != null).reduce((s, x) => s + x, 0)",
  'sort call':
    "const v = award_data.array('Award Amount').filter(x => x != null);\nv.sort((a, b) => a - b);\n[v[0], v[v.length - 1], v.slice(0, 3)]",
  'Math.max and Math.min spreads':
    "const v = award_data.array('Award Amount').filter(x => x != null);\n[Math.max(...v), Math.min(...v)]",
  'sort of rows':
    "award_data.objects().sort((a, b) => b['Award Amount'] - a['Award Amount']).slice(0, 3).map(r => r.Company)",
  'text loop, contains':
    "let n = 0;\nfor (const a of award_data.array('Abstract')) if (a && a.toLowerCase().includes('quantum')) n++;\nn",
  'text loop, lengths': "let t = 0;\nfor (const a of award_data.array('Abstract')) if (a) t += a.length;\nt",
  'row chain, filter length': "award_data.objects().filter(r => r.Phase === 'Phase II').length",
  'row chain, filter map': "award_data.objects().filter(r => r['Award Amount'] > 1e6).map(r => r.Company).slice(0, 5)",
  'row chain, reduce': "award_data.objects().reduce((s, r) => s + (r['Award Amount'] || 0), 0)",
};

/** What the next run of the session reads: the prelude still works, in both sessions alike. */
const NEXT_RUN =
  "[award_data.numRows(), award_data.array('Agency').slice(0, 2), award_data.Phase.value_counts().numRows(), award_data['Award Amount'].sum()]";

const asWritten = (code: string) => `${code}\n// $sbtRow`;

/**
 * Which programs a pollution runs against on an engine. isolated-vm: every program under every
 * pollution. QuickJS interprets the same rewrites (the preparation is the host's, the same for both
 * engines) about 20x slower, and the whole cross product was 224 s of the suite's slowest file: there
 * each pollution runs every third program, rotating with the pollution's index, so every program
 * still meets a third of the pollutions, both the prelude-immune and the plain-JS ones.
 */
const programsFor = (engine: 'isolated-vm' | 'quickjs', caseIndex: number): string[] =>
  Object.values(PROGRAMS).filter((_, i) => engine === 'isolated-vm' || (i + caseIndex) % 3 === 0);

describe.each(['isolated-vm', 'quickjs'] as const)('a polluted realm on %s', (engine) => {
  const cases = [
    ...Object.entries(PRELUDE_IMMUNE).map(([name, code]) => [name, code, true] as const),
    ...Object.entries(PLAIN_JS_FEELS).map(([name, code]) => [name, code, false] as const),
  ].map(([name, code, immune], index) => [name, code, immune, index] as const);
  it.each(cases)(
    '%s: every rewritten program answers what it does as written, and the next run too',
    async (_name, pollution, immune, index) => {
      await using rewritten = await createSandbox({ engine });
      await using plain = await createSandbox({ engine });
      for (const code of programsFor(engine, index)) {
        const run = `${PROTOS}${pollution}\n${code}`;
        const [a, b] = [await rewritten.run(run), await plain.run(asWritten(run))];
        expect(runOutcome(a), code).toEqual(runOutcome(b));
      }
      const [a, b] = [await rewritten.run(NEXT_RUN), await plain.run(asWritten(NEXT_RUN))];
      expect(runOutcome(a)).toEqual(runOutcome(b));
      // pollution the prelude does not feel leaves its helpers working (what plain JS feels may not)
      if (immune) expect(a.error, 'the session still runs').toBeUndefined();
    },
  );
});
