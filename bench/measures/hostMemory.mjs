// Host memory with the full table loaded, and the binary cache read: in a fresh process,
// openDataset() on the existing cache, then loadColumn() for 2 columns or for all of them;
// RSS (VmRSS after loading, VmHWM peak) of that process. pandas' figure for the same file is its
// RSS after read_csv (coldAnswer.mjs). Module loading is excluded from the times.
//   BENCH_ARGS='{"runs":5}' node bench/measures/hostMemory.mjs
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { CACHE_DIR, CSV, dist } from '../lib/paths.mjs';
import { memOf } from '../lib/procMem.mjs';
import { emit, log, measureArgs } from '../lib/measureChild.mjs';
import { summarize } from '../lib/stats.mjs';

if (process.argv[2] === '--probe') {
  const which = process.argv[3];
  const { openDataset, resolveDataSource } = await import(dist('src/data/index.js'));
  const before = memOf(process.pid);
  const t = performance.now();
  const ds = await openDataset(resolveDataSource({ dataPath: CSV, cacheDir: CACHE_DIR, env: {} }));
  const openMs = performance.now() - t;
  const names = which === 'all' ? ds.meta.columns.map((c) => c.name) : ['Award Amount', 'Agency'];
  let bytes = 0;
  for (const name of names) {
    const c = ds.loadColumn(name);
    for (const v of Object.values(c)) if (ArrayBuffer.isView(v)) bytes += v.byteLength;
  }
  const ms = performance.now() - t;
  const after = memOf(process.pid);
  process.stdout.write(
    `${JSON.stringify({ openMs, ms, columns: names.length, columnMb: bytes / 1e6, baseRssMb: before.rssMb, rssMb: after.rssMb, hwmMb: after.hwmMb })}\n`,
  );
  process.exit(0);
}

const { runs = 5 } = measureArgs();
const self = fileURLToPath(import.meta.url);
const out = { two: [], all: [] };
for (let i = 0; i < runs; i++) {
  for (const which of Object.keys(out)) {
    const p = spawnSync(process.execPath, [self, '--probe', which], { encoding: 'utf8' });
    if (p.status !== 0) throw new Error(`probe ${which} failed: ${p.stderr.slice(-1500)}`);
    out[which].push(JSON.parse(p.stdout.trim().split('\n').pop()));
  }
}
const sum = (rows) =>
  Object.fromEntries(
    ['openMs', 'ms', 'columnMb', 'baseRssMb', 'rssMb', 'hwmMb'].map((k) => [k, summarize(rows.map((r) => r[k]))]),
  );
const result = {
  twoColumns: { columns: out.two[0].columns, ...sum(out.two) },
  allColumns: { columns: out.all[0].columns, ...sum(out.all) },
};
log(
  `host memory: all ${result.allColumns.columns} columns RSS ${result.allColumns.rssMb.p50.toFixed(0)} MB in ${result.allColumns.ms.p50.toFixed(0)} ms; 2 columns ${result.twoColumns.rssMb.p50.toFixed(0)} MB in ${result.twoColumns.ms.p50.toFixed(1)} ms`,
);
emit(result);
