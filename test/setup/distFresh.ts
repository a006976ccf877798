// vitest globalSetup: refuse to test a stale dist/. The holder process, the CLI and the prelude
// bundle run from dist/, so after a source change `npx vitest run <file>` would silently test the
// old build. scripts/build.mjs writes dist/.build-stamp last; any source newer than it stops the run.
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const ROOT = join(import.meta.dirname, '..', '..');
const SOURCES = ['src', 'schema', 'prelude', 'scripts'];

function newest(dir: string, best: { file: string; ms: number }): { file: string; ms: number } {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) best = newest(path, best);
    else if (/\.(ts|mts|mjs|js|cjs)$/.test(entry.name)) {
      const ms = statSync(path).mtimeMs;
      if (ms > best.ms) best = { file: path, ms };
    }
  }
  return best;
}

/** Throws one line when dist/ is missing or older than a source file (skipped with SBIRTOOLS_SKIP_DIST_CHECK=1). */
export default function checkDistFresh(): void {
  if (process.env.SBIRTOOLS_SKIP_DIST_CHECK === '1') return;
  let built: number;
  try {
    built = statSync(join(ROOT, 'dist', '.build-stamp')).mtimeMs;
  } catch {
    throw new Error('dist/ is missing or was built before the build stamp existed: run npm run build');
  }
  const latest = SOURCES.reduce((best, dir) => newest(join(ROOT, dir), best), { file: '', ms: 0 });
  if (latest.ms > built) throw new Error(`dist/ is older than ${relative(ROOT, latest.file)}: run npm run build`);
}
