import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sha256 } from './hash.js';

let cached: { root: string; version: string } | undefined;

/** The installed sbirtools package: its folder and version (works from dist/ and from src/ under vitest). */
export function packageInfo(): { root: string; version: string } {
  if (cached) return cached;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 8; i++) {
    const file = join(dir, 'package.json');
    if (existsSync(file)) {
      const pkg = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'sbirtools') return (cached = { root: dir, version: pkg.version ?? '0.0.0' });
    }
    dir = dirname(dir);
  }
  throw new Error(`sbirtools: cannot find its package.json above ${fileURLToPath(import.meta.url)}`);
}

let preludeCached: string | undefined;

/**
 * Identity of the code every isolate runs before the user's: the hash of dist/prelude/bundle.js,
 * or `sbirtools@<version>` when the bundle is not built.
 */
export function preludeVersion(): string {
  if (preludeCached) return preludeCached;
  const { root, version } = packageInfo();
  const bundle = join(root, 'dist', 'prelude', 'bundle.js');
  preludeCached = existsSync(bundle) ? sha256(readFileSync(bundle, 'utf8')) : `sbirtools@${version}`;
  return preludeCached;
}
