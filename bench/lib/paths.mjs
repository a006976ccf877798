// Where the bench finds the build, the data and the baseline. One place, so every measure agrees.
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** The build output (`npm run build`); SBIRTOOLS_DIST=<dir> points at another one. */
export const DIST = process.env.SBIRTOOLS_DIST ? resolve(process.env.SBIRTOOLS_DIST) : join(ROOT, 'dist');
/** A module of the build, as an import() specifier: `await import(dist('src/index.js'))`. */
export const dist = (path) => pathToFileURL(join(DIST, path)).href;

export const DATA_DIR = join(ROOT, 'bench', 'data');
/** The full-size file; SBIRTOOLS_BENCH_CSV=<file> measures another CSV (e.g. the real download). */
export const CSV = process.env.SBIRTOOLS_BENCH_CSV
  ? resolve(process.env.SBIRTOOLS_BENCH_CSV)
  : join(DATA_DIR, 'award_data.csv');
/** The binary cache every "cache present" measure reads (built once by run.mjs). */
export const CACHE_DIR = join(DATA_DIR, 'cache');
export const RESULTS = join(ROOT, 'bench', 'results', 'latest.json');
export const DOC = join(ROOT, 'docs', 'benchmarks.md');
export const PANDAS_WORKER = join(ROOT, 'bench', 'python', 'pandas_worker.py');
export const CLI = join(ROOT, 'bin', 'sbirtools.js');
export const MEASURES = join(ROOT, 'bench', 'measures');

/** How bench/generate.mjs makes the full-size file: the real file's row count and ~395 MB. */
export const GENERATE_ARGS = ['--rows', '219590', '--layout', 'current', '--abstract-chars', '1400'];
