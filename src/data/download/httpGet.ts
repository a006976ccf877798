import type { ClientRequest, IncomingMessage } from 'node:http';
import { isIP } from 'node:net';
import { DataError } from '../errors.js';
import { nodeHttp } from '../nodeHttp.js';
import { addressCheck, type Destinations } from './addressPolicy.js';
import { blocked, checkedLookup } from './checkedLookup.js';

/** An open response, after redirects. `stalled()` is true once the idle timer fired. */
export interface OpenResponse {
  res: IncomingMessage;
  req: ClientRequest;
  /** The URL that answered (after redirects). */
  url: URL;
  stalled(): boolean;
}

/** Options of httpGet. */
export interface HttpGetOptions {
  /** No byte for this long (connecting, waiting or streaming) -> DOWNLOAD_STALLED. */
  idleTimeoutMs: number;
  maxRedirects: number;
  /**
   * Wall-clock bound on the whole transfer: every redirect, the headers and the body. When it
   * passes, the request and the body stream are destroyed with DOWNLOAD_DEADLINE, so a server that
   * trickles a byte now and then cannot hold the caller past it. @default no bound
   */
  deadlineMs?: number;
  /**
   * 'public': connect only to public internet addresses, checked on every hop (the URL's literal
   * IP, or every address its name resolves to, resolved once and connected to as checked), else
   * DOWNLOAD_BLOCKED. For URLs a model names. @default 'any'
   */
  destinations?: Destinations;
  signal?: AbortSignal;
}

const UNREACHABLE = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'CERT_HAS_EXPIRED',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
]);

/**
 * The one guarded GET every download uses (award data, table URLs, remote data): follows up to
 * `maxRedirects` redirects, with an idle timeout on the socket, an optional total deadline
 * (`deadlineMs`, armed until the body ends) and an optional destination policy
 * (`destinations: 'public'`, checked again on every redirect and DNS answer).
 * Asks for the raw bytes (`Accept-Encoding: identity`) so lengths and ranges are byte-exact.
 * @throws {DataError} DOWNLOAD_UNREACHABLE, DOWNLOAD_STALLED, DOWNLOAD_DEADLINE, DOWNLOAD_BLOCKED, DOWNLOAD_TOO_MANY_REDIRECTS, DOWNLOAD_BAD_URL.
 * @example const open = await httpGet(new URL(href), {}, { idleTimeoutMs: 30_000, maxRedirects: 5, deadlineMs: 60_000, destinations: 'public' });
 */
export async function httpGet(
  start: URL,
  headers: Record<string, string>,
  opts: HttpGetOptions,
): Promise<OpenResponse> {
  const deadline = opts.deadlineMs === undefined ? undefined : armDeadline(start, opts.deadlineMs);
  try {
    const opened = await follow(start, headers, opts, deadline);
    deadline?.watch(opened);
    return opened;
  } catch (err) {
    deadline?.clear();
    throw deadline?.fired() ?? err;
  }
}

interface Deadline {
  /** The current request, destroyed when the deadline passes. */
  current?: ClientRequest;
  watch(open: OpenResponse): void;
  fired(): DataError | undefined;
  clear(): void;
}

function armDeadline(start: URL, ms: number): Deadline {
  let error: DataError | undefined;
  let res: IncomingMessage | undefined;
  const d: Deadline = {
    watch(open) {
      res = open.res;
      const done = () => clearTimeout(timer);
      open.res.once('end', done).once('close', done);
    },
    fired: () => error,
    clear: () => clearTimeout(timer),
  };
  const timer = setTimeout(() => {
    error = new DataError(
      'DOWNLOAD_DEADLINE',
      `The download of ${start.href} did not finish within ${ms < 10_000 ? `${ms} ms` : `${Math.round(ms / 1000)} s`}, the bound for the whole transfer. The server is too slow or trickles data.`,
      {
        hint: 'Download the file yourself and pass the file, or ask for a smaller one.',
      },
    );
    // the body stream errors with the DataError itself, so a pipeline over it rejects with it
    if (res) res.destroy(error);
    d.current?.destroy(error);
  }, ms);
  timer.unref?.();
  return d;
}

async function follow(
  start: URL,
  headers: Record<string, string>,
  opts: HttpGetOptions,
  deadline: Deadline | undefined,
): Promise<OpenResponse> {
  let url = start;
  for (let hop = 0; ; hop++) {
    const opened = await once(url, headers, opts, deadline);
    const { res } = opened;
    const status = res.statusCode ?? 0;
    if (status < 300 || status >= 400 || status === 304 || !res.headers.location) return opened;
    res.resume(); // drain the redirect body so the socket can be reused or closed
    opened.req.destroy();
    if (hop >= opts.maxRedirects) {
      throw new DataError(
        'DOWNLOAD_TOO_MANY_REDIRECTS',
        `${start.href} redirected more than ${opts.maxRedirects} times (last to ${res.headers.location}). Check the URL, or download the file yourself and set SBIRTOOLS_CSV_PATH.`,
      );
    }
    url = new URL(res.headers.location, url);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new DataError(
        'DOWNLOAD_BAD_URL',
        `${start.href} redirected to ${url.href}, which is not http(s). Download the file yourself and set SBIRTOOLS_CSV_PATH.`,
      );
    }
  }
}

function once(
  url: URL,
  headers: Record<string, string>,
  opts: HttpGetOptions,
  deadline: Deadline | undefined,
): Promise<OpenResponse> {
  return new Promise((resolve, reject) => {
    let stalled = false;
    let answered = false;
    const check = addressCheck(opts.destinations);
    if (check) {
      // a literal IP is connected to without a lookup: check it here (the URL parser has already
      // turned 2130706433, 0x7f.1 and other spellings into their dotted or bracketed form)
      const host = url.hostname.replace(/^\[|\]$/g, '');
      const why = isIP(host) ? check(host) : undefined;
      if (why) return reject(blocked(url.href, `${host} is ${why}`));
    }
    const fired = deadline?.fired();
    if (fired) return reject(fired);
    const req = nodeHttp(url.protocol).get(url, {
      headers: { 'user-agent': 'sbirtools (download-data)', 'accept-encoding': 'identity', ...headers },
      signal: opts.signal,
      ...(check ? { lookup: checkedLookup(url.href, check), agent: false } : {}),
    });
    if (deadline) deadline.current = req;
    req.setTimeout(opts.idleTimeoutMs, () => {
      stalled = true;
      const err = new DataError(
        'DOWNLOAD_STALLED',
        `No data from ${url.host} for ${Math.round(opts.idleTimeoutMs / 1000)} s${answered ? ' while downloading' : ' (no response)'}. The server stalled: run the command again (it resumes), or raise the idle timeout (--idle-timeout-ms).`,
      );
      req.destroy(err);
    });
    req.on('response', (res) => {
      answered = true;
      resolve({ res, req, url, stalled: () => stalled });
    });
    req.on('error', (err: NodeJS.ErrnoException) => {
      if (answered) return; // errors after the response surface on the body stream
      if (err instanceof DataError) return reject(err);
      const cause = (err as { cause?: unknown }).cause;
      if (cause instanceof DataError) return reject(cause);
      if (err.name === 'AbortError') return reject(err);
      const code = err.code ?? 'error';
      const message =
        UNREACHABLE.has(code) || code.startsWith('ERR_TLS') || code.startsWith('CERT_')
          ? `Cannot reach ${url.host} (${code}: ${err.message}). Check the network, proxy or URL; or download the file another way and set SBIRTOOLS_CSV_PATH to it.`
          : `Request to ${url.href} failed (${code}: ${err.message}). Check the network or URL, then run the command again.`;
      reject(new DataError('DOWNLOAD_UNREACHABLE', message, { cause: err }));
    });
  });
}
