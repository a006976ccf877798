import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** What shipCodeCaches() wrote, or why a cache was not written. */
export interface ShippedCaches {
  /**
   * The prelude's code cache beside the prelude (read by the holder's first isolate); its warm
   * twin (`.warm.codecache`, the warm-up's functions compiled too) is written beside it.
   */
  prelude: { file: string } | { failed: string };
  /** The holder bundle's code cache beside holderMain.cjs (the holder then starts from holderBoot.cjs). */
  holder: { file: string } | { failed: string };
}

/**
 * Write V8 code caches into a Node bundle: a cold function's temp directory is empty, so whatever it
 * does not parse comes from the bundle (docs/deploy.md "Cold start"). Made by the bundle's own copy
 * of sbirtools, in processes with the holder's flags (`--no-node-snapshot`), so V8 takes them on a
 * runtime of the same Node version; on another one V8 rejects them and the code is compiled as before.
 * @param pkgDir the bundle's `node_modules/sbirtools`.
 * @example shipCodeCaches('./fn/node_modules/sbirtools'); // { prelude: { file }, holder: { file } }
 */
export function shipCodeCaches(pkgDir: string): ShippedCaches {
  const module = (path: string) => JSON.stringify(pathToFileURL(join(pkgDir, 'dist', 'src', path)).href);
  const schema = (path: string) => JSON.stringify(pathToFileURL(join(pkgDir, 'dist', 'schema', path)).href);
  const prelude = nodeScript([
    '--input-type=module',
    '-e',
    `const { loadEngine } = await import(${module('runtime/engines/isolated-vm/loadIsolatedVm.js')});
    const p = await import(${module('runtime/engines/preludeScript.js')});
    const { IsolatedVmSession } = await import(${module('runtime/engines/isolated-vm/isolatedVmSession.js')});
    const { PRESETS } = await import(${schema('limits.js')});
    const { ivm } = loadEngine();
    const plain = p.writeShippedPreludeCodeCache(ivm);
    // the warm one: an isolate with no table runs the prelude's warm-up, then gives its bytecode
    const session = await IsolatedVmSession.open(ivm, { ...PRESETS.standard }, [], undefined);
    try {
      if (!(await session.warmUp(60000))) throw new Error('the warm-up did not run');
      p.writeShippedWarmPreludeCodeCache(session.isolate);
    } catch (err) {
      // the plain cache stands alone: a cold function compiles the warm-up's functions as it calls them
      process.stderr.write('no warm prelude code cache: ' + err.message + '\\n');
    } finally {
      session.dispose('closed');
    }
    process.stdout.write(plain);`,
  ]);
  const holderMain = join(pkgDir, 'dist', 'holder', 'holderMain.cjs');
  const boot = join(pkgDir, 'dist', 'holder', 'holderBoot.cjs');
  let holder: ShippedCaches['holder'] = { failed: 'no holderBoot.cjs in this build' };
  if (existsSync(boot)) {
    const r = nodeScript([boot], { SBIRTOOLS_WRITE_HOLDER_CODE_CACHE: '1' });
    holder =
      'failed' in r
        ? r
        : existsSync(`${holderMain}.codecache`)
          ? { file: `${holderMain}.codecache` }
          : { failed: 'no file written' };
  }
  return { prelude, holder };
}

function nodeScript(args: string[], env: Record<string, string> = {}): { file: string } | { failed: string } {
  const r = spawnSync(process.execPath, ['--no-node-snapshot', ...args], {
    encoding: 'utf8',
    timeout: 120_000,
    env: { PATH: process.env.PATH ?? '', TZ: 'UTC', LANG: 'C.UTF-8', ...env },
  });
  if (r.status === 0) return { file: r.stdout.trim() };
  const why = (r.error?.message ?? r.stderr ?? '').trim().split('\n').pop() ?? '';
  return { failed: why || `exit ${r.status}` };
}
