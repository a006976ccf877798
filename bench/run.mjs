#!/usr/bin/env node
// `npm run bench`: sbirtools against the Python designs it replaces (issues 8 and 12), side by side.
// Generates the full-size file if missing (bench/data/, gitignored), builds its binary cache,
// installs pandas if it can (scripts/install-pandas.sh) or skips that baseline with a message,
// runs each measure in a fresh Node process (bench/measures/), prints the table, writes
// bench/results/latest.json and rewrites the results between the markers in docs/benchmarks.md.
//   npm run bench [-- --quick] [-- --only cold,warm,...] [-- --no-doc]
//   npm run bench -- --from-results    re-render latest.json into the doc without measuring
// Needs the build (npm run build); SBIRTOOLS_BENCH_CSV=<file> measures another file.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { createRequire } from 'node:module';
import { parseArgs } from 'node:util';
import { CACHE_DIR, CSV, DOC, GENERATE_ARGS, MEASURES as MEASURES_DIR, RESULTS, ROOT, dist } from './lib/paths.mjs';
import { fileInfo, machineInfo } from './lib/machine.mjs';
import { runMeasure } from './lib/measureChild.mjs';
import { docSection, resultsTable } from './lib/render.mjs';
import { writeBetweenMarkers } from './lib/docMarkers.mjs';

/** True when `name` resolves from the bench (an optional devDependency may be missing). */
function canImport(name) {
  try {
    createRequire(import.meta.url).resolve(name);
    return true;
  } catch {
    return false;
  }
}

const { values } = parseArgs({
  options: {
    quick: { type: 'boolean' },
    only: { type: 'string' },
    'no-doc': { type: 'boolean' },
    'from-results': { type: 'boolean' },
  },
});
const say = (s) => process.stderr.write(`${s}\n`);
/** The doc section the markers live in, added at the end when the markers are missing. */
const HEADING = '## sbirtools vs the Python designs (issue 8)';

if (values['from-results']) {
  const saved = JSON.parse(readFileSync(RESULTS, 'utf8'));
  process.stdout.write(`\n${resultsTable(saved)}\n`);
  if (!values['no-doc']) writeBetweenMarkers(DOC, docSection(saved), HEADING);
  say(`bench: rendered ${RESULTS}${values['no-doc'] ? '' : ` into ${DOC}`}`);
  process.exit(0);
}

const q = values.quick;
const NO_SNAPSHOT = ['--no-node-snapshot'];
/** A measure that may not exist yet (written on another branch): skipped, by name, when absent. */
const OPTIONAL = { optional: true };
/** Each measure: its script, its arguments (full run / --quick), its Node flags, options. */
const MEASURES = {
  cold: ['coldAnswer', { runs: q ? 3 : 7 }],
  cliBreakdown: ['cliBreakdown', { runs: q ? 3 : 7 }],
  ingest: ['ingest', { runs: q ? 2 : 5 }],
  warm: ['warmQueries', { reps: q ? 10 : 40, trivialReps: q ? 50 : 200 }, NO_SNAPSHOT],
  fresh: ['freshIsolate', { runs: q ? 10 : 30, noSpareRuns: q ? 5 : 15, coldRuns: q ? 3 : 5 }],
  hostVsIsolate: ['hostVsIsolate', { samples: q ? 5 : 11, loops: 3 }],
  concurrency: ['concurrency', { sessions: 8, rounds: q ? 2 : 4 }],
  policy: ['policyCheck', { reps: 200 }],
  hostMemory: ['hostMemory', { runs: q ? 3 : 5 }],
  codeCache: ['codeCache', { runs: q ? 3 : 7 }, NO_SNAPSHOT],
  lazyColumns: ['lazyColumns', { runs: q ? 1 : 3 }],
  dictEncoding: ['dictEncoding', { runs: q ? 3 : 7 }],
  // issue 12: loop-style questions over .array(), the verbs on dictionary codes, DuckDB
  loop: ['loopQuestions', { reps: q ? 3 : 7 }, [], OPTIONAL],
  verbs: ['verbQuestions', { reps: q ? 5 : 20 }, NO_SNAPSHOT, OPTIONAL],
  duckdb: ['duckdbReference', { reps: q ? 3 : 7 }, [], OPTIONAL],
  // issue 25: every Series/DataFrame method against the loop it replaces and pandas
  series: ['seriesMethods', { reps: q ? 3 : 7 }, NO_SNAPSHOT, OPTIONAL],
  firstTouch: ['firstTouch', { runs: q ? 1 : 3 }, [], OPTIONAL],
  // issue 25 item 1: the code models write, four styles, warm and first run in a fresh process
  styles: ['modelStyles', { reps: q ? 2 : 5, first: true }, NO_SNAPSHOT, OPTIONAL],
  // an agent's first call through the MCP server's session store, with and without its standby sandbox
  firstCall: [
    'firstCall',
    { samples: 1, thinkMs: 1500, ...(q ? { only: ['totalAmount'] } : {}) },
    NO_SNAPSHOT,
    OPTIONAL,
  ],
  // issue 25 item 4: user tables of millions of rows (SBIRTOOLS_BENCH_SCALE_SIZES=1000000,5000000,20000000)
  scale: [
    'scale',
    { sizes: q ? '1000000' : (process.env.SBIRTOOLS_BENCH_SCALE_SIZES ?? '1000000,5000000'), reps: q ? 3 : 5 },
    NO_SNAPSHOT,
    OPTIONAL,
  ],
};
const only = values.only ? new Set(values.only.split(',')) : undefined;

// Prerequisites: the build, the file, its binary cache, pandas.
if (!existsSync(new URL(dist('src/index.js')))) {
  say('bench: building (npm run build) ...');
  execFileSync(process.execPath, [join(ROOT, 'scripts', 'build.mjs')], { stdio: 'inherit' });
}
if (!existsSync(CSV)) {
  say(`bench: generating ${CSV} (once) ...`);
  mkdirSync(dirname(CSV), { recursive: true });
  execFileSync(process.execPath, [join(ROOT, 'bench', 'generate.mjs'), ...GENERATE_ARGS, '--out', CSV], {
    stdio: 'inherit',
  });
}
const { openDataset, resolveDataSource } = await import(dist('src/data/index.js'));
const ds = await openDataset(resolveDataSource({ dataPath: CSV, cacheDir: CACHE_DIR, env: {} }));
const rows = ds.meta.numRows;
ds.close();

let python;
let pandasSkipped;
const install = spawnSync('sh', [join(ROOT, 'scripts', 'install-pandas.sh')], {
  encoding: 'utf8',
  stdio: ['ignore', 'pipe', 'pipe'],
});
if (install.status === 0) python = install.stdout.trim().split('\n').pop();
else {
  pandasSkipped = `pandas unavailable: ${install.stderr.trim().split('\n').pop() || `install-pandas.sh exited ${install.status}`}`;
  say(`bench: SKIPPING the pandas comparisons: ${pandasSkipped}`);
}
const { loadEngine } = await import(dist('src/runtime/engines/isolated-vm/loadIsolatedVm.js'));
const engine = (() => {
  try {
    const e = loadEngine();
    return `${e.name}@${e.version}`;
  } catch {
    return null;
  }
})();

// The measures, one fresh process each, in order.
const results = {
  generatedAt: new Date().toISOString(),
  machine: machineInfo(python, engine),
  pandasSkipped: pandasSkipped ?? null,
};
results.file = { ...fileInfo(CSV), name: relative(ROOT, CSV), rows, generateArgs: GENERATE_ARGS.join(' ') };
results.repetitions = Object.entries(MEASURES)
  .map(
    ([k, [, a]]) =>
      `${k} ${Object.entries(a)
        .map(([x, y]) => `${x}=${y}`)
        .join(' ')}`,
  )
  .join('; ');
const failures = [];
const skipped = [];
for (const [key, [script, args, flags, opts]] of Object.entries(MEASURES)) {
  if (only && !only.has(key)) continue;
  if (opts?.optional && !existsSync(join(MEASURES_DIR, `${script}.mjs`))) {
    skipped.push(key);
    say(`bench: ${key} skipped: bench/measures/${script}.mjs is not in this tree`);
    continue;
  }
  if (key === 'duckdb' && !canImport('@duckdb/node-api')) {
    skipped.push(key);
    say('bench: duckdb skipped: @duckdb/node-api is not installed (npm install; it is a devDependency)');
    continue;
  }
  say(`bench: ${key} ...`);
  const t = performance.now();
  try {
    // python null (not undefined): a measure must not go looking for an interpreter of its own
    results[key] = await runMeasure(script, { ...args, python: python ?? null }, { nodeFlags: flags ?? [] });
  } catch (err) {
    failures.push(key);
    results[key] = undefined;
    say(`bench: ${key} FAILED: ${err.message}`);
  }
  say(`bench: ${key} done in ${((performance.now() - t) / 1000).toFixed(0)} s`);
}
results.skipped = skipped;
const agreements = [
  results.cold?.answersAgree,
  ...Object.values(results.warm?.questions ?? {}).map((x) => x.answersAgree),
  ...Object.values(results.hostVsIsolate?.queries ?? {}).map((x) => x.answersAgree),
  ...Object.values(results.loop?.questions ?? {}).map((x) => x.answersAgree),
  ...Object.values(results.verbs?.questions ?? {}).flatMap((x) => Object.values(x.answersAgree ?? {})),
  ...Object.values(results.styles?.questions ?? {}).flatMap((x) => Object.values(x.styles).map((e) => e.agree)),
].filter((x) => x !== undefined && x !== null);
results.answersAgree = agreements.length ? agreements.every(Boolean) : null;
const duckAgree = Object.values(results.duckdb?.questions ?? {}).flatMap((x) => Object.values(x.answersAgree ?? {}));
results.duckdbAnswersAgree = duckAgree.length ? duckAgree.every(Boolean) : null;

// The report: the table, latest.json, the doc.
const section = docSection(results);
process.stdout.write(`\n${resultsTable(results)}\n`);
mkdirSync(dirname(RESULTS), { recursive: true });
writeFileSync(RESULTS, `${JSON.stringify(results, null, 2)}\n`);
say(`bench: wrote ${RESULTS}`);
if (values['no-doc'] || only || failures.length) {
  say(
    `bench: docs/benchmarks.md left unchanged (${values['no-doc'] ? '--no-doc' : only ? '--only runs a subset' : `failed: ${failures.join(', ')}`})`,
  );
} else {
  writeBetweenMarkers(DOC, section, HEADING);
  say(`bench: rewrote the results in ${DOC}`);
}
process.exitCode = failures.length ? 1 : 0;
