#!/usr/bin/env node
// "CSV on two cores" in docs/benchmarks.md: a user CSV table parsed in one pass (ingestCsv) and in
// two parts on two threads (ingestCsvInParts, the split forced at every size), each run in a fresh
// process, alternating, for files of several sizes: where the split starts to pay (PARTS_MIN_BYTES).
// Files are the scale bench's rows (bench/scale.mjs: 7 columns), written by DuckDB into a temporary
// folder and removed after.
//   node bench/csv-parts.mjs [--rows 100000,200000,400000,1000000] [--reps 3]
// Needs the build (npm run build). Prints one JSON line last on stdout.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { DuckDBInstance } from '@duckdb/node-api';

const { values } = parseArgs({
  options: {
    rows: { type: 'string' },
    reps: { type: 'string' },
    child: { type: 'string' },
    parts: { type: 'boolean' },
  },
});
const ROWS = (values.rows ?? '100000,200000,400000,1000000').split(',').map(Number);
const REPS = Number(values.reps ?? 3);
const dist = new URL('../dist/', import.meta.url).href;

const WORDS = ['solar', 'quantum', 'battery', 'sensor', 'laser', 'drone', 'protein', 'vaccine', 'radar', 'alloy'];
async function generate(path, rows) {
  const words = `[${WORDS.map((w) => `'${w}'`).join(',')}]`;
  const con = await (await DuckDBInstance.create(':memory:')).connect();
  await con.run(`COPY (SELECT
      'AG' || (i % 11)::VARCHAR AS Agency,
      CASE WHEN i % 3 = 0 THEN 'Phase II' ELSE 'Phase I' END AS Phase,
      'Company ' || (hash(i) % ${Math.max(1000, Math.floor(rows / 20))})::VARCHAR AS Company,
      round((hash(i * 7) % 10000000) / 100.0, 2) AS Amount,
      (i % 500)::INTEGER AS Employees,
      DATE '2000-01-01' + (i % 9000)::INTEGER AS Start,
      'A study of ' || list_extract(${words}, (hash(i * 3) % 10)::INTEGER + 1) || ' for award ' || i::VARCHAR AS Abstract
    FROM range(${rows}) r(i)) TO '${path}' (FORMAT csv, HEADER)`);
}

// one ingest in a fresh process (this file with --child): wall ms and the process's CPU ms (both threads)
async function child(path, parts) {
  const { ingestCsv } = await import(new URL('src/data/ingest/ingestCsv.js', dist).href);
  const { ingestCsvInParts } = await import(new URL('src/data/ingest/csvInParts.js', dist).href);
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const opts = { maxDictSize: 2097152 };
  const r = parts
    ? await ingestCsvInParts(path, { ...opts, minPartBytes: 0, splitWhenBusy: true })
    : await ingestCsv(path, opts);
  const ms = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  console.log(JSON.stringify({ ms, cpuMs: (cpu.user + cpu.system) / 1000, parts: r.parts ?? 1 }));
}
if (values.child) {
  await child(values.child, values.parts === true);
  process.exit(0);
}
function once(path, parts) {
  const args = [new URL(import.meta.url).pathname, '--child', path, ...(parts ? ['--parts'] : [])];
  const r = spawnSync(process.execPath, args, { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(r.stderr);
  return JSON.parse(r.stdout);
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const dir = mkdtempSync(join(tmpdir(), 'sbt-csvparts-'));
const results = [];
try {
  for (const rows of ROWS) {
    const path = join(dir, `t${rows}.csv`);
    await generate(path, rows);
    const runs = { one: [], two: [] };
    const load = [];
    for (let i = 0; i < REPS; i++) {
      load.push(loadavg()[0]);
      runs.one.push(once(path, false));
      runs.two.push(once(path, true));
    }
    const row = {
      rows,
      mb: +(statSync(path).size / 1e6).toFixed(1),
      onePassMs: Math.round(median(runs.one.map((r) => r.ms))),
      twoPartsMs: Math.round(median(runs.two.map((r) => r.ms))),
      onePassCpuMs: Math.round(median(runs.one.map((r) => r.cpuMs))),
      twoPartsCpuMs: Math.round(median(runs.two.map((r) => r.cpuMs))),
      split: runs.two.every((r) => r.parts === 2),
      load: +median(load).toFixed(1),
    };
    results.push(row);
    process.stderr.write(`  csv-parts: ${JSON.stringify(row)}\n`);
    rmSync(path, { force: true });
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
console.log(JSON.stringify({ measure: 'csv-parts', node: process.version, results }));
