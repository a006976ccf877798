// A date column's array bound to a name that only date loops read (`const ds = t.array('d'); for
// (const d of ds) ...`) is never built in its run: the loops run on the column's numbers and the
// Dates are made when the name is first read after the run (src/runtime/prepare/dateLoops.ts
// `dateArrays`, prelude/data/rowLoop.ts `deferredDates`). Each sequence runs in two sandbox
// sessions, rewritten and with the rewrite defeated (a comment naming `$sbtRow` turns it off), on
// both engines; values, output and errors with line and column must be the same, in the run and in
// the later runs that read the name.
import { afterAll, describe, expect, it } from 'vitest';
import { createSandbox, shutdown } from '../../../src/index.js';
import { prepareCode } from '../../../src/runtime/prepare/transform.js';
import { runOutcome } from '../../helpers/runOutcome.js';

afterAll(() => shutdown());

const ROWS = 6_000;
const SPECIAL = [-8.64e15, 8.64e15, -1, 0, Date.UTC(2021, 0, 1), -62198755200000];
function dateOf(i: number): Date | null {
  if (i % 11 === 0) return null;
  if (i % 17 === 0) return new Date(SPECIAL[(i / 17) % SPECIAL.length]!);
  return new Date(Date.UTC(2015 + (i % 12), (i * 7) % 12, 1 + (i % 28), i % 24, i % 60, 0, i % 1000));
}
const rows = Array.from({ length: ROWS }, (_, id) => ({ id, d: dateOf(id), full: dateOf(id) ?? new Date(0) }));
const tables = { t: rows };

/** A run whose array is deferred ('deferred'), whose loops are rewritten but array built ('loops'), or left as written. */
type Step = { code: string; is: 'deferred' | 'loops' | 'written' };
const deferred = (code: string): Step => ({ code, is: 'deferred' });
const loops = (code: string): Step => ({ code, is: 'loops' });
const written = (code: string): Step => ({ code, is: 'written' });

/** What later runs read of the name: its length, its Dates, whether they are Dates and fresh ones. */
const READ =
  'const firstDate = ds.find(Boolean);\n[ds.length, ds.filter((x) => x === null).length, ds.slice(0, 40).map((x) => x && x.toISOString()), firstDate instanceof Date, ds[1] === ds[1], Array.isArray(ds)]';

const SEQUENCES: Record<string, Step[]> = {
  'the latest award date, then later runs read the name': [
    deferred(
      "const ds = t.array('d');\nlet latest = -Infinity;\nfor (const d of ds) if (d && d.getTime() > latest) latest = d.getTime();\nnew Date(latest).toISOString().slice(0, 10)",
    ),
    written(READ),
    written("ds[1].setUTCFullYear(1900);\n[ds[1].toISOString(), t.array('d')[1].toISOString()]"),
    written(READ),
  ],
  'two loops and one in a block, every feature': [
    deferred(
      "let ds = t.array('d');\nconst m = new Array(13).fill(0);\nlet n = 0, z = 0;\nfor (const d of ds) if (d && d.getUTCFullYear() === 2021) m[d.getUTCMonth() + 1]++;\nif (m.length) { for (let d of ds) { if (d == null) continue; n += d.getDay() + d.getHours() + (d > 1.5e12) + (d - 0) % 7; z += d.getTimezoneOffset() + +d % 3; } }\n[m, n, z]",
    ),
    written('ds.map((x) => (x ? x.getUTCDay() : -1)).join("").length'),
  ],
  'filtered and ordered tables': [
    deferred(
      "const ds = t.filter((r) => r.id % 3 === 1).orderby(aq.desc('id')).array('d');\nlet n = 0;\nfor (const d of ds) if (d && d.getUTCMonth() === 4) n += d.getUTCDate();\nn",
    ),
    written('[ds.length, ds.slice(0, 30).map((x) => x && +x)]'),
  ],
  'a null row reaches a getter: the same TypeError, and the name is written back': [
    deferred("const ds = t.array('d');\nlet s = 0;\nfor (const d of ds) s += d.getUTCFullYear();\ns"),
    written(READ),
  ],
  'a later run declares the name again, or writes it first': [
    deferred("let ds = t.array('d');\nlet n = 0;\nfor (const d of ds) if (d && d.getUTCDay() === 3) n++;\nn"),
    deferred("const ds = t.array('full');\nlet n = 0;\nfor (const d of ds) if (d && d.getUTCDay() === 3) n++;\nn"),
    written('ds = 5;\nds'),
    written('[typeof ds, ds]'),
  ],
  'the global read through reflection after the run': [
    deferred("const ds = t.array('d');\nlet n = 0;\nfor (const d of ds) if (d && d.getUTCFullYear() > 2020) n++;\nn"),
    written(
      "const desc = Object.getOwnPropertyDescriptor(globalThis, 'ds');\n[typeof desc.get, Array.isArray(desc.value), desc.value.length, desc.enumerable]",
    ),
  ],
  'a function of an earlier run reads the name': [
    written(
      "function lenOf() {\n  return typeof ds === 'undefined' ? -1 : [ds.length, ds[2] && ds[2].getTime()];\n}\nlenOf()",
    ),
    deferred(
      "const ds = t.array('d');\nlet n = 0;\nfor (const d of ds) if (d && d.getUTCMonth() === 6) n++;\n[n, lenOf()]",
    ),
    written('lenOf()'),
  ],
  'a Date method replaced in the run: the loop runs as written over the array': [
    deferred(
      "Object.getPrototypeOf(new Date(0)).getUTCFullYear = function () { return 2021; };\nconst ds = t.array('d');\nlet n = 0;\nfor (const d of ds) if (d && d.getUTCFullYear() === 2021) n++;\nn",
    ),
    written(READ),
  ],
  'the array iterator replaced in the run: the loop runs as written over the array': [
    deferred(
      "const ds = t.array('d');\nObject.getPrototypeOf([])[Symbol.iterator] = function* () { yield 7; yield new Date(5); };\nlet n = 0;\nfor (const d of ds) if (d && d.getTime() > 0) n += d.getTime();\nn",
    ),
  ],
  'the name escapes: the array is built in the run': [
    loops(
      "const ds = t.array('d');\nlet latest = -Infinity;\nfor (const d of ds) if (d && d.getTime() > latest) latest = d.getTime();\n[latest, ds.length]",
    ),
    loops(
      "const ds = t.array('d');\nlet n = 0;\nfor (const d of ds) if (d && d.getUTCMonth() === 1) n++;\nds.length + n",
    ),
    loops(
      "const ds = t.array('d');\nconst f = () => ds.length;\nlet n = 0;\nfor (const d of ds) if (d && d.getUTCMonth() === 1) n++;\n[n, f()]",
    ),
    loops(
      "const ds = t.array('d');\nds.reverse();\nlet s = [];\nfor (const d of ds) if (d && d.getUTCMonth() === 1 && s.length < 9) s.push(d.getTime());\ns",
    ),
    loops(
      "let ds = t.array('d');\nlet n = 0;\nfor (const d of ds) if (d && d.getUTCMonth() === 1) n++;\nds = ds.slice(1);\nfor (const d of ds) if (d && d.getUTCMonth() === 2) n++;\nn",
    ),
    written(READ),
  ],
  'what this path cannot answer runs as written': [
    written(
      "const ds = t.array('d');\nlet latest = null;\nfor (const d of ds) if (d && (!latest || d > latest)) latest = d;\nlatest.toISOString()",
    ),
    written(READ),
  ],
  'a column that is not a host date column: array() answers as written': [
    deferred("const ds = t.array('id');\nlet n = 0;\nfor (const d of ds) if (d && d.getTime() > 0) n++;\nn"),
    deferred(
      "const ds = { array: () => [new Date(1), null] }.array('d');\nlet n = 0;\nfor (const d of ds) if (d && d.getTime() > 0) n++;\nn",
    ),
    deferred("const ds = t.array('nope');\nlet n = 0;\nfor (const d of ds) if (d && d.getTime() > 0) n++;\nn"),
    written('[ds.length, ds[0]]'),
  ],
};

/** The same program with the rewrite defeated: a comment naming its marker turns it off. */
const asWritten = (code: string) => `${code}\n// $sbtRow`;

describe('which date arrays are deferred', () => {
  it.each(Object.values(SEQUENCES).flat())('$code', ({ code, is }) => {
    const prepared = prepareCode(code).code;
    expect(prepared.includes('["dates"]')).toBe(is === 'deferred');
    expect(prepared.includes('$sbtRowD')).toBe(is !== 'written');
  });
});

describe.each(['isolated-vm', 'quickjs'] as const)('date arrays on %s', (engine) => {
  it.each(Object.keys(SEQUENCES))(
    '%s: same answers as the code as written',
    async (name) => {
      await using rewritten = await createSandbox({ engine, awardData: false, tables, timeoutMs: 60_000 });
      await using plain = await createSandbox({ engine, awardData: false, tables, timeoutMs: 60_000 });
      for (const { code } of SEQUENCES[name]!) {
        const [a, b] = [await rewritten.run(code), await plain.run(asWritten(code))];
        expect(runOutcome(a), code).toEqual(runOutcome(b));
      }
    },
    120_000,
  );
});
