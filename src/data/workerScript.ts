import { existsSync } from 'node:fs';
import { dirname, join, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/**
 * A compiled worker script of the package, for `new Worker(...)`: beside the calling module when
 * that is the compiled one (`dist/src/<dir>/<module>.js`), else under the package's dist/ — from
 * src/ under vitest, or from a one-file bundle such as the holder's (dist/holder/holderMain.cjs),
 * where `import.meta.url` names the bundle, not the module.
 *
 * The caller names the worker with a literal `new URL('./<worker>.js', import.meta.url)`: file
 * tracers (@vercel/nft in Vercel and Next.js, `sbirtools bundle`) follow that pattern and ship the
 * worker with a function; a path built here at run time is invisible to them.
 *
 * @param callerUrl the caller's `import.meta.url`.
 * @param module the caller's compiled file name (`syncFetch.js`).
 * @param beside `new URL('./fetchWorker.js', import.meta.url)`, written out in the caller.
 * @param script the worker's path under dist/ (`src/data/remote/fetchWorker.js`).
 */
export function workerScript(callerUrl: string, module: string, beside: URL, script: string): URL {
  const here = fileURLToPath(callerUrl);
  const parts = script.split('/');
  if (here.endsWith(`${sep}${module}`)) return beside;
  for (let dir = dirname(here); ; dir = dirname(dir)) {
    const compiled = join(dir, 'dist', ...parts);
    if (existsSync(compiled)) return pathToFileURL(compiled);
    if (dirname(dir) === dir) break;
  }
  throw new Error(`sbirtools: dist/${script} is missing above ${here}. Run \`npm run build\`.`);
}
