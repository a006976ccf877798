// A session's first runs read a column's typed values where the code as written would have made a
// boxed copy of the whole column only to read a few values of it (session 21): a chain bound to a
// name makes its array from the typed values (prelude/fast/arrayChain.ts `make`), a loop that keeps
// one row builds that row alone (prelude/data/rowObjects.ts `rowAt`), a row array only loops read
// takes its columns' values when first needed (`lazyRows`), and a pluck straight into a chain reads
// the rows' values only if the chain makes its array as written (prelude/data/rowChain.ts). Each
// sequence runs in two sessions, rewritten and with the rewrite defeated (a comment naming `$sbtRow`
// turns it off), on both engines:
// values, output and errors, and what later runs read of the names, must be the same. On
// isolated-vm (where these paths run) each also checks, after its first step, that the columns named
// were not boxed (`column(name).builtValues()`, null until the session holds a copy of every value).
import { afterAll, describe, expect, it } from 'vitest';
import { createSandbox, shutdown } from '../../../src/index.js';
import { runOutcome } from '../../helpers/runOutcome.js';

afterAll(() => shutdown());

/** Every value, -0, NaN, Dates and null told apart, in one string. */
const SETUP = `var sig = (xs) => xs.map((v) => (v instanceof Date ? 'D' + v.getTime() : Object.is(v, -0) ? '-0' : typeof v === 'number' ? String(v) : typeof v + ':' + String(v))).join(',');
var rowSig = (r) => r === null ? 'null' : Object.keys(r).map((k) => k + '=' + sig([r[k]])).join('|');
1`;

interface Sequence {
  /** The first step: the session's first touch of these columns. */
  first: string;
  /** Columns the first step must leave unboxed on isolated-vm. */
  unboxed: string[];
  /** Later steps, reading what the first left in the names. */
  then: string[];
}

const SEQUENCES: Record<string, Sequence> = {
  'a chain bound to a name, its array read in later runs': {
    first:
      "const a = award_data.array('Award Amount').filter(v => v != null);\n[a.reduce((s, v) => s + v, 0) / a.length, a.length]",
    unboxed: ['Award Amount'],
    then: [
      '[a.length, sig(a.slice(0, 40)), sig(a.slice(-5)), Array.isArray(a), Object.keys(a).length]',
      // the column boxed now (array() hands it out): the same chain copies its values from it
      "const whole = award_data.array('Award Amount');\nconst z = award_data.array('Award Amount').filter(v => v !== 0);\n[whole.length, z.length, sig(z.slice(0, 60)), z.filter(v => v === null).length]",
      "const y = award_data.array('Award Year').filter(v => v > 2000);\n[Math.min(...y), Math.max(...y), y.length, sig(y.slice(0, 9))]",
    ],
  },
  'a pluck straight into a chain, sorted': {
    first:
      "const p = award_data.select('Award Amount').objects().map(r => r['Award Amount']).filter(v => v != null).sort((x, y) => x - y);\n[p.length, p[0], p[p.length - 1], p[(p.length / 2) | 0]]",
    unboxed: ['Award Amount'],
    then: [
      '[p.length, sig(p.slice(0, 30)), Array.isArray(p)]',
      "award_data.select('Award Year').objects().map(r => r['Award Year']).filter(y => y > 2010).length",
      "const q = award_data.objects().map(r => r['Number Employees']).filter(v => v !== null).map(v => v * 2);\n[q.length, sig(q.slice(-20))]",
    ],
  },
  'a loop that keeps one row of every column, dates and text among them': {
    first:
      "let best = null;\nfor (const r of award_data.objects()) if (r['Award Amount'] != null && (best === null || r['Award Amount'] > best['Award Amount'])) best = r;\nrowSig(best)",
    unboxed: ['Company', 'Award Amount', 'Agency'],
    then: [
      "[Object.keys(best).length, best['Proposal Award Date'] instanceof Date, best['Proposal Award Date'] === best['Proposal Award Date'], typeof best.Abstract]",
      "best['Award Amount'] = -1; best['Proposal Award Date'].setUTCFullYear(1900);\nlet again = null;\nfor (const r of award_data.objects()) if (r['Award Amount'] != null && (again === null || r['Award Amount'] > again['Award Amount'])) again = r;\n[again === best, rowSig(again)]",
      "let low = null;\nfor (const r of award_data.select('Company', 'Award Amount', 'Proposal Award Date').objects()) if (r['Award Amount'] != null && (low === null || r['Award Amount'] < low['Award Amount'])) low = r;\nrowSig(low)",
      // the row cache holds these columns now: the kept row comes from it
      "const held = award_data.select('Company', 'Award Amount').objects();\nlet top = null;\nfor (const r of award_data.select('Company', 'Award Amount').objects()) if (r['Award Amount'] != null && (top === null || r['Award Amount'] >= top['Award Amount'])) top = r;\n[held.length, rowSig(top)]",
      "let none = null;\nfor (const r of award_data.objects()) if (r['Award Amount'] > 1e15 && (none === null || r['Award Amount'] > none['Award Amount'])) none = r;\nnone",
    ],
  },
  'a row array only loops read, its rows read in later runs': {
    first:
      "const rows = award_data.select('Award Amount', 'Phase').objects();\nlet s = 0, n = 0;\nfor (const r of rows) if (r['Award Amount'] != null) { s += r['Award Amount']; n++; }\n[s / n, n]",
    unboxed: ['Award Amount', 'Phase'],
    then: [
      '[rows.length, rowSig(rows[5]), rows[7].Phase, Object.keys(rows[0]).join()]',
      // a loop over the rows that runs as written: the reused row, its Dates those the rows get
      "const rs = award_data.select('Proposal Award Date', 'Award Amount', 'Company').objects();\nconst seen = [];\nfor (const r of rs) if (r['Proposal Award Date'] !== null && r['Award Amount'] > 5e5) seen.push([r.Company.length, r['Proposal Award Date']]);\n[seen.length, sig(seen.slice(0, 12).map((x) => x[1])), seen[0][0]]",
      "const firstSeen = rs.find((r) => r['Proposal Award Date'] !== null && r['Award Amount'] > 5e5);\n[rs.length, seen[0][1] === firstSeen['Proposal Award Date'], seen[0][1] instanceof Date, rowSig(rs[3])]",
      // a keyed push over the rows: what it pushes, and the rows read later
      "const rp = award_data.select('Proposal Award Date', 'Award Amount').objects();\nconst pushed = [];\nfor (const r of rp) if (r['Award Amount'] > 5e5) pushed.push(r['Proposal Award Date']);\n[pushed.length, sig(pushed.slice(0, 12))]",
      "[rp.length, rowSig(rp[1]), pushed.filter((d) => d !== null)[0] === rp.filter((r) => r['Award Amount'] > 5e5 && r['Proposal Award Date'] !== null)[0]['Proposal Award Date']]",
      "const rc = award_data.select('Phase', 'Award Year').objects();\n[rc.filter(r => r.Phase === 'Phase II').length, rc.length]",
      '[rc.length, rowSig(rc[rc.length - 1])]',
      'const every = award_data.objects();\nlet k = 0;\nfor (const r of every) k += r.Abstract == null ? 0 : 1;\nk',
      '[every.length, typeof every[2].Abstract, rowSig(every[11])]',
    ],
  },
};

/** The same program with the rewrite defeated: a comment naming its prefix turns it off. */
const asWritten = (code: string) => `${code}\n// $sbtRow`;

describe.each(['isolated-vm', 'quickjs'] as const)('first runs that box nothing they need not, on %s', (engine) => {
  it.each(Object.keys(SEQUENCES))('%s: same answers as the code as written', async (name) => {
    await using rewritten = await createSandbox({ engine });
    await using plain = await createSandbox({ engine });
    const seq = SEQUENCES[name]!;
    for (const box of [rewritten, plain]) expect((await box.run(SETUP)).ok).toBe(true);
    const [a, b] = [await rewritten.run(seq.first), await plain.run(asWritten(seq.first))];
    expect(runOutcome(a), seq.first).toEqual(runOutcome(b));
    expect(a.ok, seq.first).toBe(true);
    if (engine === 'isolated-vm') {
      const probe = `${JSON.stringify(seq.unboxed)}.map((c) => award_data.column(c).builtValues() === null)`;
      expect((await rewritten.run(probe)).value, seq.first).toEqual(seq.unboxed.map(() => true));
    }
    for (const code of seq.then) {
      const [x, y] = [await rewritten.run(code), await plain.run(asWritten(code))];
      expect(runOutcome(x), code).toEqual(runOutcome(y));
    }
  });
});
