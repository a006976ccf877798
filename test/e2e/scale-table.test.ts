// A moderately large user table (300,000 rows, generated here) in each of Parquet, Arrow and CSV
// answers the five question kinds of a large-table session (group-by, filter-count, distinct
// count, top-k sort, text contains), in Arquero and Series form, exactly as a plain-JS reference
// computed from the generated values. Timings are in bench/scale.mjs, not here.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, shutdown } from '../../dist/src/index.js';
import { encodeTable } from '../../dist/src/sandbox/tables.js';
import { stringColumn } from '../../dist/src/data/formats/typedColumn.js';

const ROWS = 300_000;
const WORDS = ['solar', 'quantum', 'battery', 'sensor', 'laser', 'drone', 'protein', 'vaccine'];
const dir = mkdtempSync(join(tmpdir(), 'sbirtools-scale-'));

// deterministic columns: a small and a large dictionary, a float with ties, an integer, a date, free text
let seed = 7;
const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
const Agency = Array.from({ length: ROWS }, (_, i) => `AG${i % 11}`);
const Phase = Array.from({ length: ROWS }, (_, i) => (i % 3 === 0 ? 'Phase II' : 'Phase I'));
const Company = Array.from({ length: ROWS }, () => `Company ${Math.floor(rnd() * 20_000)}`);
const Amount = Array.from({ length: ROWS }, () => Math.round(rnd() * 1e7) / 100);
const Employees = Array.from({ length: ROWS }, (_, i) => i % 500);
const Start = Array.from({ length: ROWS }, (_, i) => Date.UTC(2000, 0, 1) + (i % 9000) * 86_400_000);
// past the 65,535-value dictionary cap of award_data and CSV, with nulls: 90,000 distinct names
const Firm = Array.from({ length: ROWS }, (_, i) => (i % 10 === 0 ? null : `Firm ${(i * 7919) % 100_000}`));
const Abstract = Array.from(
  { length: ROWS },
  (_, i) => `A study of ${WORDS[Math.floor(rnd() * 8)]} and ${WORDS[Math.floor(rnd() * 8)]} for award ${i}`,
);

const reference = {
  groupby: (() => {
    const m = new Map<string, [number, number]>();
    Agency.forEach((a, i) => {
      const e = m.get(a) ?? [0, 0];
      e[0]++;
      e[1] += Amount[i];
      m.set(a, e);
    });
    return [...m].sort(([a], [b]) => (a < b ? -1 : 1)).map(([a, [n, s]]) => [a, n, Math.round(s)]);
  })(),
  filterCount: Amount.filter((x, i) => x > 5000 && Phase[i] === 'Phase II').length,
  distinct: new Set(Company).size,
  topk: [...Amount]
    .sort((a, b) => b - a)
    .slice(0, 10)
    .map((x) => Math.round(x * 100)),
  contains: Abstract.filter((s) => s.includes('quantum')).length,
  firmDistinct: new Set(Firm.filter((s) => s !== null)).size,
  firmContains: Firm.filter((s) => s !== null && s.includes('777')).length,
  firmTop: (Firm.filter((s) => s !== null) as string[]).sort((a, b) => (a < b ? 1 : a > b ? -1 : 0)).slice(0, 5),
  firmHead: (Firm.filter((s) => s !== null) as string[]).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)).slice(0, 3),
};
const QUESTIONS: Record<string, string[]> = {
  groupby: [
    "t.groupby('Agency').rollup({ n: op.count(), s: op.sum('Amount') }).orderby('Agency').objects().map((r) => [r.Agency, r.n, Math.round(r.s)])",
    "t.groupby('Agency').agg({ Amount: ['count', 'sum'] }).reset_index().objects().sort((a, b) => (a.Agency < b.Agency ? -1 : 1)).map((r) => [r.Agency, r.Amount_count, Math.round(r.Amount_sum)])",
  ],
  filterCount: [
    "t.filter((d) => d.Amount > 5000 && d.Phase === 'Phase II').numRows()",
    "(t.Amount.gt(5000).and(t.Phase.eq('Phase II'))).sum()",
  ],
  distinct: ['t.Company.nunique()', "t.rollup({ n: op.distinct('Company') }).get('n', 0)"],
  topk: [
    "t.orderby(aq.desc('Amount')).slice(0, 10).array('Amount').map((x) => Math.round(x * 100))",
    't.Amount.nlargest(10).tolist().map((x) => Math.round(x * 100))',
  ],
  contains: [
    "t.Abstract.str.contains('quantum').sum()",
    "t.filter((d) => op.includes(d.Abstract, 'quantum')).numRows()",
  ],
  firmDistinct: ['t.Firm.nunique()'],
  firmContains: ["t.Firm.str.contains('777').sum()", "t.filter((d) => op.includes(d.Firm, '777')).numRows()"],
  firmTop: ["t.orderby(aq.desc('Firm')).slice(0, 5).array('Firm')"],
  firmHead: ["t.sort_values('Firm').head(3).array('Firm')"],
};

const files: Record<string, string> = {};
beforeAll(() => {
  const columns = [
    { name: 'Agency', type: 'string', values: Agency },
    { name: 'Phase', type: 'string', values: Phase },
    { name: 'Company', type: 'string', values: Company },
    { name: 'Amount', type: 'number', values: Amount },
    { name: 'Employees', type: 'integer', values: Employees },
    { name: 'Start', type: 'date', values: Start },
    { name: 'Firm', type: 'string', values: Firm },
    { name: 'Abstract', type: 'string', values: Abstract },
  ].map((c) => ({
    name: c.name,
    type: c.type,
    data:
      c.type === 'string'
        ? stringColumn(c.values)
        : {
            kind: 'float64',
            type: c.type,
            values: Float64Array.from(c.values as number[]),
            valid: new Uint8Array(ROWS).fill(1),
          },
  }));
  for (const format of ['parquet', 'arrow', 'csv'] as const) {
    files[format] = join(dir, `t.${format}`);
    writeFileSync(files[format], encodeTable(columns as never, format));
  }
}, 120_000);
afterAll(async () => {
  await shutdown();
  rmSync(dir, { recursive: true, force: true });
});

describe.each(['parquet', 'arrow', 'csv'])('a 300,000-row %s table', (format) => {
  it('answers the five question kinds as the reference does, each way it can be written', async () => {
    const box = await createSandbox({
      awardData: false,
      tables: { t: files[format] },
      preset: 'permissive',
      timeoutMs: 120_000,
    });
    try {
      expect((await box.run('t.numRows()')).value).toBe(ROWS);
      for (const [kind, forms] of Object.entries(QUESTIONS)) {
        for (const code of forms) {
          const r = await box.run(code);
          expect(r.error, `${format} ${kind}: ${code}`).toBeUndefined();
          expect(r.value, `${format} ${kind}: ${code}`).toEqual(reference[kind as keyof typeof reference]);
        }
      }
    } finally {
      await box.close();
    }
  }, 300_000);

  it('a second session on the same file answers the same: the columns the first copied into its isolate are decoded again', async () => {
    // the holder keeps a table file open for every session; a column copied whole into an isolate
    // is not kept beside it (takeColumn), so the second session's first touch decodes it again
    const open = () =>
      createSandbox({ awardData: false, tables: { t: files[format] }, preset: 'permissive', timeoutMs: 120_000 });
    const first = await open();
    const second = await open();
    try {
      for (const box of [first, second, first])
        for (const kind of ['groupby', 'filterCount', 'distinct', 'topk', 'firmTop'] as const) {
          const r = await box.run(QUESTIONS[kind][0]);
          expect(r.error, `${format} ${kind}`).toBeUndefined();
          expect(r.value, `${format} ${kind}`).toEqual(reference[kind]);
        }
    } finally {
      await first.close();
      await second.close();
    }
  }, 300_000);
});

describe('the three formats concatenated', () => {
  it('keep the columnar layout and answer as the reference over the rows three times', async () => {
    const box = await createSandbox({
      awardData: false,
      tables: { p: files.parquet, a: files.arrow, c: files.csv },
      preset: 'permissive',
      timeoutMs: 120_000,
    });
    const thrice = {
      groupby: reference.groupby.map(([a, n]) => [a, 3 * (n as number)]),
      filterCount: 3 * reference.filterCount,
      distinct: reference.distinct,
      topk: [...Amount, ...Amount, ...Amount]
        .sort((x, y) => y - x)
        .slice(0, 10)
        .map((x) => Math.round(x * 100)),
      contains: 3 * reference.contains,
      firmDistinct: reference.firmDistinct,
      kinds: ['dict', 'dict', 'float64', 'float64', 'utf8'],
    };
    try {
      const r = await box.run(`const t = concat([p, a, c]);
        ({
          groupby: t.groupby('Agency').rollup({ n: op.count() }).orderby('Agency').objects().map((r) => [r.Agency, r.n]),
          filterCount: t.filter((d) => d.Amount > 5000 && d.Phase === 'Phase II').numRows(),
          distinct: t.Company.nunique(),
          topk: t.orderby(aq.desc('Amount')).slice(0, 10).array('Amount').map((x) => Math.round(x * 100)),
          contains: t.Abstract.str.contains('quantum').sum(),
          firmDistinct: t.Firm.nunique(),
          kinds: ['Agency', 'Company', 'Amount', 'Start', 'Abstract'].map((n) => t.column(n).kind),
        })`);
      expect(r.error).toBeUndefined();
      expect(r.value).toEqual(thrice);
    } finally {
      await box.close();
    }
  }, 300_000);
});
