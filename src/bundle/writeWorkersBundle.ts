import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { SbirtoolsValidationError } from '../core/errors.js';
import { compiledPath } from '../core/paths.js';
import { packedFolder } from './packedFolder.js';
import type { BundleData } from './targets.js';
import { summarize, type BundleSummary } from './summarize.js';

const MB = 1024 * 1024;
/** Cloudflare Workers' size limit on a worker's code and modules, gzip-compressed (paid plan; 3 MB on the free plan). */
export const WORKERS_MAX_GZIP_BYTES = 10 * MB;
const WORKERS_FREE_GZIP_BYTES = 3 * MB;
/** The embedded data folder, packed (`.bin`: wrangler's default Data-module rule). */
const EMBEDDED = 'sbirtools-data.bin';

/**
 * The `workers` target: worker.mjs (a module worker on the QuickJS WASM engine, no `node:` import),
 * the prebuilt edge library (dist/workers/), quickjs.wasm imported as a module (Workers cannot
 * compile WASM from bytes at run time), and wrangler.toml whose `main` names worker.mjs. The data:
 * a folder URL in `[vars]` (column files fetched at run time), or a small built data file embedded as a Data module
 * (the synthetic sample by default).
 * @throws {SbirtoolsValidationError} when the embedded data would push the worker over the size limit.
 */
export async function writeWorkersBundle(out: string, data: BundleData): Promise<BundleSummary> {
  copyFileSync(compiledPath('workers', 'sbirtools-edge.mjs'), join(out, 'sbirtools-edge.mjs'));
  copyFileSync(compiledPath('workers', 'quickjs.wasm'), join(out, 'quickjs.wasm'));
  const embedded = data.kind !== 'url';
  if (embedded) {
    mkdirSync(join(out, 'data'));
    writeFileSync(join(out, 'data', EMBEDDED), await packedFolder(data));
  }
  writeFileSync(
    join(out, 'worker.mjs'),
    `// A Cloudflare Worker written by \`sbirtools bundle --target workers\`: POST / {"code": "..."} -> the RunResult as JSON.
// QuickJS WASM engine; award_data from SBIRTOOLS_DATA_URL, an R2 binding SBIRTOOLS_DATA, or the embedded data folder.
import wasmModule from './quickjs.wasm';
import { createWorker, quickjsVersion } from './sbirtools-edge.mjs';
${embedded ? `import embeddedData from './data/${EMBEDDED}';\n` : ''}
export default createWorker({ wasmModule, quickjsVersion${embedded ? ', embeddedData' : ''} });
`,
  );
  writeFileSync(
    join(out, 'wrangler.toml'),
    `# wrangler deploy (or wrangler dev) from this folder. Docs: sbirtools docs/deploy.md#cloudflare-workers
name = "sbirtools"
main = "worker.mjs"
compatibility_date = "2025-07-18"

# the embedded data folder is a Data module (an ArrayBuffer); quickjs.wasm a CompiledWasm module (wrangler's defaults)
[[rules]]
type = "Data"
globs = ["**/*.bin"]
${
  data.kind === 'url'
    ? `
[vars]
SBIRTOOLS_DATA_URL = ${JSON.stringify(data.url)}
`
    : `
# To read the full data instead: set SBIRTOOLS_DATA_URL to the https:// URL of a folder written by
# \`sbirtools build-data\` and uploaded as is, or bind an R2 bucket holding that folder:
# [[r2_buckets]]
# binding = "SBIRTOOLS_DATA"
# bucket_name = "sbirtools-data"
# [vars]
# SBIRTOOLS_DATA_PREFIX = "sbir/"
`
}`,
  );
  const summary = summarize(out, 'workers', 'worker.mjs', WORKERS_MAX_GZIP_BYTES);
  const gzipBytes = [
    'worker.mjs',
    'sbirtools-edge.mjs',
    'quickjs.wasm',
    ...(embedded ? [join('data', EMBEDDED)] : []),
  ].reduce((n, f) => n + gzipSync(readFileSync(join(out, f))).byteLength, 0);
  summary.notes.push(
    `Workers size (gzip, what Cloudflare counts): ${(gzipBytes / MB).toFixed(2)} MB of the ${WORKERS_MAX_GZIP_BYTES / MB} MB limit (${WORKERS_FREE_GZIP_BYTES / MB} MB on the free plan).`,
  );
  if (data.kind === 'synthetic')
    summary.notes.push(
      'Data: the embedded synthetic sample (not real award data). Pass --data https://<host>/<built folder>/ for the real dataset (columns up to 24 MB each; long text is refused on the edge).',
    );
  if (gzipBytes > WORKERS_MAX_GZIP_BYTES) {
    throw new SbirtoolsValidationError(
      `The workers bundle is ${(gzipBytes / MB).toFixed(1)} MB gzipped, over Cloudflare's ${WORKERS_MAX_GZIP_BYTES / MB} MB limit: the data folder is too large to embed. ` +
        'Upload the folder to R2 or any static host and pass --data https://<host>/<folder>/.',
    );
  }
  // the summary counts bytes as deployed; the limit above is on the gzip size
  summary.maxBytes = Number.POSITIVE_INFINITY;
  return summary;
}
