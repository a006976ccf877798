import { cpSync, existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve, sep } from 'node:path';
import { SbirtoolsValidationError } from '../core/errors.js';
import { packageRoot } from '../core/paths.js';
import { traceRuntime } from './traceRuntime.js';
import { nodeTargetLayout, BUNDLE_TARGETS, type BundleData, type BundleTarget } from './targets.js';
import { writeWorkersBundle } from './writeWorkersBundle.js';
import { writeVercelEdgeBundle } from './writeVercelEdgeBundle.js';
import { summarize, type BundleSummary } from './summarize.js';
import { shipCodeCaches } from './shipCodeCaches.js';

export type { BundleSummary } from './summarize.js';

/** Options of writeBundle(). */
export interface BundleOptions {
  target: BundleTarget;
  /** A built data folder (`sbirtools build-data`) to copy in, or an https:// URL of one. @default the synthetic sample */
  data?: string;
  /** Replace the contents of a non-empty `outDir`. @default false */
  force?: boolean;
}

/**
 * Write a self-contained deployable folder for `target` into `outDir`: the entry file in the
 * platform's convention, sbirtools' run-time files (holder script, prelude, engine) and their
 * dependencies as traced by @vercel/nft, and the data folder or its URL.
 * @throws {SbirtoolsValidationError} for an unknown target, a missing data folder, a non-empty
 *   `outDir` without `force`, or a bundle over the platform's size limit (nothing is left behind).
 * @example await writeBundle('./fn', { target: 'lambda', data: './data' });
 */
export async function writeBundle(outDir: string, options: BundleOptions): Promise<BundleSummary> {
  if (!(BUNDLE_TARGETS as readonly string[]).includes(options.target)) {
    throw new SbirtoolsValidationError(
      `Unknown bundle target '${String(options.target)}'; expected one of ${BUNDLE_TARGETS.join(', ')}.`,
    );
  }
  const out = resolve(outDir);
  prepareOutDir(out, options.force === true);
  const data = dataSource(options.data);
  try {
    if (options.target === 'workers') return await writeWorkersBundle(out, data);
    if (options.target === 'vercel-edge') return await writeVercelEdgeBundle(out, data);
    const nodeMajor = Number(process.versions.node.split('.')[0]);
    const layout = nodeTargetLayout(options.target, data, nodeMajor);
    const fnDir = join(out, layout.functionDir);
    const traced = await traceRuntime(layout.modules);
    for (const { from, to } of traced) {
      mkdirSync(dirname(join(fnDir, to)), { recursive: true });
      cpSync(from, join(fnDir, to), { dereference: true });
    }
    writeFileSync(join(fnDir, layout.entry.name), layout.entry.source);
    for (const { path, text } of layout.extra) {
      mkdirSync(dirname(join(out, path)), { recursive: true });
      writeFileSync(join(out, path), text);
    }
    if (data.kind === 'folder') cpSync(data.dir, join(fnDir, 'data'), { recursive: true, dereference: true });
    // a cold function's temp directory is empty: the holder's and the prelude's compiled code come with the bundle
    const caches = shipCodeCaches(join(fnDir, 'node_modules', 'sbirtools'));
    const summary = summarize(out, options.target, join(layout.functionDir, layout.entry.name), layout.maxBytes, fnDir);
    if (process.platform !== 'linux' || process.arch !== 'x64') {
      summary.notes.push(
        `The native addon was built for ${process.platform}-${process.arch}; on a linux-x64 platform it will not load and 'auto' runs the QuickJS WASM engine. Bundle on linux-x64 (e.g. in a node:${nodeMajor} container) for isolated-vm.`,
      );
    }
    summary.notes.push(
      `Engine: the isolated-vm addon in this install, built for Node ${nodeMajor} (${process.platform}-${process.arch}); deploy on a Node ${nodeMajor} runtime, or 'auto' falls back to the QuickJS WASM engine (also bundled).`,
    );
    for (const [what, cache] of Object.entries(caches))
      if ('failed' in cache)
        summary.notes.push(`No ${what} code cache in the bundle (${cache.failed}): a cold start compiles the ${what}.`);
    if (data.kind === 'synthetic')
      summary.notes.push(
        'Data: the embedded synthetic sample (not real award data). Pass --data <built folder|https URL> for the real dataset.',
      );
    if (summary.totalBytes > summary.maxBytes) {
      throw new SbirtoolsValidationError(
        `The ${options.target} bundle is ${mb(summary.totalBytes)} MB, over the platform's ${mb(summary.maxBytes)} MB limit on an unzipped function. ` +
          'Serve the data from a URL instead of copying it in (--data https://...), or build it smaller.',
      );
    }
    return summary;
  } catch (err) {
    rmSync(out, { recursive: true, force: true });
    throw err;
  }
}

/** Refuse a non-empty folder unless forced, and never empty one that holds the current directory or this package. */
function prepareOutDir(out: string, force: boolean): void {
  if (existsSync(out)) {
    if (!statSync(out).isDirectory())
      throw new SbirtoolsValidationError(`${out} exists and is not a folder; pick a new output folder.`);
    if (readdirSync(out).length > 0) {
      if (!force)
        throw new SbirtoolsValidationError(
          `${out} is not empty; pick a new output folder, or pass --force to replace its contents.`,
        );
      for (const inside of [process.cwd(), packageRoot()]) {
        if (inside === out || inside.startsWith(`${out}${sep}`)) {
          throw new SbirtoolsValidationError(
            `Refusing to replace ${out}: it holds ${inside}. Pick a new output folder.`,
          );
        }
      }
      rmSync(out, { recursive: true, force: true });
    }
  }
  mkdirSync(out, { recursive: true });
}

function dataSource(data: string | undefined): BundleData {
  if (data === undefined) return { kind: 'synthetic' };
  if (/^https?:\/\//i.test(data)) return { kind: 'url', url: data };
  const dir = resolve(data);
  if (!existsSync(dir) || !statSync(dir).isDirectory()) {
    throw new SbirtoolsValidationError(
      `--data ${data}: not a folder. Pass a folder written by \`sbirtools build-data <dir>\`, or an https:// URL of one.`,
    );
  }
  return { kind: 'folder', dir };
}

const mb = (bytes: number) => (bytes / 1048576).toFixed(1);
