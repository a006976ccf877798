import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { SbirtoolsValidationError } from '../core/errors.js';
import { compiledPath } from '../core/paths.js';
import { packedFolder } from './packedFolder.js';
import type { BundleData } from './targets.js';
import { summarize, type BundleSummary } from './summarize.js';

const MB = 1024 * 1024;
/**
 * Vercel's limit on an Edge Function's code, gzip-compressed, per plan (vercel.com/docs/functions/limitations:
 * Hobby 1 MB, Pro 2 MB, Enterprise 4 MB). A bundle over the largest is refused; the summary names the plans it fits.
 */
const VERCEL_EDGE_GZIP_LIMITS = [
  { plan: 'Hobby', bytes: 1 * MB },
  { plan: 'Pro', bytes: 2 * MB },
  { plan: 'Enterprise', bytes: 4 * MB },
] as const;
/** The function's folder under .vercel/output/functions: it answers /api/run, as the `vercel` target's does. */
const FUNCTION_DIR = '.vercel/output/functions/api/run.func';
/** The environment variables the function reads: listed in .vc-config.json and read by name in index.js. */
const ENV_VARS = ['SBIRTOOLS_DATA_URL', 'SBIRTOOLS_PRESET'] as const;

/**
 * The `vercel-edge` target: Vercel's Build Output API for an Edge Function (`runtime: "edge"`):
 * index.js (a default export taking a Web Request, on the QuickJS WASM engine, no `node:` import),
 * the same prebuilt edge library as the `workers` target, quickjs.wasm imported with Vercel's
 * `?module` suffix (Edge compiles no WASM from bytes), and config.json routing `/`, `/v1/run` and
 * `/api/run` to it. The data: a folder URL (SBIRTOOLS_DATA_URL, baked in as the default), or a
 * small built data folder embedded as a base64 module (the synthetic sample by default).
 * @throws {SbirtoolsValidationError} when the function would be over Vercel's largest Edge size limit.
 */
export async function writeVercelEdgeBundle(out: string, data: BundleData): Promise<BundleSummary> {
  const fn = join(out, FUNCTION_DIR);
  mkdirSync(fn, { recursive: true });
  copyFileSync(compiledPath('workers', 'sbirtools-edge.mjs'), join(fn, 'sbirtools-edge.mjs'));
  copyFileSync(compiledPath('workers', 'quickjs.wasm'), join(fn, 'quickjs.wasm'));
  const embedded = data.kind !== 'url';
  if (embedded) {
    const packed = await packedFolder(data);
    writeFileSync(
      join(fn, 'sbirtools-data.js'),
      `// The embedded data folder, packed (sbirtools bundle --target vercel-edge): base64, as an Edge Function imports no binary module but WASM.\nexport default ${JSON.stringify(Buffer.from(packed).toString('base64'))};\n`,
    );
  }
  const urlDefault = data.kind === 'url' ? ` || ${JSON.stringify(data.url)}` : '';
  writeFileSync(
    join(fn, 'index.js'),
    `// A Vercel Edge Function written by \`sbirtools bundle --target vercel-edge\` (Build Output API; deploy: vercel deploy --prebuilt).
// POST /api/run (or / or /v1/run) {"code": "..."} -> the RunResult as JSON, on the QuickJS WASM engine.
// award_data from SBIRTOOLS_DATA_URL${embedded ? ', else the embedded data folder' : ''}.
import wasmModule from './quickjs.wasm?module';
import { quickjsVersion, vercelEdgeHandler } from './sbirtools-edge.mjs';
${embedded ? `import embeddedData from './sbirtools-data.js';\n` : ''}
export default vercelEdgeHandler({
  wasmModule,
  quickjsVersion,${embedded ? '\n  embeddedData,' : ''}
  // each variable named literally: Vercel hands an Edge Function the variables its code reads this way
  env: () => ({
    SBIRTOOLS_DATA_URL: (typeof process === 'undefined' ? undefined : process.env.SBIRTOOLS_DATA_URL)${urlDefault},
    SBIRTOOLS_PRESET: typeof process === 'undefined' ? undefined : process.env.SBIRTOOLS_PRESET,
  }),
});
`,
  );
  writeFileSync(
    join(fn, '.vc-config.json'),
    `${JSON.stringify({ runtime: 'edge', entrypoint: 'index.js', envVarsInUse: [...ENV_VARS] }, null, 2)}\n`,
  );
  writeFileSync(
    join(out, '.vercel/output/config.json'),
    `${JSON.stringify({ version: 3, routes: [{ src: '^/(v1/run)?$', dest: '/api/run' }] }, null, 2)}\n`,
  );

  const summary = summarize(out, 'vercel-edge', `${FUNCTION_DIR}/index.js`, Number.POSITIVE_INFINITY, fn);
  const files = ['index.js', 'sbirtools-edge.mjs', 'quickjs.wasm', ...(embedded ? ['sbirtools-data.js'] : [])];
  const gzipBytes = files.reduce((n, f) => n + gzipSync(readFileSync(join(fn, f))).byteLength, 0);
  const fits = VERCEL_EDGE_GZIP_LIMITS.filter((l) => gzipBytes <= l.bytes).map((l) => l.plan);
  const largest = VERCEL_EDGE_GZIP_LIMITS[VERCEL_EDGE_GZIP_LIMITS.length - 1];
  summary.notes.push(
    `Vercel Edge size (gzip, what Vercel counts): ${(gzipBytes / MB).toFixed(2)} MB; the limit is ${VERCEL_EDGE_GZIP_LIMITS.map((l) => `${l.bytes / MB} MB on ${l.plan}`).join(', ')}` +
      (fits.length ? `: fits ${fits.join(', ')}.` : '.') +
      (embedded && !fits.includes('Hobby')
        ? ' For Hobby, leave the data out: --data https://<host>/<built folder>/.'
        : ''),
  );
  summary.notes.push('Deploy: cd into this folder, then `vercel deploy --prebuilt` (it uploads .vercel/output as is).');
  if (data.kind === 'synthetic')
    summary.notes.push(
      'Data: the embedded synthetic sample (not real award data). Pass --data https://<host>/<built folder>/ (or set SBIRTOOLS_DATA_URL) for the real dataset (columns up to 24 MB each; long text is refused on the edge).',
    );
  if (gzipBytes > largest.bytes) {
    throw new SbirtoolsValidationError(
      `The vercel-edge function is ${(gzipBytes / MB).toFixed(1)} MB gzipped, over Vercel's ${largest.bytes / MB} MB Edge Function limit (${largest.plan}): the data folder is too large to embed. ` +
        'Upload the folder to any static host (Vercel Blob, S3, R2) and pass --data https://<host>/<folder>/.',
    );
  }
  return summary;
}
