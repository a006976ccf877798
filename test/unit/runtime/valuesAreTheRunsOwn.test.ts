// Values handed out are the run's own: nothing the session keeps between runs (the row cache's
// values, a date column's times, a host table's index, the rewritten loops' bound arrays) reaches a
// run as an object it could change for later runs. Each attack runs in one session after a first read
// and is followed by the same read, which must answer what it answers in a session the attack never
// ran in (the dataset as loaded); and the programs that change what they were handed answer, in their
// run and the next, what the code as written answers (the rewrites defeated), on both engines.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, shutdown } from '../../../src/index.js';
import { runOutcome } from '../../helpers/runOutcome.js';

afterAll(() => shutdown());

const ROWS = 6_000;
const rows = Array.from({ length: ROWS }, (_, id) => ({
  id,
  d: id % 11 === 0 ? null : new Date(Date.UTC(2015 + (id % 9), id % 12, 1 + (id % 28), id % 24)),
  x: id % 7 === 0 ? null : ((id * 7919) % 1000) * 1.5,
  s: id % 5 === 0 ? null : `s${id % 13}`,
}));
const tables = {
  t: rows,
  u: [
    { id: 1, z: 'a' },
    { id: 2, z: 'b' },
    { id: 4000, z: 'c' },
  ],
};

/** Every way a later run reads the date column and the table's rows (a Date read as its time). */
const READ = `const g = (x) => (x instanceof Date ? x.getTime() : x);
const R = {};
R.select = g(t.select('d').objects()[1].d);
R.objects = g(t.objects()[1].d);
R.tolist = g(t.tolist()[1][1]);
R.iterated = []; for (const r of t) { R.iterated.push(g(r.d)); if (R.iterated.length > 2) break; }
let n = 0; for (const r of t.objects()) { if (n++ === 1) R.reused = g(r.d); }
R.limited = g(t.filter((r) => r.id < 10).objects({ limit: 3 })[1].d);
R.plucked = t.objects().map((r) => r.d).slice(0, 3).map(g);
R.chained = g(t.objects().filter((r) => r.id === 1)[0].d);
R.ordered = g(t.orderby('id').objects()[2].d);
R.get = g(t.get('d', 1)); R.at = g(t.column('d').at(1)); R.array = g(t.array('d')[1]);
R.max = g(t['d'].max()); R.list = g(t['d'].tolist()[1]);
R.closure = t.filter((r) => { const a = r.d; return a === null || a.getUTCFullYear() > 1950; }).numRows();
R.index = Array.from(t.indices().slice(0, 4));
R.joined = t.join(u, 'id').objects().map((r) => r.id + r.z);
R`;

const ATTACKS: Record<string, string> = {
  'a Date of select().objects()': "t.select('d').objects()[1].d.setUTCFullYear(1900)",
  'a Date of objects()': 't.objects()[1].d.setUTCFullYear(1900)',
  'a Date of tolist()': 't.tolist()[1][1].setUTCFullYear(1900)',
  'every Date of the table iterator': 'for (const r of t) if (r.d) r.d.setUTCFullYear(1900);',
  'every Date of a reused-row loop': 'for (const r of t.objects()) if (r.d) r.d.setUTCFullYear(1900);',
  "every Date a chain's callback reads":
    't.objects().filter((r) => { if (r.d) r.d.setUTCFullYear(1900); return true; }).length',
  'every Date of a pluck': 't.objects().map((r) => r.d).forEach((d) => d && d.setUTCFullYear(1900))',
  'a Date of objects({ limit }) on a filtered table':
    't.filter((r) => r.id < 10).objects({ limit: 3 })[1].d.setUTCFullYear(1900)',
  'a Date of a bound row array':
    'const rows = t.objects(); let c = 0; for (const r of rows) if (r.x > 1) c++; rows[1].d.setUTCFullYear(1900); c',
  'every Date of a destructured list': 'for (const [id, d] of t.tolist()) if (d) d.setUTCFullYear(1900);',
  'a Date of rows a loop kept':
    'const keep = []; for (const r of t.objects()) keep.push(r); keep[1].d.setUTCFullYear(1900)',
  "every Date a filter's closure reads":
    't.filter((r) => { if (r.d) r.d.setUTCFullYear(1900); return true; }).numRows()',
  'a property defined on a Date': "Object.defineProperty(t.objects()[1].d, 'getTime', { value: () => 7 })",
  'a frozen Date and row': 'const r = t.objects()[1]; Object.freeze(r.d); Object.freeze(r); r.d.getTime()',
  'the Dates of get(), at(), array() and a Series':
    "t.get('d', 1).setUTCFullYear(1900); t.column('d').at(1).setUTCFullYear(1900); t.array('d')[1].setUTCFullYear(1900); t['d'].max().setUTCFullYear(1900); t['d'].tolist()[1].setUTCFullYear(1900)",
  "the host table's index, reversed": 't.indices().reverse()',
  "the host table's index, filled": 't.indices().fill(4000); t.partitions()[0].fill(4000)',
};

describe.each(['isolated-vm', 'quickjs'] as const)("values handed out are the run's own on %s", (engine) => {
  let asLoaded: unknown;
  beforeAll(async () => {
    await using box = await createSandbox({ engine, awardData: false, tables, timeoutMs: 60_000 });
    const r = await box.run(READ);
    expect(r.ok, JSON.stringify(r.error)).toBe(true);
    asLoaded = r.value;
  }, 120_000);

  it.each(Object.keys(ATTACKS))(
    '%s: a later run reads the dataset as loaded',
    async (name) => {
      await using box = await createSandbox({ engine, awardData: false, tables, timeoutMs: 60_000 });
      expect((await box.run(READ)).value).toEqual(asLoaded);
      const attack = await box.run(ATTACKS[name]!);
      expect(attack.ok, JSON.stringify(attack.error)).toBe(true);
      expect((await box.run(READ)).value).toEqual(asLoaded);
    },
    120_000,
  );
});

/**
 * Programs that change the Dates they were handed, then read them through the same or other views:
 * the answers of the code as written (each objects() call makes its own Dates, shared by every view
 * of that call's rows), in the run and in the runs after it.
 */
const SEQUENCES: Record<string, string[]> = {
  "a chain's filter: the rows it answers hold the Dates its callback changed": [
    'const kept = t.objects().filter((r) => { if (r.d) r.d.setUTCFullYear(1900 + (r.id % 3)); return r.id % 2 === 0; });\nkept.slice(0, 9).map((r) => r.d && r.d.getTime())',
    't.objects().filter((r) => r.id % 2 === 0).slice(0, 9).map((r) => r.d && r.d.getTime())',
  ],
  'a bound row array: its loop and its rows hold the same Dates': [
    'const rows = t.objects();\nlet c = 0;\nfor (const r of rows) if (r.d) { r.d.setUTCMonth(0); c++; }\n[c, rows[1].d.getTime(), rows[2].d === rows[2].d]',
    '[rows[3].d.getTime(), t.objects()[3].d.getTime()]',
  ],
  'a row array only loops read: the rows a later run reads hold the Dates the loop changed': [
    'const later = t.objects();\nfor (const r of later) if (r.d) r.d.setUTCFullYear(1901);\n1',
    '[later[1].d.getTime(), later[5].d.getTime(), t.objects()[1].d.getTime()]',
  ],
  'a list only destructuring loops read: the same': [
    'const list = t.tolist();\nfor (const [id, d] of list) if (d) d.setUTCFullYear(1902);\n1',
    '[list[1][1].getTime(), list[7][1].getTime(), t.tolist()[1][1].getTime()]',
  ],
  'two calls never share a Date': [
    "const a = t.objects(), b = t.select('d').objects(), c = t.tolist();\nconst p = t.objects().map((r) => r.d), q = t.objects().map((r) => r.d);\n[a[1].d === b[1].d, a[1].d === c[1][1], p[1] === q[1], a[1].d === a[1].d]",
    'let same = 0, prev = null;\nfor (const r of t) { if (r.id === 1) prev = r.d; }\nfor (const r of t) { if (r.id === 1) same += r.d === prev; }\nsame',
  ],
  'a filtered, ordered table and a limit': [
    "const f = t.filter((r) => r.id % 3 === 1).orderby(aq.desc('id'));\nconst a = f.objects({ limit: 4000 });\na[2].d.setUTCFullYear(1903);\n[a[2].d.getTime(), f.objects({ limit: 4000 })[2].d.getTime(), f.objects()[2].d.getTime()]",
    "t.filter((r) => r.id % 3 === 1).orderby(aq.desc('id')).objects({ limit: 5 }).map((r) => r.d && r.d.getTime())",
  ],
  "a reused row's Date: made when read, the same at every read of the row": [
    'const out = [];\nfor (const r of t.objects()) if (r.id % 5 === 1 && r.d) { r.d.setUTCDate(2); out.push(r.d.getTime(), r.d === r.d); }\nout.slice(0, 12)',
    'const kept = [];\nfor (const r of t) if (r.id % 7 === 3) kept.push(r.d);\nfor (const r of t) if (r.id % 7 === 3 && r.d) r.d.setUTCFullYear(1904);\n[kept.slice(0, 6).map((d) => d && d.getTime()), t.objects()[3].d.getTime()]',
    "let n = 0;\nfor (const r of t.select('d', 's').objects()) if (r.s === 's3' && r.d) n += r.d.toISOString().length + r.d.getUTCHours();\nn",
  ],
  "a filter's closure reads a fresh Date per read": [
    't.filter((r) => { const a = r.d; if (a) a.setUTCFullYear(1900); return r.d === null || r.d.getUTCFullYear() !== 1900; }).numRows()',
  ],
  "the host table's index is the caller's": [
    'const i = t.indices();\ni.reverse();\n[i[0], t.indices()[0], t.indices() === t.indices(), t.join(u, "id").numRows()]',
  ],
};

/**
 * The kept sorts (fast/sortMemo.ts: a sort asked again of the same keys reads the answer kept) and
 * the min/max scan's reused buffer, over arrays of more than 16,384 numbers: what a run does to the
 * array it sorted never reaches the next sort.
 */
const big = Array.from({ length: 20_000 }, (_, i) => ({ n: ((i * 7919) % 20_000) + 0.5, m: (i * 31) % 20_000 }));
const SORTS: Record<string, string[]> = {
  'a sorted array changed in its run': [
    "const a = big.array('n');\na.sort((p, q) => p - q);\na.fill(7);\na[0]",
    "const b = big.array('n');\nb.sort((p, q) => p - q);\n[b[0], b[1], b[19999]]",
  ],
  'a sorted array changed by a later run': [
    "const c = big.array('n');\nc.sort((p, q) => q - p);\n1",
    'c.fill(3);\nc.reverse();\n1',
    "const e = big.array('n');\ne.sort((p, q) => q - p);\n[e[0], e[1], e[19999]]",
  ],
  'sorted rows changed': [
    'const o = big.objects();\no.sort((p, q) => p.n - q.n);\no[0].n = -1;\no.length = 5;\n1',
    'const o2 = big.objects();\no2.sort((p, q) => p.n - q.n);\n[o2[0].n, o2[1].n, o2.length]',
  ],
  'a spread for Math.max changed': [
    "const v = big.array('m');\nMath.max(...v)",
    "v.fill(1e9);\nMath.max(...big.array('m'))",
  ],
};

describe.each(['isolated-vm', 'quickjs'] as const)('kept sorts on %s', (engine) => {
  it.each(Object.keys(SORTS))(
    '%s',
    async (name) => {
      await using rewritten = await createSandbox({ engine, awardData: false, tables: { big }, timeoutMs: 60_000 });
      await using plain = await createSandbox({ engine, awardData: false, tables: { big }, timeoutMs: 60_000 });
      for (const code of SORTS[name]!) {
        const [a, b] = [await rewritten.run(code), await plain.run(asWritten(code))];
        expect(a.ok, JSON.stringify(a.error)).toBe(true);
        expect(runOutcome(a), code).toEqual(runOutcome(b));
      }
    },
    120_000,
  );
});

/** The same program with the rewrites defeated: a comment naming their marker turns them off. */
const asWritten = (code: string) => `${code}\n// $sbtRow`;

describe.each(['isolated-vm', 'quickjs'] as const)('changed Dates read as written on %s', (engine) => {
  it.each(Object.keys(SEQUENCES))(
    '%s',
    async (name) => {
      await using rewritten = await createSandbox({ engine, awardData: false, tables, timeoutMs: 60_000 });
      await using plain = await createSandbox({ engine, awardData: false, tables, timeoutMs: 60_000 });
      for (const code of SEQUENCES[name]!) {
        const [a, b] = [await rewritten.run(code), await plain.run(asWritten(code))];
        expect(a.ok, JSON.stringify(a.error)).toBe(true);
        expect(runOutcome(a), code).toEqual(runOutcome(b));
      }
    },
    120_000,
  );
});
