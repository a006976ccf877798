import http, { type ClientRequest, type IncomingMessage } from 'node:http';
import https from 'node:https';
import { DataError } from '../errors.js';

/** An open response, after redirects. `stalled()` is true once the idle timer fired. */
export interface OpenResponse {
  res: IncomingMessage;
  req: ClientRequest;
  /** The URL that answered (after redirects). */
  url: URL;
  stalled(): boolean;
}

const UNREACHABLE = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'CERT_HAS_EXPIRED', 'DEPTH_ZERO_SELF_SIGNED_CERT', 'UNABLE_TO_VERIFY_LEAF_SIGNATURE']);

/**
 * GETs `url`, following up to `maxRedirects` redirects, with an idle timeout on the socket
 * (no byte for `idleTimeoutMs` ms, while connecting, waiting or streaming -> DOWNLOAD_STALLED).
 * Asks for the raw bytes (`Accept-Encoding: identity`) so lengths and ranges are byte-exact.
 * @throws {DataError} DOWNLOAD_UNREACHABLE, DOWNLOAD_STALLED, DOWNLOAD_TOO_MANY_REDIRECTS, DOWNLOAD_BAD_URL.
 */
export async function httpGet(
  start: URL,
  headers: Record<string, string>,
  opts: { idleTimeoutMs: number; maxRedirects: number; signal?: AbortSignal },
): Promise<OpenResponse> {
  let url = start;
  for (let hop = 0; ; hop++) {
    const opened = await once(url, headers, opts);
    const { res } = opened;
    const status = res.statusCode ?? 0;
    if (status < 300 || status >= 400 || status === 304 || !res.headers.location) return opened;
    res.resume(); // drain the redirect body so the socket can be reused or closed
    opened.req.destroy();
    if (hop >= opts.maxRedirects) {
      throw new DataError('DOWNLOAD_TOO_MANY_REDIRECTS', `${start.href} redirected more than ${opts.maxRedirects} times (last to ${res.headers.location}). Check the URL, or download the file yourself and set SBIRTOOLS_CSV_PATH.`);
    }
    url = new URL(res.headers.location, url);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new DataError('DOWNLOAD_BAD_URL', `${start.href} redirected to ${url.href}, which is not http(s). Download the file yourself and set SBIRTOOLS_CSV_PATH.`);
    }
  }
}

function once(url: URL, headers: Record<string, string>, opts: { idleTimeoutMs: number; signal?: AbortSignal }): Promise<OpenResponse> {
  return new Promise((resolve, reject) => {
    let stalled = false;
    let answered = false;
    const get = url.protocol === 'https:' ? https.get : http.get;
    const req = get(url, { headers: { 'user-agent': 'sbirtools (download-data)', 'accept-encoding': 'identity', ...headers }, signal: opts.signal });
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
      if (err.name === 'AbortError') return reject(err);
      const code = err.code ?? 'error';
      const message = UNREACHABLE.has(code) || code.startsWith('ERR_TLS') || code.startsWith('CERT_')
        ? `Cannot reach ${url.host} (${code}: ${err.message}). Check the network, proxy or URL; or download the file another way and set SBIRTOOLS_CSV_PATH to it.`
        : `Request to ${url.href} failed (${code}: ${err.message}). Check the network or URL, then run the command again.`;
      reject(new DataError('DOWNLOAD_UNREACHABLE', message, { cause: err }));
    });
  });
}
