// Issue 12: DuckDB as the native reference for group-by, filter and text-search questions. DuckDB
// (@duckdb/node-api, a devDependency) runs in THIS process, on one thread (a sandbox session is
// one thread too), over the same CSV loaded into an in-memory table; one sbirtools session
// (process isolation, the default) asks the same question in its prelude and plain-Arquero forms.
// Each repetition asks every side in turn, so machine noise hits all alike; every answer is
// checked against DuckDB's. Ratio = sbirtools p50 / DuckDB p50 (lower is better).
//   SBIRTOOLS_BENCH_CSV=/work/benchdata/award_data.csv BENCH_ARGS='{"reps":7}' node bench/measures/duckdbReference.mjs
import { MIXED_QUESTIONS, answerOfRun, sameAnswer } from '../questions.mjs';
import { CACHE_DIR, CSV, dist } from '../lib/paths.mjs';
import { emit, log, measureArgs } from '../lib/measureChild.mjs';
import { summarize } from '../lib/stats.mjs';

const { reps = 7, warmup = 1, threads = 1, only } = measureArgs();
const byId = Object.fromEntries(MIXED_QUESTIONS.map((q) => [q.id, q]));

/** The questions, each as SQL over the typed table `t` (and the sbirtools forms). */
export const DUCKDB_QUESTIONS = [
  {
    ...byId.agencyTop5,
    kind: 'group-by',
    sql: 'SELECT "Agency", sum("Award Amount") AS s FROM t GROUP BY "Agency" ORDER BY s DESC LIMIT 5',
  },
  {
    ...byId.programCounts,
    kind: 'group-by',
    aq: "award_data.groupby('Program').count().orderby(aq.desc('count'))",
    sql: 'SELECT "Program", count(*) AS n FROM t WHERE "Program" IS NOT NULL GROUP BY "Program" ORDER BY n DESC',
  },
  {
    ...byId.meanByYear,
    kind: 'group-by',
    sql: 'SELECT "Award Year", avg("Award Amount") FROM t WHERE "Award Year" >= 2020 GROUP BY "Award Year" ORDER BY "Award Year"',
  },
  {
    ...byId.phase2Since2015,
    kind: 'filter',
    sql: `SELECT count(*) FROM t WHERE "Phase" = 'Phase II' AND "Award Year" >= 2015`,
  },
  { ...byId.quantumTitles, kind: 'text search', sql: `SELECT count(*) FROM t WHERE "Award Title" ILIKE '%quantum%'` },
  {
    id: 'quantumAbstracts',
    label: 'abstracts containing "quantum" (any case)',
    kind: 'text search',
    js: "award_data.filter(d => contains(d.Abstract, 'quantum', { case: false })).numRows()",
    aq: 'award_data.filter(d => op.match(d.Abstract, /quantum/i) != null).numRows()',
    sql: `SELECT count(*) FROM t WHERE "Abstract" ILIKE '%quantum%'`,
  },
  {
    id: 'abstractsOver5000',
    label: 'abstracts longer than 5,000 characters (a loop over `.array()`)',
    kind: 'text search',
    js: "let n = 0; for (const a of award_data.array('Abstract')) if (a != null && a.length > 5000) n++; n",
    sql: 'SELECT count(*) FROM t WHERE length("Abstract") > 5000',
  },
];

/** A DuckDB result as the bench's plain answer: a scalar, or [key, value] rows. */
function answerOfDuck(rows) {
  const plain = (v) => (typeof v === 'bigint' ? Number(v) : v);
  if (rows.length === 1 && rows[0].length === 1) return plain(rows[0][0]);
  return rows.map((r) => [plain(r[0]), plain(r[1])]);
}

const { DuckDBInstance } = await import('@duckdb/node-api');
const { createSandbox, shutdown } = await import(dist('src/index.js'));

const t0 = performance.now();
const duck = await DuckDBInstance.create(':memory:', { threads: String(threads) });
const db = await duck.connect();
const path = CSV.replaceAll("'", "''");
// every column as text first, then the typed columns the questions use, parsed like the ingest
await db.run(
  `CREATE TABLE raw AS SELECT * FROM read_csv('${path}', header = true, all_varchar = true, quote = '"', escape = '"', max_line_size = 10000000)`,
);
await db.run(`CREATE TABLE t AS SELECT "Agency", "Phase", "Program", "Company", "Award Title", "Abstract",
  TRY_CAST("Award Year" AS INTEGER) AS "Award Year", TRY_CAST(replace(replace("Award Amount", '$', ''), ',', '') AS DOUBLE) AS "Award Amount" FROM raw`);
await db.run('DROP TABLE raw');
const loadMs = performance.now() - t0;
log(`duckdb: loaded ${CSV} in ${Math.round(loadMs)} ms (threads=${threads})`);

const box = await createSandbox({ dataPath: CSV, cacheDir: CACHE_DIR });
await box.run('award_data.numRows()');
const questions = only ? DUCKDB_QUESTIONS.filter((q) => only.includes(q.id)) : DUCKDB_QUESTIONS;
const out = {};
for (const q of questions) {
  const forms = { js: q.js, ...(q.aq ? { aq: q.aq } : {}) };
  const samples = { duckdb: [] };
  const answers = {};
  for (let i = -warmup; i < reps; i++) {
    for (const [form, code] of Object.entries(forms)) {
      const t = performance.now();
      const r = await box.run(code);
      const ms = performance.now() - t;
      if (!r.ok) throw new Error(`run failed: ${q.id}.${form}: ${JSON.stringify(r.error)}`);
      if (i >= 0) (samples[form] ??= []).push(ms);
      answers[form] ??= answerOfRun(r);
    }
    const t = performance.now();
    const reader = await db.runAndReadAll(q.sql);
    const rows = reader.getRows();
    const ms = performance.now() - t;
    if (i >= 0) samples.duckdb.push(ms);
    answers.duckdb ??= answerOfDuck(rows);
  }
  const stats = Object.fromEntries(Object.entries(samples).map(([k, v]) => [k, summarize(v)]));
  const ratios = Object.fromEntries(
    Object.keys(forms).map((f) => [f, Math.round((stats[f].p50 / stats.duckdb.p50) * 1000) / 1000]),
  );
  const agree = Object.fromEntries(Object.keys(forms).map((f) => [f, sameAnswer(answers[f], answers.duckdb)]));
  out[q.id] = {
    label: q.label,
    kind: q.kind,
    js: q.js,
    aq: q.aq ?? null,
    sql: q.sql,
    stats,
    ratios,
    answersAgree: agree,
  };
  if (Object.values(agree).some((x) => !x))
    log(`  answers differ for ${q.id}: ${JSON.stringify(answers).slice(0, 800)}`);
  log(
    `duckdb ${q.id}: ${Object.entries(stats)
      .map(([k, s]) => `${k} ${s.p50.toFixed(2)}`)
      .join(', ')} ms p50; ratio ${JSON.stringify(ratios)}; agree ${JSON.stringify(agree)}`,
  );
}

await box.close();
await shutdown();
db.closeSync?.();
emit({
  threads,
  loadMs: Math.round(loadMs),
  version:
    (await import('@duckdb/node-api/package.json', { with: { type: 'json' } }).catch(() => ({ default: {} }))).default
      .version ?? null,
  questions: out,
});
