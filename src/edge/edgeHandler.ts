import { PRESET_NAMES, type PresetName } from '../../schema/limits.js';
import { HandlerRequestSchema } from '../../schema/tool.js';
import { parseRunBody } from '../adapters/parseRunBody.js';
import { readBody } from '../adapters/readBody.js';
import { quickJsFromModule, type QuickJsEngine } from '../runtime/engines/quickjs/quickjsInstance.js';
import { bucketFolder, embeddedFolder, urlFolder, type BucketLike, type FolderSource } from './folderSource.js';
import { EdgeDataset } from './edgeDataset.js';
import { edgeLimits, edgeRun } from './edgeRun.js';

/** The bindings and variables a deployed worker reads (wrangler.toml `[vars]`, an R2 binding). */
export interface WorkerEnv {
  /** https:// URL of a data folder written by `sbirtools build-data` and uploaded as is; http:// only for loopback hosts. */
  SBIRTOOLS_DATA_URL?: string;
  /** An R2 bucket binding holding that folder (instead of a URL). */
  SBIRTOOLS_DATA?: BucketLike;
  /** The folder's key prefix in that bucket. @default '' (the bucket's root) */
  SBIRTOOLS_DATA_PREFIX?: string;
  /** Limits preset. @default 'standard' */
  SBIRTOOLS_PRESET?: string;
}

/** What `sbirtools bundle --target workers` hands to createWorker(). */
export interface WorkerOptions {
  /** QuickJS compiled by the platform: the .wasm file imported as a module. */
  wasmModule: unknown;
  quickjsVersion: string;
  /** The embedded data folder (packFolder(); the synthetic sample), used when no URL or bucket is configured. */
  embeddedData?: ArrayBuffer;
}

const MB = 1048576;
/** Of a Workers isolate's 128 MB: the QuickJS instance's own memory, and the largest column held for it. */
const EDGE_MEMORY_MB = 48;
const EDGE_MAX_COLUMN_BYTES = 24 * MB;
/** All columns held at once (cached between requests while they fit). */
const EDGE_MAX_HELD_BYTES = 48 * MB;

/**
 * A Cloudflare Workers module (`export default createWorker(...)`): `POST /` (or /v1/run)
 * `{"code": "..."}` -> the RunResult as JSON, on the QuickJS WASM engine, no `node:` import.
 * award_data comes from `SBIRTOOLS_DATA_URL` (a data folder; each column file fetched when a run
 * names it), an R2 binding `SBIRTOOLS_DATA`, or the embedded sample; a column over 24 MB (long text on the full data), or past 48 MB of columns held
 * at once, is refused with its name and the limit (with QuickJS's 48 MB, within Workers' 128 MB). Every request is a one-shot run on a fresh QuickJS instance.
 * @example export default createWorker({ wasmModule, quickjsVersion: '0.32.0' });
 */
export function createWorker(options: WorkerOptions): { fetch(request: Request, env?: WorkerEnv): Promise<Response> } {
  const engine: QuickJsEngine = quickJsFromModule(options.wasmModule, options.quickjsVersion);
  let dataset: Promise<EdgeDataset> | undefined;
  const open = (env: WorkerEnv) => {
    dataset ??= EdgeDataset.open(sourceFor(env, options.embeddedData), EDGE_MAX_COLUMN_BYTES, EDGE_MAX_HELD_BYTES);
    dataset.catch(() => (dataset = undefined));
    return dataset;
  };
  return {
    async fetch(request, env = {}) {
      const path = new URL(request.url).pathname;
      if (request.method === 'GET' && path === '/healthz') return Response.json({ ok: true });
      if (path !== '/' && path !== '/v1/run')
        return fail(404, 'NOT_FOUND', `No route ${path}: POST {"code": "..."} to / or /v1/run.`);
      if (request.method !== 'POST')
        return fail(
          405,
          'METHOD_NOT_ALLOWED',
          `Use POST with a JSON body {"code": "<JavaScript>"}; got ${request.method}.`,
        );
      const preset = (PRESET_NAMES as readonly string[]).includes(env.SBIRTOOLS_PRESET ?? '')
        ? (env.SBIRTOOLS_PRESET as PresetName)
        : 'standard';
      const limits = edgeLimits(preset, EDGE_MEMORY_MB);
      const text = await readBody(request, 2 * limits.maxCodeBytes + 4096);
      if (text === undefined)
        return fail(
          413,
          'REQUEST_TOO_LARGE',
          'The request body is too large. Send shorter code: award_data is already loaded.',
        );
      const parsed = parseRunBody(text, HandlerRequestSchema);
      if (!parsed.ok) return fail(400, 'VALIDATION_ERROR', parsed.message);
      let data: EdgeDataset;
      try {
        data = await open(env);
      } catch (err) {
        return fail(502, 'DATA_FETCH_FAILED', (err as Error).message);
      }
      try {
        return Response.json(await edgeRun(parsed.data.code, engine, data, preset, limits), {
          headers: { 'cache-control': 'no-store' },
        });
      } catch (err) {
        const e = err as Error & { code?: string };
        if (e.code === 'DATA_FETCH_FAILED') return fail(502, e.code, e.message);
        console.error('sbirtools worker:', err);
        return fail(
          500,
          'INTERNAL_ERROR',
          'The worker failed to run the code. Retry; if it keeps failing, check the worker logs (wrangler tail).',
        );
      }
    },
  };
}

function sourceFor(env: WorkerEnv, embedded: ArrayBuffer | undefined): FolderSource {
  if (env.SBIRTOOLS_DATA) return bucketFolder(env.SBIRTOOLS_DATA, env.SBIRTOOLS_DATA_PREFIX ?? '');
  if (env.SBIRTOOLS_DATA_URL) return urlFolder(env.SBIRTOOLS_DATA_URL);
  if (embedded) return embeddedFolder(embedded, 'the embedded data folder ');
  throw new Error(
    'No data: set SBIRTOOLS_DATA_URL (wrangler.toml [vars]) to the URL of a folder written by `sbirtools build-data`, or bind an R2 bucket holding it as SBIRTOOLS_DATA.',
  );
}

function fail(status: number, type: string, message: string): Response {
  return Response.json({ error: { type, message } }, { status, headers: { 'cache-control': 'no-store' } });
}
