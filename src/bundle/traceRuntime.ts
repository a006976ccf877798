import { realpathSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { importOptional } from '../core/optionalPeer.js';
import { packageRoot } from '../core/paths.js';

/** One file a bundle needs: where it is now, and where it goes under the bundle's root. */
export interface TracedFile {
  from: string;
  to: string;
}

/**
 * Every file the given compiled modules of sbirtools need at run time, found the way Vercel and
 * Next.js find them (@vercel/nft: imports, `new URL('<literal>', import.meta.url)`, literal
 * requires, native addons), laid out as an npm install would: sbirtools' own files under
 * `node_modules/sbirtools/`, each dependency under `node_modules/<name>/` (nested ones kept nested).
 * @param entries paths inside the package, e.g. `dist/src/adapters/lambdaHandler.js`
 * @example await traceRuntime(['dist/src/adapters/handler.js']); // [{ from, to: 'node_modules/sbirtools/dist/...' }, ...]
 */
export async function traceRuntime(entries: string[]): Promise<TracedFile[]> {
  // a deployer's tool, not every user's: an optional peer (npm install -D @vercel/nft)
  const { nodeFileTrace } = await importOptional(
    '@vercel/nft',
    'sbirtools bundle (it traces the files a deployed function needs)',
    () => import('@vercel/nft'),
  );
  const root = realpathSync(packageRoot());
  // base '/' so hoisted dependencies above the package are found; the process files some
  // modules read by absolute path (/proc/<pid>/statm) are not part of a function. Never /tmp as
  // a whole: a package installed under it (a CI checkout, a build container) would trace empty.
  const { fileList } = await nodeFileTrace(
    entries.map((e) => join(root, e)),
    { base: '/', ignore: (path: string) => /^(proc|sys|dev)\//.test(path) },
  );
  const files: TracedFile[] = [];
  for (const file of fileList) {
    const from = `/${file}`;
    const to = bundlePath(from, root);
    if (to) files.push({ from, to });
  }
  return files.sort((a, b) => a.to.localeCompare(b.to));
}

/** Where a traced file goes in the bundle, or undefined for one outside any package. */
function bundlePath(file: string, root: string): string | undefined {
  const inRoot = relative(root, file);
  if (!inRoot.startsWith('..') && !inRoot.startsWith(`node_modules${sep}`))
    return join('node_modules', 'sbirtools', inRoot);
  const at = file.indexOf(`${sep}node_modules${sep}`);
  return at < 0 ? undefined : file.slice(at + 1);
}
