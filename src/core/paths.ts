import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, sep } from 'node:path';
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

/** The prelude bundle evaluated in every isolate. */
export function preludeBundlePath(): string {
  return compiledPath('prelude', 'bundle.js');
}

/**
 * The holder process entry point: the one-file bundle (scripts/build-holder.mjs; it starts in
 * about half the time of ~200 separate modules), or the compiled module when no bundle was built.
 */
export function holderEntryPath(): string {
  const bundle = join(packageRoot(), 'dist', 'holder', 'holderMain.mjs');
  return existsSync(bundle) ? bundle : compiledPath('src', 'runtime', 'holder', 'holderMain.js');
}

export const isCompiled = fileURLToPath(import.meta.url).includes(`${sep}dist${sep}`);

function isOurPackage(file: string): boolean {
  try {
    return (JSON.parse(readFileSync(file, 'utf8')) as { name?: string }).name === 'sbirtools';
  } catch {
    return false;
  }
}
