// Loops over a date column whose body uses the value only through its class (null or not), the
// numbers its Date methods give (getTime, valueOf, +d, comparisons, the UTC year, month, day of month,
// weekday) and places where the row's real Date is passed on (`latest = d`) run on the column's
// numbers (src/runtime/prepare/dateLoops.ts, prelude/data/dateLoop.ts): they must answer exactly what
// the loops as written do. Each sequence runs in two sandbox sessions, rewritten and with the rewrite
// defeated (a comment naming `$sbtRow` turns it off), on both engines; values, output and errors with
// line and column must be the same. The dates hold nulls, times before 1970 (negative, a millisecond
// before the epoch), the first and last times a Date can hold, and repeats (one Date per distinct
// time answers).
import { afterAll, describe, expect, it } from 'vitest';
import { createSandbox, shutdown } from '../../../src/index.js';
import { prepareCode } from '../../../src/runtime/prepare/transform.js';
import { runOutcome } from '../../helpers/runOutcome.js';

afterAll(() => shutdown());

const ROWS = 9_000;
const SPECIAL = [
  -8.64e15,
  8.64e15,
  -1,
  0,
  Date.UTC(1969, 11, 31, 23, 59, 59, 999),
  Date.UTC(2021, 0, 1),
  -62198755200000,
];
function dateOf(i: number): Date | null {
  if (i % 11 === 0) return null;
  if (i % 17 === 0) return new Date(SPECIAL[(i / 17) % SPECIAL.length]!);
  // 2015..2026, some rows on one day, most on their own millisecond
  return new Date(Date.UTC(2015 + (i % 12), (i * 7) % 12, 1 + (i % 28), i % 24, i % 60, 0, i % 3 === 0 ? 0 : i % 1000));
}
const rows = Array.from({ length: ROWS }, (_, id) => ({
  id,
  d: dateOf(id),
  full: dateOf(id) ?? new Date(0),
  s: `r${id}`,
}));
const tables = { t: rows };

/** A step the preparation leaves as written. */
type Step = string | { code: string; rewritten: false };
const left = (code: string): Step => ({ code, rewritten: false });

const SEQUENCES: Record<string, Step[]> = {
  'numbers of the Date over the array': [
    "const m = new Array(13).fill(0);\nfor (const d of t.array('d')) if (d && d.getUTCFullYear() === 2021) m[d.getUTCMonth() + 1]++;\nm",
    "let latest = -Infinity, first = Infinity;\nfor (const d of t.array('d')) if (d) { if (d.getTime() > latest) latest = d.getTime(); if (+d < first) first = d.valueOf(); }\n[latest, first]",
    "const w = [0, 0, 0, 0, 0, 0, 0], days = new Array(32).fill(0);\nfor (let d of t.array('full')) { w[d.getUTCDay()]++; days[d.getUTCDate()] += d.getUTCFullYear() < 1970 ? 100 : 1; }\nw.concat(days)",
    "let n = 0, s = 0;\nfor (const d of t.array('d')) { if (d == null) continue; if (d >= 1.5e12 && d - 1e12 < 6e11) n++; s += (d - 0) % 7; }\n[n, s]",
    "let c = [0, 0, 0, 0, 0];\nfor (const d of t.array('d')) { c[0] += typeof d === 'object'; c[1] += !d; c[2] += d === null ? 1 : 0; c[3] += d !== undefined && d != void 0 ? 1 : 0; c[4] += d ? d.getUTCDay() : -1; }\nc",
    "let n = 0, h = 0, z = 0;\nfor (const d of t.array('d')) if (d && d.getFullYear() > 2000) { n += d.getMonth() + d.getDate() + d.getDay(); h += d.getHours() * 60 + d.getUTCMinutes() + d.getMilliseconds() + d.getUTCSeconds(); z += d.getTimezoneOffset(); }\n[n, h, z]",
  ],
  'comparisons with values of other types': [
    "let n = [0, 0, 0, 0, 0, 0];\nfor (const d of t.array('d')) if (d) { n[0] += d > '2020-01-01'; n[1] += d < null; n[2] += d >= true; n[3] += '1600000000000' < d; n[4] += d <= { valueOf() { return 1.6e12; } }; n[5] += d > new Date(1.6e12); }\nn",
    "let n = 0;\nconst cut = new Date(Date.UTC(2020, 0, 1));\nfor (const d of t.array('d')) if (d && d > cut && cut < d && !(d <= cut)) n += d - '5';\nn",
    "let log = [];\nconst o = { valueOf() { log.push('o'); return 1.6e12; } };\nfor (const d of t.array('d')) { if (d && o < d) log.push(1); if (log.length > 30) break; }\nlog.join(',')",
  ],
  'the row real Date where the code passes it on': [
    // (`!latest` in place of `=== undefined` is a latest loop since session 21: scalarLoopsDifferential.test.ts)
    "let latest;\nfor (const d of t.array('d')) if (d && (latest === undefined || d > latest)) latest = d;\n[latest.toISOString(), latest instanceof Date]",
    "const kept = [];\nfor (const d of t.array('d')) if (d && d.getUTCFullYear() < 1970) kept.push(d);\n[kept.length, kept.map((x) => x.toISOString()).join(' '), kept[0] === kept[1]]",
    "let same = 0, n = 0;\nfor (const d of t.array('d')) { const a = d, b = d; if (d && d.getUTCMonth() === 3) { same += a === b; n += [d][0] === a; } }\n[same, n]",
    "const out = [];\nfor (const d of t.array('d')) { if (!d || d.getUTCDate() !== 3) continue; const x = d; x.setUTCFullYear(1999); out.push(d.getUTCFullYear(), d.getTime() === x.getTime(), d > 0); if (out.length > 20) break; }\nout",
    "let s = '';\nfor (const d of t.array('d')) if (d && d.getUTCFullYear() === 2019 && d.getUTCDay() === 0 && s.length < 300) s += d.toISOString().slice(0, 10) + (d.toJSON() === d.toISOString()) + `${d}`.length;\ns",
    "const byDay = {};\nfor (const d of t.array('d')) if (d && d.getUTCFullYear() === 2022) { const k = `${d.getUTCMonth()}`; byDay[k] = (byDay[k] || 0) + 1; }\nbyDay",
  ],
  'objects() rows: the date field, an alias of it and other fields': [
    "let latest = null;\nfor (const r of t.select('d').objects()) { const d = r['d']; if (d && (!latest || d > latest)) latest = d; }\nlatest.toISOString().slice(0, 10)",
    "const m = {};\nfor (const r of t.select('d').objects()) {\n  const d = r.d;\n  if (d && d.getUTCFullYear() === 2021) m[d.getUTCMonth() + 1] = (m[d.getUTCMonth() + 1] || 0) + 1;\n}\nObject.entries(m).map(([k, v]) => [Number(k), v])",
    'let n = 0, ids = 0, last;\nfor (const r of t.objects()) if (r.d && r.d.getUTCFullYear() > 2020 && r.id % 2) { n++; ids += r.id; last = r.s; }\n[n, ids, last]',
    'let n = 0;\nfor (const r of t.objects()) { const d = r.d; const f = r.full; if (d && f && d.getTime() === f.getTime()) n += f.getUTCFullYear(); }\nn',
  ],
  'filtered and ordered tables': [
    "let n = 0;\nfor (const d of t.filter((r) => r.id % 3 === 1).array('d')) if (d && d.getUTCMonth() === 4) n += d.getUTCDate();\nn",
    "const seen = [];\nfor (const d of t.orderby('id').slice(100, 200).array('d')) if (d && seen.length < 50) seen.push(d.getUTCFullYear(), +d);\nseen",
    "const seen = [];\nfor (const r of t.filter((r) => r.id > 8000).orderby(aq.desc('id')).objects()) { const d = r.d; if (d) seen.push(r.id, d.getUTCFullYear()); if (seen.length > 40) break; }\nseen",
  ],
  'a null row reaches a feature: the same TypeError at the same place': [
    "let s = 0;\nfor (const d of t.array('d')) s += d.getUTCFullYear();\ns",
    "let n = 0;\nfor (const r of t.select('d').objects()) {\n  const d = r.d;\n  n += d.getTime() > 0;\n}\nn",
    "let latest = null;\nfor (const d of t.array('d')) if (!latest || d > latest) latest = d.getTime();\nlatest",
  ],
  'what this path cannot answer runs as written': [
    left("const f = [];\nfor (const d of t.array('d')) f.push(() => d);\nf.length"),
    left("let n = 0;\nfor (let d of t.array('d')) { d = d || new Date(0); n += d.getUTCFullYear(); }\nn"),
    left("let n = 0;\nfor (const d of t.array('d')) if (d) { d.setUTCHours(1); n += d.getUTCFullYear(); }\nn"),
    left("let n = 0;\nfor (const d of t.array('d')) if (d) n++;\nn"),
    left("let n = 0;\nfor (const d of t.array('d')) if (d && d?.getUTCFullYear() > 2000) n += d.getUTCFullYear();\nn"),
    left(
      "let n = 0;\nfor (const d of t.array('d')) if (d && d.getUTCFullYear() > 2000) { const o = { d }; n += o.d.getUTCMonth(); }\nn",
    ),
    left("let n = 0;\nfor (const d of t.array('d')) if (d && d.getUTCFullYear() > 2000) n += d.foo ?? 1;\nn"),
    left('let n = 0;\nfor (const r of t.objects()) if (r.d && r\n  .d.getUTCFullYear() > 2000) n++;\nn'),
    left(
      "let s = '';\nfor (const d of t.array('d')) if (d && d.getUTCFullYear() > 2025) s = d.toLocaleDateString('en-US');\ns",
    ),
    left(
      "let n = 0;\nfor (const d of t.array('d')) if (d && d.getUTCFullYear() > 2000) n += (n > 5 ? d : null) === null;\nn",
    ),
    left('let n = 0;\nfor (const r of t.objects()) { r.id = 1; if (r.d) n += r.d.getUTCFullYear(); }\nn'),
    "let n = 0;\nfor (const d of t.array('id')) if (d && d.getTime() > 0) n++;\nn",
    "let n = 0;\nfor (const d of t.array('s')) if (d && d > 'r5') n++;\nn",
    "let n = 0;\nconst fake = { array: () => [new Date(1), null, new Date(2e12)] };\nfor (const d of fake.array('d')) if (d && d.getUTCFullYear() > 1970) n += d.getTime();\nn",
    "let n = 0;\nfor (const d of t.array('nope')) if (d && d.getTime()) n++;\nn",
  ],
  'a run with getUTCFullYear replaced: the loop runs as written': [
    "Object.getPrototypeOf(new Date(0)).getUTCFullYear = function () { return 2021; };\nlet n = 0;\nfor (const d of t.array('d')) if (d && d.getUTCFullYear() === 2021) n++;\nn",
  ],
  'a run with valueOf replaced: the loop runs as written': [
    "Object.getPrototypeOf(new Date(0)).valueOf = function () { return 5; };\nlet n = 0;\nfor (const d of t.array('d')) if (d && d > 1.6e12 && d.getUTCMonth() === 1) n++;\nn",
  ],
  'a run with Symbol.toPrimitive replaced: the loop runs as written': [
    "Object.defineProperty(Object.getPrototypeOf(new Date(0)), Symbol.toPrimitive, { value: function () { return 7; } });\nlet n = 0;\nfor (const d of t.array('d')) if (d && d < 8 && d.getUTCMonth() === 1) n++;\nn",
  ],
  'a run with toISOString deleted: the loop runs as written': [
    "delete Object.getPrototypeOf(new Date(0)).toISOString;\nlet s = '';\nfor (const d of t.array('d')) if (d && d.getUTCMonth() === 1) s = d.toISOString();\ns",
  ],
  'a run with the array iterator replaced: the loop runs as written': [
    "Object.getPrototypeOf([])[Symbol.iterator] = function* () { yield new Date(5); };\nlet n = 0;\nfor (const d of t.array('d')) if (d) n += d.getTime();\nn",
  ],
};

/** The same program with the rewrite defeated: a comment naming its marker turns it off. */
const asWritten = (code: string) => `${code}\n// $sbtRow`;

describe.each(['isolated-vm', 'quickjs'] as const)('date loops on %s', (engine) => {
  it.each(Object.keys(SEQUENCES))(
    '%s: same answers as the loops as written',
    async (name) => {
      await using rewritten = await createSandbox({ engine, awardData: false, tables, timeoutMs: 60_000 });
      await using plain = await createSandbox({ engine, awardData: false, tables, timeoutMs: 60_000 });
      for (const step of SEQUENCES[name]!) {
        const code = typeof step === 'string' ? step : step.code;
        expect(prepareCode(code).code.includes('$sbtRowD'), code).toBe(typeof step === 'string');
        // twice: the second run reads the numbers the first kept
        for (let k = 0; k < 2; k++) {
          const [a, b] = [await rewritten.run(code), await plain.run(asWritten(code))];
          expect(runOutcome(a), code).toEqual(runOutcome(b));
        }
      }
    },
    120_000,
  );
});
