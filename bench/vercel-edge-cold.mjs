// Vercel Edge cold start (issue 24), in Vercel's Edge Runtime simulator (`edge-runtime`, loaded as
// `vercel dev` loads an Edge Function: test/e2e/helpers/vercelEdgeRuntime.mjs). Writes
// `sbirtools bundle --target vercel-edge` twice (the embedded synthetic sample; a folder URL) and
// prints their gzip sizes (what Vercel's limit counts), then per fresh process:
//   load   the function bundled (esbuild: Vercel does this at deploy time), quickjs.wasm compiled,
//          the runtime created and the module evaluated
//   first  the first request (a group-by, reading all columns or one) -> its answer, on that fresh
//          runtime: data opened, QuickJS instantiated, columns inflated, the run
//   warm   the same request again
//   node bench/vercel-edge-cold.mjs [--repeat 7]
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { CLI, ROOT } from './lib/paths.mjs';
import { summarize } from './lib/stats.mjs';

// objects() names no column, so every column is fetched and inflated; array('count') names one
const QUESTIONS = {
  'all columns': "award_data.groupby('Agency').count().orderby('Agency').objects()",
  'one column': "award_data.groupby('Agency').count().orderby('Agency').array('count')",
};
const FUNC = join('.vercel', 'output', 'functions', 'api', 'run.func');

const { values } = parseArgs({
  options: { repeat: { type: 'string', default: '7' }, child: { type: 'string' }, question: { type: 'string' } },
});

if (values.child) {
  // one fresh runtime: print its three times as JSON
  const { loadVercelEdgeFunction } = await import(join(ROOT, 'test', 'e2e', 'helpers', 'vercelEdgeRuntime.mjs'));
  const ask = async (fn) => {
    const t = performance.now();
    const res = await fn.dispatchFetch('https://sbirtools.vercel.app/api/run', {
      method: 'POST',
      body: JSON.stringify({ code: QUESTIONS[values.question] }),
    });
    const body = await res.json();
    if (!body.ok) throw new Error(`the run failed: ${JSON.stringify(body.error)}`);
    return performance.now() - t;
  };
  const t0 = performance.now();
  const fn = await loadVercelEdgeFunction(values.child);
  const loadMs = performance.now() - t0;
  const firstMs = await ask(fn);
  const warmMs = await ask(fn);
  console.log(JSON.stringify({ loadMs, firstMs, warmMs }));
  process.exit(0);
}

const work = mkdtempSync(join(tmpdir(), 'sbirtools-vercel-edge-bench-'));
try {
  const gzipMb = (dir) =>
    readdirSync(join(dir, FUNC))
      .filter((f) => !f.startsWith('.'))
      .reduce((n, f) => n + gzipSync(readFileSync(join(dir, FUNC, f))).byteLength, 0) / 1048576;
  const embedded = join(work, 'embedded');
  const byUrl = join(work, 'url');
  execFileSync(process.execPath, [CLI, 'bundle', embedded, '--target', 'vercel-edge'], { stdio: 'ignore' });
  execFileSync(
    process.execPath,
    [CLI, 'bundle', byUrl, '--target', 'vercel-edge', '--data', 'https://data.example/sbir/'],
    { stdio: 'ignore' },
  );
  console.log(
    `gzip size: embedded synthetic sample ${gzipMb(embedded).toFixed(2)} MB; data by URL ${gzipMb(byUrl).toFixed(2)} MB`,
  );
  for (const question of Object.keys(QUESTIONS)) {
    const runs = [];
    for (let i = 0; i < Number(values.repeat); i++) {
      const out = execFileSync(
        process.execPath,
        [new URL(import.meta.url).pathname, '--child', join(embedded, FUNC), '--question', question],
        { encoding: 'utf8' },
      );
      runs.push(JSON.parse(out.trim().split('\n').pop()));
    }
    const row = (name, key) => {
      const s = summarize(runs.map((r) => r[key]));
      return `| ${name} | ${Math.round(s.p50)} | ${Math.round(s.min)} | ${Math.round(s.max)} |`;
    };
    console.log(`\n${question}: ${QUESTIONS[question]}, ${runs.length} fresh runtimes (ms)`);
    console.log('| phase | p50 | min | max |\n|---|--:|--:|--:|');
    console.log(row('load (bundle, WASM compile, evaluate)', 'loadMs'));
    console.log(row('first answer', 'firstMs'));
    console.log(row('warm answer', 'warmMs'));
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
