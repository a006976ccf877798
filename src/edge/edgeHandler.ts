import { PRESET_NAMES, type PresetName } from '../../schema/limits.js';
import { HandlerRequestSchema } from '../../schema/tool.js';
import { parseRunBody } from '../adapters/parseRunBody.js';
import { readBody } from '../adapters/readBody.js';
import { quickJsFromModule, type QuickJsEngine } from '../runtime/engines/quickjs/quickjsInstance.js';
import { bucketFolder, embeddedFolder, urlFolder, type BucketLike, type FolderSource } from './folderSource.js';
import { EdgeDataset } from './edgeDataset.js';
import { edgeLimits, edgeRun } from './edgeRun.js';

/** The settings a deployed edge function reads: Workers' `[vars]` and bindings, Vercel's environment variables. */
export interface EdgeEnv {
  /** https:// URL of a data folder written by `sbirtools build-data` and uploaded as is; http:// only for loopback hosts. */
  SBIRTOOLS_DATA_URL?: string;
  /** An R2 bucket binding holding that folder (instead of a URL; Cloudflare Workers only). */
  SBIRTOOLS_DATA?: BucketLike;
  /** The folder's key prefix in that bucket. @default '' (the bucket's root) */
  SBIRTOOLS_DATA_PREFIX?: string;
  /** Limits preset. @default 'standard' */
  SBIRTOOLS_PRESET?: string;
}

/** What a bundle's entry hands to the edge core (through createWorker() or vercelEdgeHandler()). */
export interface EdgeOptions {
  /** QuickJS compiled by the platform: the .wasm file imported as a module (the edge compiles no WASM from bytes). */
  wasmModule: unknown;
  quickjsVersion: string;
  /** The embedded data folder (packFolder(); the synthetic sample), used when no URL or bucket is configured. */
  embeddedData?: ArrayBuffer;
}

/** What the core's messages tell a deployer of one platform. */
export interface EdgePlatform {
  /** How to give the function its data, in the platform's terms (where SBIRTOOLS_DATA_URL is set). */
  noData: string;
  /** Where the logs are read, e.g. 'wrangler tail'. */
  logs: string;
  /** The paths a run is POSTed to (the platform's router may keep the path it was called by). */
  runPaths: readonly string[];
}

/** A Web `Request` -> `Response` handler with the platform's settings. */
export type EdgeHandler = (request: Request, env?: EdgeEnv) => Promise<Response>;

const MB = 1048576;
/** Of an edge isolate's 128 MB (Workers and Vercel Edge alike): the QuickJS instance's own memory, and the largest column held for it. */
const EDGE_MEMORY_MB = 48;
const EDGE_MAX_COLUMN_BYTES = 24 * MB;
/** All columns held at once (cached between requests while they fit). */
const EDGE_MAX_HELD_BYTES = 48 * MB;

/**
 * The edge core, shared by the Cloudflare Workers and Vercel Edge wrappers: `POST /` (or /v1/run)
 * `{"code": "..."}` -> the RunResult as JSON, on the QuickJS WASM engine, no `node:` import.
 * award_data comes from `SBIRTOOLS_DATA_URL` (a data folder; each column file fetched when a run
 * names it), an R2 binding `SBIRTOOLS_DATA`, or the embedded sample; a column over 24 MB (long text on the full data), or past 48 MB of columns held
 * at once, is refused with its name and the limit (with QuickJS's 48 MB, within the platforms' 128 MB). Every request is a one-shot run on a fresh QuickJS instance.
 * @example const handle = edgeHandler({ wasmModule, quickjsVersion: '0.32.0' }, { noData: 'set SBIRTOOLS_DATA_URL.', logs: 'wrangler tail', runPaths: ['/'] });
 */
export function edgeHandler(options: EdgeOptions, platform: EdgePlatform): EdgeHandler {
  const engine: QuickJsEngine = quickJsFromModule(options.wasmModule, options.quickjsVersion);
  let dataset: Promise<EdgeDataset> | undefined;
  const open = (env: EdgeEnv) => {
    dataset ??= EdgeDataset.open(
      sourceFor(env, options.embeddedData, platform),
      EDGE_MAX_COLUMN_BYTES,
      EDGE_MAX_HELD_BYTES,
    );
    dataset.catch(() => (dataset = undefined));
    return dataset;
  };
  return async (request, env = {}) => {
    const path = new URL(request.url).pathname;
    if (request.method === 'GET' && path === '/healthz') return Response.json({ ok: true });
    if (!platform.runPaths.includes(path))
      return fail(404, 'NOT_FOUND', `No route ${path}: POST {"code": "..."} to ${platform.runPaths.join(' or ')}.`);
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
      console.error('sbirtools edge:', err);
      return fail(
        500,
        'INTERNAL_ERROR',
        `The edge function failed to run the code. Retry; if it keeps failing, check its logs (${platform.logs}).`,
      );
    }
  };
}

function sourceFor(env: EdgeEnv, embedded: ArrayBuffer | undefined, platform: EdgePlatform): FolderSource {
  if (env.SBIRTOOLS_DATA) return bucketFolder(env.SBIRTOOLS_DATA, env.SBIRTOOLS_DATA_PREFIX ?? '');
  if (env.SBIRTOOLS_DATA_URL) return urlFolder(env.SBIRTOOLS_DATA_URL);
  if (embedded) return embeddedFolder(embedded, 'the embedded data folder ');
  throw new Error(`No data: ${platform.noData}`);
}

function fail(status: number, type: string, message: string): Response {
  return Response.json({ error: { type, message } }, { status, headers: { 'cache-control': 'no-store' } });
}
