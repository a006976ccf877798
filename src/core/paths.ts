import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The package root (the folder with sbirtools' package.json), found from this file whether it
 * runs compiled (dist/src/core/paths.js) or as TypeScript under vitest (src/core/paths.ts).
 */
export function packageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    if (isOurPackage(join(dir, 'package.json'))) return dir;
    dir = dirname(dir);
  }
  throw new Error(`sbirtools: cannot find the package root above ${fileURLToPath(import.meta.url)}`);
}

/** Compiled JavaScript of a runtime module: always under dist/, also when the caller runs from src/. */
export function compiledPath(...parts: string[]): string {
  const file = join(packageRoot(), 'dist', ...parts);
  if (!existsSync(file)) {
    throw new Error(`sbirtools: ${file} is missing. Run \`npm run build\` (it compiles src/ and bundles the prelude).`);
  }
  return file;
}

/**
 * A file of the compiled package, found beside this module when it runs as dist/src/runtime/paths.js.
 * Each caller names its file with a literal `new URL('...', import.meta.url)`: file tracers
 * (@vercel/nft in Vercel and Next.js, `sbirtools bundle`) follow that pattern and ship the file
 * with a function; a path built from packageRoot() at run time is invisible to them. Elsewhere
 * (vitest on src/, or this code bundled into the holder) it falls back to dist/ under the package root.
 */
function besideCompiled(url: URL, ...parts: string[]): string {
  if (import.meta.url.endsWith('/dist/src/core/paths.js')) {
    const file = fileURLToPath(url);
    if (existsSync(file)) return file;
  }
  return compiledPath(...parts);
}

/** The prelude bundle evaluated in every isolate. */
export function preludeBundlePath(): string {
  return besideCompiled(new URL('../../prelude/bundle.js', import.meta.url), 'prelude', 'bundle.js');
}

/** The code-check worker thread's script. */
export function codeCheckWorkerPath(): string {
  return besideCompiled(
    new URL('../runtime/prepare/codeCheckWorker.js', import.meta.url),
    'src',
    'runtime',
    'prepare',
    'codeCheckWorker.js',
  );
}

/** The chart-rendering child process's script. */
export function chartWorkerPath(): string {
  return besideCompiled(
    new URL('../result/chartWorkerMain.js', import.meta.url),
    'src',
    'result',
    'chartWorkerMain.js',
  );
}

/**
 * The holder process entry point: the loader (holderBoot.cjs, scripts/code-cache-boot.mjs) that
 * compiles the one-file CommonJS bundle with the V8 code cache beside it, written there by the first
 * holder that finds none (or shipped by `sbirtools bundle`); the bundle itself when the build made no
 * loader; the compiled module when no bundle was built. The bundle starts in about half the time of
 * ~200 separate modules, and its cache saves its compile (~30 ms of CPU) in every later holder.
 */
export function holderEntryPath(): string {
  if (import.meta.url.endsWith('/dist/src/core/paths.js')) {
    const boot = fileURLToPath(new URL('../../holder/holderBoot.cjs', import.meta.url));
    const main = fileURLToPath(new URL('../../holder/holderMain.cjs', import.meta.url));
    if (existsSync(main)) return existsSync(boot) && codeCacheLoader() ? boot : main;
  }
  const holder = join(packageRoot(), 'dist', 'holder');
  const bundle = join(holder, 'holderMain.cjs');
  if (existsSync(bundle) && existsSync(join(holder, 'holderBoot.cjs')) && codeCacheLoader())
    return join(holder, 'holderBoot.cjs');
  return existsSync(bundle) ? bundle : compiledPath('src', 'runtime', 'holder', 'holderMain.js');
}

/**
 * Whether the holder starts through its code cache loader (scripts/code-cache-boot.mjs) here: on Node,
 * not on Bun or Deno, whose node:vm and node:module emulations the loader was never tested on.
 */
function codeCacheLoader(): boolean {
  return !process.versions.bun && !process.versions.deno;
}

function isOurPackage(file: string): boolean {
  try {
    return (JSON.parse(readFileSync(file, 'utf8')) as { name?: string }).name === 'sbirtools';
  } catch {
    return false;
  }
}
