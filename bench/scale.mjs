#!/usr/bin/env node
// Tables of millions of rows (issue 25 item 4): a user table of 1M / 5M / 20M rows, 7 columns
// (three dictionary strings, a float, an integer, a date, one free text), as Parquet, answering
// five kinds of question: group-by, filter-count, distinct count, top-k sort, text contains.
// Beside each sbirtools figure: DuckDB (@duckdb/node-api, the same Parquet file) and pandas (the
// same rows as CSV: Debian's pandas has no Parquet engine here), each in a fresh process.
//   cold = a fresh process: open the table + the first answer (group-by); peak RSS of the process
//          tree; for sbirtools also the RSS of an empty sandbox, to give the table's own cost
//   cold, holder already running = the same in a process whose holder was started by an empty
//          session before (a server's next table; prewarmSandbox() at start-up), Parquet only
//   warm = the median of `reps` repeats of each question on the loaded table
// Files are generated with DuckDB into a temporary folder (never committed) and removed after.
//   node --no-node-snapshot bench/scale.mjs [--sizes 1000000,5000000] [--reps 5] [--python /usr/bin/python3] [--memory-mb 4096]
// `--keep` leaves the files in their temporary folder; `--from <that folder>` measures them again
// instead of generating new ones (and leaves them): for before/after runs of two builds on one set of files.
// Also run by `npm run bench` (bench/measures/scale.mjs): prints one JSON line last on stdout.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { DuckDBInstance } from '@duckdb/node-api';
import { childPids, memOf } from './lib/procMem.mjs';

const root = resolve(import.meta.dirname, '..');
const fromEnv = process.env.BENCH_ARGS ? JSON.parse(process.env.BENCH_ARGS) : {};
const { values } = parseArgs({
  options: {
    sizes: { type: 'string' },
    reps: { type: 'string' },
    python: { type: 'string' },
    'memory-mb': { type: 'string' },
    keep: { type: 'boolean' },
    formats: { type: 'string' },
    from: { type: 'string' },
  },
});
// the user table's formats besides Parquet (always measured): Arrow IPC (written by flechette,
// bench/lib/writeScaleArrow.mjs; DuckDB's figures beside it are its Parquet ones: DuckDB reads Arrow
// IPC only through an extension) and CSV (DuckDB's read_csv beside it)
const FORMATS = (values.formats ?? fromEnv.formats ?? 'parquet,arrow,csv').toString().split(',');
const SIZES = (values.sizes ?? fromEnv.sizes ?? '1000000,5000000').toString().split(',').map(Number);
const REPS = Number(values.reps ?? fromEnv.reps ?? 5);
// the sandbox's memoryLimitMb: the default (512 MB) unless set; 20M rows' columns (1.6 GB) do not fit 512 MB
const MEMORY_MB = Number(values['memory-mb'] ?? fromEnv.memoryMb ?? 0) || undefined;
// under `npm run bench`, python is null when pandas could not be installed: that column is skipped
const PYTHON = values.python ?? ('python' in fromEnv ? fromEnv.python : '/usr/bin/python3');
const say = (s) => process.stderr.write(`  scale: ${s}\n`);

// the questions, each three ways; answers are compared as JSON (numbers rounded)
const QUESTIONS = {
  groupby: {
    js: "t.groupby('Agency').rollup({ n: op.count(), s: op.sum('Amount') }).orderby('Agency').objects().map((r) => [r.Agency, r.n, Math.round(r.s)])",
    sql: 'SELECT Agency, count(*)::INTEGER, round(sum(Amount))::BIGINT FROM t GROUP BY Agency ORDER BY Agency',
    py: "[[a, int(n), int(round(s))] for a, n, s in t.groupby('Agency')['Amount'].agg(['count', 'sum']).reset_index().itertuples(index=False)]",
  },
  filterCount: {
    js: "t.filter((d) => d.Amount > 5000 && d.Phase === 'Phase II').numRows()",
    sql: "SELECT count(*)::INTEGER FROM t WHERE Amount > 5000 AND Phase = 'Phase II'",
    py: "int(((t['Amount'] > 5000) & (t['Phase'] == 'Phase II')).sum())",
  },
  distinct: {
    js: 't.Company.nunique()',
    sql: 'SELECT count(DISTINCT Company)::INTEGER FROM t',
    py: "int(t['Company'].nunique())",
  },
  topk: {
    js: "t.orderby(aq.desc('Amount')).slice(0, 10).array('Amount').map((x) => Math.round(x * 100))",
    sql: 'SELECT round(Amount * 100)::BIGINT FROM t ORDER BY Amount DESC LIMIT 10',
    py: "[int(round(x * 100)) for x in t['Amount'].nlargest(10)]",
  },
  contains: {
    js: "t.Abstract.str.contains('quantum').sum()",
    sql: "SELECT count(*)::INTEGER FROM t WHERE contains(Abstract, 'quantum')",
    py: "int(t['Abstract'].str.contains('quantum', regex=False).sum())",
  },
};

const WORDS = [
  'solar',
  'quantum',
  'battery',
  'sensor',
  'laser',
  'drone',
  'protein',
  'vaccine',
  'radar',
  'alloy',
  'fiber',
  'robot',
];
/** Writes `rows` rows as Parquet (and CSV for pandas) with DuckDB; returns the paths. */
async function generate(dir, rows, duck) {
  if (values.from) {
    const at = (ext) => join(resolve(values.from), `t${rows}.${ext}`);
    return { parquet: at('parquet'), csv: at('csv'), arrow: at('arrow') };
  }
  const words = `[${WORDS.map((w) => `'${w}'`).join(',')}]`;
  const select = `SELECT
      'AG' || (i % 11)::VARCHAR AS Agency,
      CASE WHEN i % 3 = 0 THEN 'Phase II' ELSE 'Phase I' END AS Phase,
      'Company ' || (hash(i) % ${Math.max(1000, Math.floor(rows / 20))})::VARCHAR AS Company,
      round((hash(i * 7) % 10000000) / 100.0, 2) AS Amount,
      (i % 500)::INTEGER AS Employees,
      DATE '2000-01-01' + (i % 9000)::INTEGER AS Start,
      'A study of ' || list_extract(${words}, (hash(i * 3) % 12)::INTEGER + 1) || ' and ' || list_extract(${words}, (hash(i * 5) % 12)::INTEGER + 1) || ' for award ' || i::VARCHAR AS Abstract
    FROM range(${rows}) r(i)`;
  const parquet = join(dir, `t${rows}.parquet`);
  const csv = join(dir, `t${rows}.csv`);
  await duck.run(`COPY (${select}) TO '${parquet}' (FORMAT parquet, COMPRESSION snappy, ROW_GROUP_SIZE 122880)`);
  await duck.run(`COPY (SELECT * FROM read_parquet('${parquet}')) TO '${csv}' (FORMAT csv, HEADER)`);
  const arrow = join(dir, `t${rows}.arrow`);
  if (FORMATS.includes('arrow'))
    await new Promise((done, fail) =>
      spawn(
        process.execPath,
        ['--max-old-space-size=16000', join(root, 'bench/lib/writeScaleArrow.mjs'), parquet, arrow],
        {
          stdio: 'inherit',
        },
      ).on('exit', (code) => (code === 0 ? done() : fail(new Error(`writeScaleArrow exited ${code}`)))),
    );
  return { parquet, csv, arrow };
}

// ---- the per-engine worker scripts, each run in a fresh process -------------------------------
const SBIR_WORKER = `
const { createSandbox } = await import(${JSON.stringify(join(root, 'dist', 'src', 'index.js'))});
const [path, qs, reps, empty, memoryMb, holderUp] = JSON.parse(process.argv[1]);
const out = {};
if (holderUp) {
  // a process whose holder already runs (a server's next table, a warm function): an empty session
  // opened and closed first, then half a second idle, as between two requests
  const warm = await createSandbox({ awardData: false });
  await warm.run('1');
  await warm.close();
  await new Promise((r) => setTimeout(r, 500));
}
const t0 = performance.now();
const box = await createSandbox({ awardData: false, ...(empty ? {} : { tables: { t: path } }), ...(memoryMb ? { memoryLimitMb: memoryMb } : {}), timeoutMs: 600000, maxResultBytes: 64 * 1024 * 1024 }); // the default limits (512 MB isolate), a long deadline
if (empty) { await box.run('1'); process.stdout.write(JSON.stringify({ ready: true }) + '\\n'); await new Promise((r) => process.stdin.once('data', r)); await box.close(); process.exit(0); }
const first = await box.run(qs.groupby);
out.cold = performance.now() - t0;
if (holderUp) { process.stdout.write(JSON.stringify({ cold: out.cold, ok: first.ok, answer: first.value }) + '\\n'); process.exit(0); }
out.answers = {}; out.warm = {};
for (const [k, code] of Object.entries(qs)) {
  const times = [];
  for (let i = 0; i < reps; i++) { const s = performance.now(); const r = await box.run(code); times.push(performance.now() - s); if (i === 0) out.answers[k] = r.ok ? r.value : { error: String(r.error?.message ?? r.error) }; }
  out.warm[k] = times.sort((a, b) => a - b)[Math.floor(times.length / 2)];
}
out.firstOk = first.ok;
await box.close();
process.stdout.write(JSON.stringify(out) + '\\n');
process.exit(0);
`;
const DUCK_WORKER = `
const { DuckDBInstance } = await import('@duckdb/node-api');
const [path, qs, reps, reader = 'read_parquet'] = JSON.parse(process.argv[1]);
const out = { answers: {}, warm: {} };
const t0 = performance.now();
const con = await (await DuckDBInstance.create(':memory:')).connect();
await con.run("CREATE VIEW t AS SELECT * FROM " + reader + "('" + path + "')");
await con.runAndReadAll(qs.groupby);
out.cold = performance.now() - t0;
await con.run("CREATE TABLE tt AS SELECT * FROM " + reader + "('" + path + "')");
await con.run('DROP VIEW t'); await con.run('ALTER TABLE tt RENAME TO t');
for (const [k, sql] of Object.entries(qs)) {
  const times = [];
  for (let i = 0; i < reps; i++) { const s = performance.now(); const r = await con.runAndReadAll(sql); times.push(performance.now() - s); if (i === 0) { const rows = r.getRows().map((row) => row.map((v) => typeof v === 'bigint' ? Number(v) : v)); out.answers[k] = k === 'topk' ? rows.map((x) => x[0]) : k === 'groupby' ? rows : rows[0][0]; } }
  out.warm[k] = times.sort((a, b) => a - b)[Math.floor(times.length / 2)];
}
process.stdout.write(JSON.stringify(out) + '\\n');
`;
const PY_WORKER = `
import json, sys, time
t0 = time.perf_counter()
import pandas as pd
path, qs, reps = json.loads(sys.argv[1])
t = pd.read_csv(path, dtype={'Agency': 'category', 'Phase': 'category'}, parse_dates=['Start'])
out = {'answers': {}, 'warm': {}}
eval(qs['groupby'])
out['cold'] = (time.perf_counter() - t0) * 1000
for k, code in qs.items():
    times = []
    for i in range(reps):
        s = time.perf_counter(); v = eval(code); times.append((time.perf_counter() - s) * 1000)
        if i == 0: out['answers'][k] = v
    times.sort(); out['warm'][k] = times[len(times) // 2]
print(json.dumps(out))
`;

/** Runs a worker in a fresh process, sampling the RSS of its whole tree; returns its JSON + peakMb. */
function runWorker(cmd, args, { keepOpen = false } = {}) {
  return new Promise((resolveRun, reject) => {
    const child = spawn(cmd, args, { cwd: root, stdio: ['pipe', 'pipe', 'pipe'] });
    const tree = () => {
      const all = [child.pid];
      for (let i = 0; i < all.length; i++) all.push(...childPids(all[i]));
      return all;
    };
    // the summed RSS of the tree, sampled; a process that has exited (no VmRSS) counts 0
    let peak = 0;
    let now = 0;
    const sample = () => {
      now = tree().reduce((a, pid) => a + (memOf(pid)?.rssMb || 0), 0);
      peak = Math.max(peak, now);
    };
    const timer = setInterval(sample, 25);
    const sampler = { stop: () => (clearInterval(timer), { peakSumMb: peak, rssSumMb: (sample(), now) }) };
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => {
      out += d;
      if (keepOpen && out.includes('\n')) {
        // an empty sandbox: settle, sample, then let it close
        setTimeout(() => {
          const mem = sampler.stop();
          child.stdin.end('x');
          resolveRun({ rssMb: mem.rssSumMb });
        }, 1500);
      }
    });
    child.stderr.on('data', (d) => (err = (err + d).slice(-3000)));
    child.on('exit', (code) => {
      if (keepOpen) return;
      clearInterval(timer);
      const mem = { peakSumMb: peak };
      const last = out.trim().split('\n').pop();
      if (code !== 0 || !last) return reject(new Error(`${cmd} exited ${code}: ${err}`));
      resolveRun({ ...JSON.parse(last), peakMb: mem.peakSumMb });
    });
  });
}

const node = (script, payload) => [
  process.execPath,
  ['--no-node-snapshot', '--input-type=module', '-e', script, JSON.stringify(payload)],
];
const pick = (k) => Object.fromEntries(Object.entries(QUESTIONS).map(([q, v]) => [q, v[k]]));
const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

const dir = mkdtempSync(join(tmpdir(), 'sbirtools-scale-'));
const duck = await (await DuckDBInstance.create(':memory:')).connect();
const result = { questions: Object.keys(QUESTIONS), reps: REPS, memoryLimitMb: MEMORY_MB ?? 'default', sizes: {} };
try {
  const empty = await runWorker(...node(SBIR_WORKER, ['', {}, 0, true]), { keepOpen: true });
  result.emptySandboxRssMb = empty.rssMb;
  say(`empty sandbox RSS ${empty.rssMb.toFixed(0)} MB`);
  for (const rows of SIZES) {
    say(`${rows} rows: generating ...`);
    const files = await generate(dir, rows, duck);
    const colBytes = await duck.runAndReadAll(
      `SELECT sum(total_uncompressed_size)::BIGINT FROM parquet_metadata('${files.parquet}')`,
    );
    const entry = {
      parquetMb: statSync(files.parquet).size / 1e6,
      csvMb: existsSync(files.csv) ? statSync(files.csv).size / 1e6 : undefined,
      uncompressedMb: Number(colBytes.getRows()[0][0]) / 1e6,
    };
    say(`${rows} rows: sbirtools ...`);
    try {
      entry.sbirtools = await runWorker(...node(SBIR_WORKER, [files.parquet, pick('js'), REPS, false, MEMORY_MB]));
    } catch (e) {
      entry.sbirtools = { error: String(e.message).slice(0, 500) };
    }
    try {
      const up = await runWorker(...node(SBIR_WORKER, [files.parquet, pick('js'), 0, false, MEMORY_MB, true]));
      entry.sbirtools.coldHolderUp = up.ok && same(up.answer, entry.sbirtools.answers?.groupby) ? up.cold : null;
    } catch {
      entry.sbirtools.coldHolderUp = null;
    }
    say(`${rows} rows: duckdb ...`);
    entry.duckdb = await runWorker(...node(DUCK_WORKER, [files.parquet, pick('sql'), REPS]));
    say(`${rows} rows: pandas ...`);
    try {
      if (!PYTHON) throw new Error('pandas unavailable');
      statSync(files.csv); // with --from, a folder whose CSV was removed: pandas is skipped
      entry.pandas = await runWorker(PYTHON, ['-c', PY_WORKER, JSON.stringify([files.csv, pick('py'), REPS])]);
    } catch (e) {
      entry.pandas = { error: String(e.message).slice(0, 300) };
    }
    entry.answersAgree = Object.fromEntries(
      Object.keys(QUESTIONS).map((k) => [k, same(entry.sbirtools.answers?.[k], entry.duckdb.answers[k])]),
    );
    // the same questions on the same rows as Arrow and CSV, each in a fresh process
    entry.formats = {};
    for (const format of FORMATS.filter((f) => f !== 'parquet')) {
      say(`${rows} rows: sbirtools (${format}) ...`);
      const e = { fileMb: statSync(files[format]).size / 1e6 };
      try {
        e.sbirtools = await runWorker(...node(SBIR_WORKER, [files[format], pick('js'), REPS, false, MEMORY_MB]));
      } catch (err) {
        e.sbirtools = { error: String(err.message).slice(0, 500) };
      }
      if (format === 'csv') {
        say(`${rows} rows: duckdb (csv) ...`);
        e.duckdb = await runWorker(...node(DUCK_WORKER, [files.csv, pick('sql'), REPS, 'read_csv']));
      } else e.duckdb = { ...entry.duckdb, reference: 'parquet' };
      e.answersAgree = Object.fromEntries(
        Object.keys(QUESTIONS).map((k) => [k, same(e.sbirtools.answers?.[k], entry.duckdb.answers[k])]),
      );
      e.loadAvg = loadavg();
      entry.formats[format] = e;
      say(
        `${rows} rows ${format}: ${JSON.stringify({ cold: [e.sbirtools.cold, e.duckdb.cold], peak: [e.sbirtools.peakMb, e.duckdb.peakMb], agree: e.answersAgree })}`,
      );
    }
    result.sizes[rows] = entry;
    say(
      `${rows} rows: ${JSON.stringify({ cold: [entry.sbirtools.cold, entry.duckdb.cold, entry.pandas.cold], peak: [entry.sbirtools.peakMb, entry.duckdb.peakMb, entry.pandas.peakMb], agree: entry.answersAgree })}`,
    );
    if (!values.keep && !values.from) for (const f of Object.values(files)) rmSync(f, { force: true });
  }
} finally {
  if (!values.keep) rmSync(dir, { recursive: true, force: true });
}

// the table, for docs/benchmarks.md
const f = (x) =>
  x === undefined || x === null || Number.isNaN(x)
    ? '–'
    : x >= 100
      ? Math.round(x).toLocaleString('en-US')
      : x.toFixed(1);
const lines = [
  '| rows | question | sbirtools ms | DuckDB ms | pandas ms | vs DuckDB | agrees |',
  '|---:|---|---:|---:|---:|---:|:-:|',
];
for (const [rows, e] of Object.entries(result.sizes)) {
  const s = e.sbirtools;
  lines.push(
    `| ${Number(rows).toLocaleString('en-US')} | **cold** (load + group-by) | ${f(s.cold)} | ${f(e.duckdb.cold)} | ${f(e.pandas.cold)} | ${s.cold ? (s.cold / e.duckdb.cold).toFixed(1) + 'x' : (s.error ?? '')} | |`,
  );
  lines.push(
    `| | cold, holder already running (load + group-by) | ${f(s.coldHolderUp)} | ${f(e.duckdb.cold)} | – | ${s.coldHolderUp ? (s.coldHolderUp / e.duckdb.cold).toFixed(1) + 'x' : ''} | |`,
  );
  for (const k of Object.keys(QUESTIONS))
    lines.push(
      `| | ${k} (warm) | ${s.answers?.[k]?.error ? `error after ${f(s.warm?.[k])}` : f(s.warm?.[k])} | ${f(e.duckdb.warm[k])} | ${f(e.pandas.warm?.[k])} | ${s.warm ? (s.warm[k] / e.duckdb.warm[k]).toFixed(1) + 'x' : ''} | ${e.answersAgree[k] ? 'yes' : 'NO'} |`,
    );
  lines.push(
    `| | peak RSS MB (tree) | ${f(s.peakMb)} | ${f(e.duckdb.peakMb)} | ${f(e.pandas.peakMb)} | table's uncompressed columns ${f(e.uncompressedMb)} MB; sbirtools above empty sandbox ${f(s.peakMb - result.emptySandboxRssMb)} | |`,
  );
}
for (const [rows, e] of Object.entries(result.sizes))
  for (const [format, x] of Object.entries(e.formats ?? {})) {
    const s = x.sbirtools;
    const ref = x.duckdb.reference ? ` (DuckDB on ${x.duckdb.reference})` : '';
    lines.push(
      `| ${Number(rows).toLocaleString('en-US')} ${format} | **cold** (load + group-by)${ref} | ${f(s.cold)} | ${f(x.duckdb.cold)} | – | ${s.cold ? (s.cold / x.duckdb.cold).toFixed(1) + 'x' : (s.error ?? '')} | |`,
    );
    for (const k of Object.keys(QUESTIONS))
      lines.push(
        `| | ${k} (warm) | ${s.answers?.[k]?.error ? `error after ${f(s.warm?.[k])}` : f(s.warm?.[k])} | ${f(x.duckdb.warm[k])} | – | ${s.warm ? (s.warm[k] / x.duckdb.warm[k]).toFixed(1) + 'x' : ''} | ${x.answersAgree[k] ? 'yes' : 'NO'} |`,
      );
    lines.push(
      `| | peak RSS MB (tree) | ${f(s.peakMb)} | ${f(x.duckdb.peakMb)} | – | file ${f(x.fileMb)} MB; load average ${x.loadAvg.map((l) => l.toFixed(1)).join(' / ')} | |`,
    );
  }
result.table = lines.join('\n');
process.stderr.write(`\n${result.table}\n\n`);
process.stdout.write(`${JSON.stringify(result)}\n`);
