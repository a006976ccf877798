#!/usr/bin/env node
// Tables in and files out (issue 16), measured on this machine:
//  1. a 200,000-row user table ready in a session: CSV vs Parquet vs Arrow (createSandbox + first run)
//  2. to_parquet / to_csv of a 100,000-row result: the run alone vs the run + the file
//  3. `sbirtools export` of award_data: file size and read time in DuckDB (and pandas for CSV)
// Usage: node bench/table-formats.mjs [--rows 200000] [--repeat 3] [--awards FILE] [--sections 1,2,3]
// Needs the build (npm run build) and the devDependency @duckdb/node-api.
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { DuckDBInstance } from '@duckdb/node-api';

const { values } = parseArgs({
  options: {
    rows: { type: 'string', default: '200000' },
    repeat: { type: 'string', default: '3' },
    awards: { type: 'string' },
    sections: { type: 'string', default: '1,2,3' },
  },
});
const SECTIONS = new Set(values.sections.split(','));
const ROWS = Number(values.rows);
const REPEAT = Number(values.repeat);
const root = resolve(import.meta.dirname, '..');
const { createSandbox, shutdown } = await import(join(root, 'dist', 'src', 'index.js'));
const dir = mkdtempSync(join(tmpdir(), 'sbirtools-formats-'));
const duck = await (await DuckDBInstance.create(':memory:')).connect();
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ms = (x) => Math.round(x);
// top level: section 3 uses it too (it was defined inside section 1's block, a ReferenceError in section 3)
const size = (p) => statSync(p).size;

// 1. the table: ids, a dictionary column, high-cardinality names, amounts, dates, flags, short text
const agencies = ['DOD', 'HHS', 'NSF', 'DOE', 'NASA', 'USDA', 'DOC', 'ED', 'EPA', 'DHS'];
const lines = ['UEI,Agency,Company,Amount,Start,Active,Employees,Note'];
for (let i = 0; i < ROWS; i++) {
  const d = new Date(Date.UTC(2000, 0, 1) + (i % 9000) * 86_400_000).toISOString().slice(0, 10);
  lines.push(
    `U${(1e11 + i * 7919).toString(36).toUpperCase()},${agencies[i % 10]},Company ${i % 50000} LLC,${(i * 37.5) % 1e6},${d},${i % 3 === 0},${i % 500},${i % 7 === 0 ? '' : `note ${i % 1000}`}`,
  );
}
const csv = join(dir, 't.csv');
writeFileSync(csv, lines.join('\n') + '\n');
const parquet = join(dir, 't.parquet');
const arrow = join(dir, 't.arrow');
await duck.run(`COPY (SELECT * FROM read_csv('${csv}')) TO '${parquet}' (FORMAT parquet)`);
// Arrow via sbirtools itself (to_arrow), from the Parquet
{
  const box = await createSandbox({
    awardData: false,
    tables: { t: parquet },
    preset: 'permissive',
    maxFileBytes: 1 << 30,
  });
  const r = await box.run("to_arrow(t, 't.arrow'); 1");
  writeFileSync(arrow, r.files[0].bytes);
  await box.close();
}
async function ready(path) {
  const t0 = performance.now();
  const box = await createSandbox({ awardData: false, tables: { t: path } });
  const r = await box.run('t.numRows()');
  const t = performance.now() - t0;
  await box.close();
  if (r.value !== ROWS) throw new Error(`expected ${ROWS} rows, got ${JSON.stringify(r.value ?? r.error)}`);
  return t;
}
if (SECTIONS.has('1')) {
  await ready(csv); // warm the holder and the prelude code cache
  // first load: a file the holder has not seen (a fresh copy each time); kept: the same file again.
  // Each first load starts on an idle holder: the decode workers a previous load left warming up in
  // the background (up to ~1.5 s after it) have finished, so no format is charged for another's.
  const idle = () => new Promise((r) => setTimeout(r, 2000));
  const times = { csv: [], parquet: [], arrow: [] };
  const cold = { csv: [], parquet: [], arrow: [] };
  for (let k = 0; k < REPEAT; k++) {
    for (const [f, p] of [
      ['csv', csv],
      ['parquet', parquet],
      ['arrow', arrow],
    ]) {
      const copy = join(dir, `copy${k}.${f}`);
      copyFileSync(p, copy);
      await idle();
      cold[f].push(await ready(copy));
      times[f].push(await ready(p));
    }
  }
  if (process.env.SBIRTOOLS_BENCH_RAW === '1')
    for (const f of ['csv', 'parquet', 'arrow'])
      console.log(`${f} first loads (ms, in order): ${cold[f].map(ms).join(' ')}`);
  console.log(`\n## 1. A ${ROWS}-row table ready in a session (createSandbox + first run), median of ${REPEAT}`);
  console.log(
    '| format | file bytes | first load ms | x CSV | kept by the holder ms | x CSV |\n| --- | ---: | ---: | ---: | ---: | ---: |',
  );
  for (const [f, p] of [
    ['csv', csv],
    ['parquet', parquet],
    ['arrow', arrow],
  ]) {
    console.log(
      `| ${f} | ${size(p)} | ${ms(median(cold[f]))} | ${(median(cold[f]) / median(cold.csv)).toFixed(2)} | ${ms(median(times[f]))} | ${(median(times[f]) / median(times.csv)).toFixed(2)} |`,
    );
  }
}

// 2. files out: a 100,000-row result
if (SECTIONS.has('2')) {
  const box = await createSandbox({
    awardData: false,
    tables: { t: parquet },
    preset: 'permissive',
    maxFileBytes: 1 << 30,
  });
  // r.indices() materializes the result (Arquero sorts lazily: without it the orderby's sort would
  // run inside whichever call first needs the order, and be charged to the file instead of the run).
  // T0..T1 is the result's own time inside the isolate, T1..end the writer's, in the same run:
  // their ratio holds still while the machine's load moves the wall times of separate runs.
  const base =
    "const T0 = Date.now(); const r = t.filter(d => d.Employees < 250).derive({ Amount2: d => d.Amount * 2 }).orderby('UEI').slice(0, 100000); r.indices(); const T1 = Date.now()";
  const out = { run: [], parquet: [], csv: [] };
  const inRun = { parquet: [], csv: [] };
  await box.run(`${base}; r.numRows()`);
  for (let k = 0; k < REPEAT; k++) {
    out.run.push((await box.run(`${base}; r.numRows()`)).stats.wallMs);
    for (const f of ['parquet', 'csv']) {
      const r = await box.run(`${base}; to_${f}(r, 'r.${f}'); [T1 - T0, Date.now() - T1]`);
      out[f].push(r.stats.wallMs);
      inRun[f].push(r.value[1] / r.value[0]);
    }
  }
  await box.close();
  const m = { run: median(out.run), parquet: median(out.parquet), csv: median(out.csv) };
  console.log(`\n## 2. Saving a 100,000-row result (run wall time, median of ${REPEAT})`);
  console.log(
    '| run | ms | added by the file | x the run | in the isolate, same run: writer / result |\n| --- | ---: | ---: | ---: | ---: |',
  );
  console.log(`| the run alone | ${ms(m.run)} | | | |`);
  for (const f of ['parquet', 'csv'])
    console.log(
      `| + to_${f} | ${ms(m[f])} | ${ms(m[f] - m.run)} | ${((m[f] - m.run) / m.run).toFixed(2)} | ${median(inRun[f]).toFixed(2)} |`,
    );
}

// 3. export of award_data and reads in DuckDB / pandas
if (SECTIONS.has('3')) {
  const env = { ...process.env, ...(values.awards ? { SBIRTOOLS_CSV_PATH: resolve(values.awards) } : {}) };
  const files = {};
  console.log('\n## 3. `sbirtools export` of award_data, read back');
  console.log(
    '| format | export ms | file bytes | DuckDB count+sum ms | pandas read ms |\n| --- | ---: | ---: | ---: | ---: |',
  );
  const py = process.env.SBIRTOOLS_BENCH_PYTHON ?? '/usr/bin/python3';
  const pandasOk = spawnSync(py, ['-c', 'import pandas'], { encoding: 'utf8' }).status === 0;
  const parquetEngine =
    pandasOk &&
    spawnSync(py, ['-c', 'import pandas\ntry:\n import pyarrow\nexcept ImportError:\n import fastparquet'], {
      encoding: 'utf8',
    }).status === 0;
  for (const f of ['csv', 'parquet', 'arrow']) {
    const file = join(dir, `awards.${f}`);
    const t0 = performance.now();
    execFileSync(process.execPath, [join(root, 'bin', 'sbirtools.js'), 'export', '--format', f, '-o', file], {
      env,
      stdio: 'ignore',
    });
    const exportMs = performance.now() - t0;
    files[f] = file;
    const reader = f === 'csv' ? `read_csv('${file}')` : f === 'parquet' ? `'${file}'` : null;
    let duckMs = 'n/a';
    if (reader) {
      const runs = [];
      for (let k = 0; k < REPEAT; k++) {
        const s = performance.now();
        await duck.runAndReadAll(`SELECT count(*), sum("Award Amount") FROM ${reader}`);
        runs.push(performance.now() - s);
      }
      duckMs = ms(median(runs));
    }
    let pandasMs = 'n/a';
    if (pandasOk && (f === 'csv' || (f === 'parquet' && parquetEngine))) {
      const code = `import time, pandas as pd\nt=time.perf_counter()\ndf=${f === 'csv' ? 'pd.read_csv' : 'pd.read_parquet'}(${JSON.stringify(file)})\nprint(round((time.perf_counter()-t)*1000))`;
      pandasMs = spawnSync(py, ['-c', code], { encoding: 'utf8' }).stdout.trim() || 'failed';
    }
    console.log(`| ${f} | ${ms(exportMs)} | ${size(file)} | ${duckMs} | ${pandasMs} |`);
  }
  if (!parquetEngine)
    console.log(
      `\n(pandas ${pandasOk ? 'has no Parquet engine (pyarrow/fastparquet) here' : 'is not installed'}; Polars is not installable here: neither is in Debian)`,
    );
}
await shutdown();
rmSync(dir, { recursive: true, force: true });
