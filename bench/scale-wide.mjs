#!/usr/bin/env node
// Issue 25 item 4 for the class, not one table: a wider user table than bench/scale.mjs's, with
// nulls in five columns, a text column over the dictionary cap (`Company`: rows/4 possible values,
// ~4.9M distinct at 20M rows), a 20,000-value category (`City`) and a second text column with nulls
// (`Title`), as Parquet, Arrow and CSV. Each file is opened in a fresh process with the default
// limits (`createSandbox({ awardData: false, tables: { t } })`), asked fifteen questions (group-by
// with a null key, filter-count over nulls, distinct counts, top-10 by a nullable number, contains
// on three text columns, a mean over nulls; unique, value_counts, a group-by and a pandas agg of
// `Company`) `--reps` times, and every answer is compared with
// DuckDB's on the same rows (its CSV reader for the CSV, its Parquet reader beside Arrow). Prints
// one line per question: agree or the two answers, then sbirtools' times and DuckDB's; then cold
// (open + group-by) and the peak RSS of each process tree. Files are generated with DuckDB (Arrow:
// flechette, in a child process with a large heap) into a temporary folder and removed after.
//   node --no-node-snapshot bench/scale-wide.mjs [--rows 20000000] [--formats parquet,arrow,csv] [--reps 2] [--keep] [--from <folder>]
// `--keep` leaves the files (the folder is printed); `--from` measures that folder's files again.
// `ONLY=distinctCompany,topk` narrows the questions; `SBIRTOOLS_DIST=<dir>/dist` measures another build
// (an A/B against a base worktree with the same questions).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { DuckDBInstance } from '@duckdb/node-api';
import { childPids, memOf } from './lib/procMem.mjs';

const root = resolve(import.meta.dirname, '..');
const dist = process.env.SBIRTOOLS_DIST ? resolve(process.env.SBIRTOOLS_DIST) : join(root, 'dist');
const { values } = parseArgs({
  options: {
    rows: { type: 'string' },
    formats: { type: 'string' },
    reps: { type: 'string' },
    keep: { type: 'boolean' },
    from: { type: 'string' },
    'write-arrow': { type: 'string' },
  },
  allowPositionals: true,
});

const ROWS = Number(values.rows ?? 20_000_000);
const say = (s) => process.stderr.write(`  scale-wide: ${s}\n`);

// the Arrow writer's own process (a large heap): the Parquet file's columns through DuckDB
if (values['write-arrow']) {
  const { columnFromArray, dateDay, dictionary, float64, int32, tableFromColumns, tableToIPC, utf8 } =
    await import('@uwdata/flechette');
  const [input, output] = [values['write-arrow'], process.argv.at(-1)];
  const con = await (await DuckDBInstance.create(':memory:')).connect();
  const read = async (expr) =>
    (await con.runAndReadAll(`SELECT ${expr} FROM read_parquet('${input}')`)).getColumns()[0];
  const opts = { maxBatchRows: 122_880 };
  const columns = {};
  for (const name of ['Agency', 'Phase', 'City', 'Title'])
    columns[name] = columnFromArray(await read(name), dictionary(utf8()), opts);
  columns.Company = columnFromArray(await read('Company'), utf8(), opts);
  columns.Amount = columnFromArray(await read('Amount'), float64(), opts);
  columns.Employees = columnFromArray(await read('Employees'), int32(), opts);
  const days = await read("(Start - DATE '1970-01-01')::INTEGER");
  columns.Start = columnFromArray(
    days.map((d) => d * 86_400_000),
    dateDay(),
    opts,
  );
  columns.Abstract = columnFromArray(await read('Abstract'), utf8(), opts);
  writeFileSync(output, tableToIPC(tableFromColumns(columns), { format: 'file' }));
  process.exit(0);
}

const FORMATS = (values.formats ?? 'parquet,arrow,csv').split(',');
const REPS = Number(values.reps ?? 2);
const WORDS =
  "['solar','quantum','battery','sensor','laser','drone','protein','vaccine','radar','alloy','fiber','robot']";

// each question as [sbirtools, DuckDB]; answers compared as JSON (numbers rounded)
const QUESTIONS = {
  groupby: [
    "t.groupby('Agency').rollup({ n: op.count(), s: op.sum('Amount') }).objects().map((r) => [r.Agency ?? '', r.n, Math.round(r.s / 1000)]).sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))",
    "SELECT coalesce(Agency, ''), count(*)::INTEGER, round(sum(Amount) / 1000)::BIGINT FROM t GROUP BY Agency ORDER BY coalesce(Agency, '')",
  ],
  filterCount: [
    "t.filter((d) => d.Amount > 5000 && d.Phase === 'Phase II').numRows()",
    "SELECT count(*)::INTEGER FROM t WHERE Amount > 5000 AND Phase = 'Phase II'",
  ],
  distinctCompany: ['t.Company.nunique()', 'SELECT count(DISTINCT Company)::INTEGER FROM t'],
  distinctCity: ['t.City.nunique()', 'SELECT count(DISTINCT City)::INTEGER FROM t'],
  groupsCity: ["t.groupby('City').rollup({ n: op.count() }).numRows()", 'SELECT count(DISTINCT City)::INTEGER FROM t'],
  topk: [
    'Array.from(t.Amount.nlargest(10)).map((x) => Math.round(x * 100))',
    'SELECT round(Amount * 100)::BIGINT FROM t WHERE Amount IS NOT NULL ORDER BY Amount DESC LIMIT 10',
  ],
  topkFiltered: [
    "t.filter((d) => d.Amount != null).orderby(aq.desc('Amount')).slice(0, 10).array('Amount').map((x) => Math.round(x * 100))",
    'SELECT round(Amount * 100)::BIGINT FROM t WHERE Amount IS NOT NULL ORDER BY Amount DESC LIMIT 10',
  ],
  containsTitle: [
    "t.Title.str.contains('quantum').sum()",
    "SELECT count(*)::INTEGER FROM t WHERE contains(Title, 'quantum')",
  ],
  containsCompany: [
    "t.Company.str.contains('99').sum()",
    "SELECT count(*)::INTEGER FROM t WHERE contains(Company, '99')",
  ],
  containsAbstract: [
    "t.Abstract.str.contains('quantum').sum()",
    "SELECT count(*)::INTEGER FROM t WHERE contains(Abstract, 'quantum')",
  ],
  // Company past the dictionary cap, grouped or counted (the host's codes, session 19)
  uniqueCompany: [
    't.Company.unique().length',
    'SELECT (count(DISTINCT Company) + max((Company IS NULL)::INTEGER))::INTEGER FROM t',
  ],
  countsCompany: [
    "((v) => v.numRows() * 100 + v.array('count')[0])(t.Company.value_counts())",
    'SELECT (count(*) * 100 + max(c))::BIGINT FROM (SELECT count(*) c FROM t WHERE Company IS NOT NULL GROUP BY Company)',
  ],
  groupsCompany: [
    "t.groupby('Company').count().numRows()",
    'SELECT (count(DISTINCT Company) + max((Company IS NULL)::INTEGER))::INTEGER FROM t',
  ],
  aggCompany: [
    "t.groupby('Company').agg({ Employees: 'sum' }).numRows()",
    'SELECT count(DISTINCT Company)::INTEGER FROM t',
  ],
  meanEmployees: ['Math.round(t.Employees.mean() * 1000)', 'SELECT round(avg(Employees) * 1000)::BIGINT FROM t'],
};
const ONLY = process.env.ONLY ? process.env.ONLY.split(',') : Object.keys(QUESTIONS);

/** Writes the table as Parquet, CSV and (when asked) Arrow into `dir`; returns the paths. */
async function generate(dir) {
  const at = (ext) => join(dir, `w${ROWS}.${ext}`);
  const files = { parquet: at('parquet'), csv: at('csv'), arrow: at('arrow') };
  if (values.from) return files;
  const con = await (await DuckDBInstance.create(':memory:')).connect();
  const pick = (salt) => `list_extract(${WORDS}, (hash(i * ${salt}) % 12)::INTEGER + 1)`;
  const select = `SELECT
      CASE WHEN i % 101 = 0 THEN NULL ELSE 'AG' || (i % 11)::VARCHAR END AS Agency,
      CASE WHEN i % 3 = 0 THEN 'Phase II' ELSE 'Phase I' END AS Phase,
      CASE WHEN i % 37 = 0 THEN NULL ELSE 'Company ' || (hash(i) % ${Math.floor(ROWS / 4)})::VARCHAR END AS Company,
      CASE WHEN i % 13 = 0 THEN NULL ELSE round((hash(i * 7) % 10000000) / 100.0, 2) END AS Amount,
      CASE WHEN i % 17 = 0 THEN NULL ELSE (i % 500)::INTEGER END AS Employees,
      DATE '2000-01-01' + (i % 9000)::INTEGER AS Start,
      'A study of ' || ${pick(3)} || ' and ' || ${pick(5)} || ' for award ' || i::VARCHAR AS Abstract,
      'City ' || (hash(i * 11) % 20000)::VARCHAR AS City,
      CASE WHEN i % 29 = 0 THEN NULL ELSE ${pick(13)} || ' system ' || (hash(i * 17) % 1000)::VARCHAR END AS Title
    FROM range(${ROWS}) r(i)`;
  await con.run(`COPY (${select}) TO '${files.parquet}' (FORMAT parquet, COMPRESSION snappy, ROW_GROUP_SIZE 122880)`);
  if (FORMATS.includes('csv'))
    await con.run(`COPY (SELECT * FROM read_parquet('${files.parquet}')) TO '${files.csv}' (FORMAT csv, HEADER)`);
  if (FORMATS.includes('arrow'))
    await new Promise((done, fail) =>
      spawn(
        process.execPath,
        ['--max-old-space-size=16000', import.meta.filename, '--write-arrow', files.parquet, files.arrow],
        { stdio: 'inherit' },
      ).on('exit', (code) => (code === 0 ? done() : fail(new Error(`the Arrow writer exited ${code}`)))),
    );
  return files;
}

const SBIR = `
const { createSandbox } = await import(${JSON.stringify(join(dist, 'src', 'index.js'))});
const [path, qs, reps] = JSON.parse(process.argv[1]);
const out = { answers: {}, times: {} };
const t0 = performance.now();
const box = await createSandbox({ awardData: false, tables: { t: path }, timeoutMs: 600000 });
const first = await box.run(qs.groupby ?? '1');
out.cold = performance.now() - t0;
for (const [k, code] of Object.entries(qs)) {
  out.times[k] = [];
  for (let i = 0; i < reps; i++) {
    const s = performance.now();
    const r = k === 'groupby' && i === 0 ? first : await box.run(code);
    out.times[k].push(Math.round(k === 'groupby' && i === 0 ? out.cold : performance.now() - s));
    if (i === 0) out.answers[k] = r.ok ? r.value : { error: String(r.error?.message ?? r.error) };
  }
}
await box.close();
process.stdout.write(JSON.stringify(out) + '\\n');
process.exit(0);`;
const DUCK = `
const { DuckDBInstance } = await import('@duckdb/node-api');
const [path, qs, reader] = JSON.parse(process.argv[1]);
const con = await (await DuckDBInstance.create(':memory:')).connect();
const out = { answers: {}, times: {} };
const t0 = performance.now();
await con.run("CREATE VIEW t AS SELECT * FROM " + reader + "('" + path + "')");
await con.runAndReadAll(qs.groupby ?? 'SELECT 1');
out.cold = performance.now() - t0;
await con.run("CREATE TABLE tt AS SELECT * FROM " + reader + "('" + path + "')");
await con.run('DROP VIEW t');
await con.run('ALTER TABLE tt RENAME TO t');
for (const [k, sql] of Object.entries(qs)) {
  const s = performance.now();
  const r = await con.runAndReadAll(sql);
  out.times[k] = [Math.round(performance.now() - s)];
  const rows = r.getRows().map((row) => row.map((v) => (typeof v === 'bigint' ? Number(v) : v)));
  out.answers[k] = k.startsWith('topk') ? rows.map((x) => x[0]) : k === 'groupby' ? rows : rows[0][0];
}
process.stdout.write(JSON.stringify(out) + '\\n');`;

/** Runs a worker in a fresh process, sampling the summed RSS of its tree; returns its JSON + peakMb. */
function runWorker(script, payload) {
  return new Promise((done, fail) => {
    const args = ['--no-node-snapshot', '--input-type=module', '-e', script, JSON.stringify(payload)];
    const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let peak = 0;
    const timer = setInterval(() => {
      const all = [child.pid];
      for (let i = 0; i < all.length; i++) all.push(...childPids(all[i]));
      peak = Math.max(
        peak,
        all.reduce((a, pid) => a + (memOf(pid)?.rssMb || 0), 0),
      );
    }, 25);
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err = (err + d).slice(-3000)));
    child.on('exit', (code) => {
      clearInterval(timer);
      const last = out.trim().split('\n').pop();
      if (code !== 0 || !last) return fail(new Error(`worker exited ${code}: ${err}`));
      done({ ...JSON.parse(last), peakMb: Math.round(peak) });
    });
  });
}

const dir = values.from ? resolve(values.from) : mkdtempSync(join(tmpdir(), 'sbirtools-scale-wide-'));
try {
  say(`${ROWS} rows: generating into ${dir} ...`);
  const files = await generate(dir);
  const pick = (i) => Object.fromEntries(ONLY.map((k) => [k, QUESTIONS[k][i]]));
  for (const format of FORMATS) {
    say(`${format}: sbirtools ...`);
    const sb = await runWorker(SBIR, [files[format], pick(0), REPS]).catch((e) => ({ error: e.message }));
    say(`${format}: duckdb ...`);
    const reader = format === 'csv' ? 'read_csv' : 'read_parquet';
    const duck = await runWorker(DUCK, [format === 'csv' ? files.csv : files.parquet, pick(1), reader]);
    console.log(
      `${ROWS} rows, ${format} (load average ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' / ')}):`,
    );
    for (const k of ONLY) {
      const a = JSON.stringify(sb.answers?.[k]);
      const b = JSON.stringify(duck.answers[k]);
      console.log(
        `  ${k}: ${a === b ? 'agree' : `DIFFER sbirtools ${a?.slice(0, 200)} DuckDB ${b?.slice(0, 200)}`}; sbirtools ms ${sb.times?.[k]?.join(' / ')}; DuckDB ms ${duck.times[k]}`,
      );
    }
    console.log(
      `  cold (open + group-by) ms: sbirtools ${Math.round(sb.cold)}, DuckDB ${Math.round(duck.cold)}; peak RSS MB (tree): sbirtools ${sb.peakMb}, DuckDB ${duck.peakMb}${sb.error ? `; ${sb.error.slice(0, 300)}` : ''}`,
    );
  }
} finally {
  if (!values.keep && !values.from) rmSync(dir, { recursive: true, force: true });
}
