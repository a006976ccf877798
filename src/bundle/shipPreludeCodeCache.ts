import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * Write the prelude's V8 code cache into a Node bundle, beside its prelude (the holder reads it
 * there when its cache folder is empty, as on every cold function: docs/deploy.md). Made by the
 * bundle's own copy of sbirtools in a process with the holder's flags (`--no-node-snapshot`), so
 * V8 takes it on a runtime of the same Node version; on another one V8 rejects it and the prelude
 * is compiled as before.
 * @param pkgDir the bundle's `node_modules/sbirtools`.
 * @returns the file written, or why none was (no isolated-vm build loads here).
 * @example shipPreludeCodeCache('./fn/node_modules/sbirtools'); // { file: '.../dist/prelude/prelude-....codecache' }
 */
export function shipPreludeCodeCache(pkgDir: string): { file: string } | { failed: string } {
  const module = (path: string) => JSON.stringify(pathToFileURL(join(pkgDir, 'dist', 'src', path)).href);
  const script = `
    const { loadEngine } = await import(${module('runtime/engines/isolated-vm/loadIsolatedVm.js')});
    const { writeShippedPreludeCodeCache } = await import(${module('runtime/engines/preludeScript.js')});
    process.stdout.write(writeShippedPreludeCodeCache(loadEngine().ivm));`;
  const r = spawnSync(process.execPath, ['--no-node-snapshot', '--input-type=module', '-e', script], {
    encoding: 'utf8',
    timeout: 120_000,
    env: { PATH: process.env.PATH ?? '', TZ: 'UTC', LANG: 'C.UTF-8' },
  });
  if (r.status === 0 && r.stdout) return { file: r.stdout.trim() };
  const why = (r.error?.message ?? r.stderr ?? '').trim().split('\n').pop() ?? '';
  return { failed: why || `exit ${r.status}` };
}
