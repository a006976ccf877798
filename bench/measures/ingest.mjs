// 2b, first ingest, each run in a fresh process with a fresh cache directory:
//   - openDataset(): ingest + write the binary cache + reopen it (what a first `sbirtools run` pays);
//   - ingestCsv() alone (parse and type the columns, no cache write).
// Module loading is excluded, as pandas' import is excluded from its read_csv time.
//   BENCH_ARGS='{"runs":5}' node bench/measures/ingest.mjs
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CSV, dist } from '../lib/paths.mjs';
import { memOf } from '../lib/procMem.mjs';
import { emit, log, measureArgs } from '../lib/measureChild.mjs';
import { summarize } from '../lib/stats.mjs';

if (process.argv[2] === '--probe') {
  const kind = process.argv[3];
  const { ingestCsv, openDataset, resolveDataSource } = await import(dist('src/data/index.js'));
  const cacheDir = mkdtempSync(join(tmpdir(), 'sbt-bench-ingest-'));
  try {
    const t = performance.now();
    if (kind === 'openDataset') {
      const ds = await openDataset(resolveDataSource({ dataPath: CSV, cacheDir, env: {} }));
      ds.close();
    } else {
      await ingestCsv(CSV);
    }
    const ms = performance.now() - t;
    process.stdout.write(`${JSON.stringify({ ms, ...memOf(process.pid) })}\n`);
  } finally {
    rmSync(cacheDir, { recursive: true, force: true });
  }
  process.exit(0);
}

const { runs = 5 } = measureArgs();
const self = fileURLToPath(import.meta.url);
const out = { openDataset: [], ingestCsv: [] };
for (let i = 0; i < runs; i++) {
  for (const kind of Object.keys(out)) {
    const p = spawnSync(process.execPath, [self, '--probe', kind], { encoding: 'utf8' });
    if (p.status !== 0) throw new Error(`${kind} probe failed: ${p.stderr.slice(-1500)}`);
    out[kind].push(JSON.parse(p.stdout.trim().split('\n').pop()));
  }
  log(
    `ingest ${i + 1}/${runs}: openDataset ${out.openDataset.at(-1).ms.toFixed(0)} ms, ingestCsv ${out.ingestCsv.at(-1).ms.toFixed(0)} ms`,
  );
}
emit(
  Object.fromEntries(
    Object.entries(out).map(([k, v]) => [
      k,
      { ms: summarize(v.map((x) => x.ms)), peakRssMb: summarize(v.map((x) => x.hwmMb)) },
    ]),
  ),
);
