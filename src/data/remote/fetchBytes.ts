import { DataError } from '../errors.js';
import { BACKOFF_MS, type RemoteOptions } from './remoteOptions.js';
import { fetchFailed } from './fetchFailed.js';
import { checkScheme } from './remoteUrl.js';
import { httpGet, type HttpAnswer } from './httpGet.js';
import { concatBytes } from '../concatBytes.js';

/** One transfer's answer: the body (empty for 304), the final status and the headers kept. */
export interface FetchedBytes {
  bytes: Uint8Array;
  status: number;
  etag?: string;
  lastModified?: string;
  cacheControl?: string;
  /** Requests made (1 unless redirects, retries or a resumed range). */
  requests: number;
}

/** What {@link fetchBytes} checks besides the options. */
export interface FetchLimits {
  /** Largest body accepted. */
  maxBytes: number;
  /** The exact size the body must have (a column file's manifest size), when known. */
  expectedBytes?: number;
  /** Headers of a conditional request (If-None-Match...): a 304 answer is then accepted. */
  headers?: Record<string, string>;
}

const MAX_REDIRECTS = 5;
/** Failures that another attempt may fix (network, 5xx, 429, a body cut short). */
const retryable = new WeakSet<DataError>();
const retry = (e: DataError): DataError => (retryable.add(e), e);

/**
 * GETs one URL with the remote-data rules: http(s) only (http for loopback or when allowed),
 * redirects followed on the same host only (or the allowed ones, never https -> http), a timeout
 * without bytes, a total deadline, bounded retries with exponential backoff, a byte cap, and a body
 * cut short resumed with `Range: bytes=N-` when the server answers 206 (else fetched again whole).
 * @throws {DataError} DATA_FETCH_FAILED naming host, path and status.
 * @example const { bytes } = await fetchBytes(new URL('https://cdn/x/columns/00.col'), opts, { maxBytes: 1e9, expectedBytes: 1234 });
 */
export async function fetchBytes(
  start: URL,
  opts: Required<RemoteOptions>,
  limits: FetchLimits,
): Promise<FetchedBytes> {
  const deadline = Date.now() + opts.deadlineMs;
  let parts: Uint8Array[] = [];
  let have = 0;
  let requests = 0;
  for (let attempt = 0; ; attempt++) {
    try {
      const r = await attemptOnce(start, opts, limits, deadline, have, (n) => (requests += n));
      if (r.kind === 'done')
        return { ...r.answer, bytes: concatBytes(r.resumed ? [...parts, r.body] : [r.body]), requests };
      // a body cut short: keep what arrived, ask for the rest (or start over if ranges were ignored)
      if (!r.resumed) parts = [];
      parts.push(r.body);
      have = parts.reduce((n, p) => n + p.byteLength, 0);
      throw retry(fetchFailed(r.url, `the body ended after ${have} of ${r.total} bytes`, r.status));
    } catch (err) {
      if (!(err instanceof DataError) || !retryable.has(err)) throw err;
      const wait = BACKOFF_MS * 2 ** attempt;
      if (attempt >= opts.retries || Date.now() + wait >= deadline) {
        const e = err;
        throw new DataError(
          'DATA_FETCH_FAILED',
          `${e.message.replace(/\.$/, '')}, after ${attempt + 1} attempt${attempt ? 's' : ''}.`,
          { hint: e.hint!, host: e.host!, path: e.path!, ...(e.status !== undefined ? { status: e.status } : {}) },
        );
      }
      await new Promise((r) => setTimeout(r, wait));
    }
  }
}

type Attempt =
  | { kind: 'done'; answer: Omit<FetchedBytes, 'bytes' | 'requests'>; body: Uint8Array; resumed: boolean }
  | { kind: 'short'; url: URL; body: Uint8Array; resumed: boolean; total: number; status: number };

async function attemptOnce(
  start: URL,
  opts: Required<RemoteOptions>,
  limits: FetchLimits,
  deadline: number,
  have: number,
  count: (n: number) => void,
): Promise<Attempt> {
  let url = start;
  const ctl = new AbortController();
  let why = '';
  const abort = (reason: string) => {
    why ||= reason;
    ctl.abort();
  };
  const total = setTimeout(
    () => abort(`no answer within the ${opts.deadlineMs} ms deadline`),
    Math.max(0, deadline - Date.now()),
  );
  let idle: ReturnType<typeof setTimeout> | undefined;
  const touch = () => {
    clearTimeout(idle);
    idle = setTimeout(() => abort(`no byte for ${opts.requestTimeoutMs} ms`), opts.requestTimeoutMs);
  };
  try {
    for (let hop = 0; ; hop++) {
      checkScheme(url, opts.allowHttp);
      const headers: Record<string, string> = { 'accept-encoding': 'identity', ...(limits.headers ?? {}) };
      if (have > 0) headers.range = `bytes=${have}-`;
      touch();
      count(1);
      let res: HttpAnswer;
      try {
        res = await httpGet(url, headers, ctl.signal);
      } catch (err) {
        if (why.startsWith('no answer within')) throw fetchFailed(url, why);
        throw retry(fetchFailed(url, why || `network error (${networkCause(err)})`, undefined, err));
      }
      if (res.status >= 300 && res.status < 400 && res.status !== 304) {
        res.cancel();
        const location = res.header('location');
        if (!location) throw fetchFailed(url, 'a redirect without a Location', res.status);
        if (hop >= MAX_REDIRECTS) throw fetchFailed(url, `more than ${MAX_REDIRECTS} redirects`, res.status);
        const next = new URL(location, url);
        if (
          next.host.toLowerCase() !== start.host.toLowerCase() &&
          !opts.allowRedirectHosts.includes(next.hostname.toLowerCase()) &&
          !opts.allowRedirectHosts.includes(next.host.toLowerCase())
        ) {
          throw fetchFailed(url, `a redirect to another host (${next.host}) was refused`, res.status);
        }
        if (url.protocol === 'https:' && next.protocol !== 'https:')
          throw fetchFailed(url, `a redirect from https to ${next.protocol} was refused`, res.status);
        url = next;
        continue;
      }
      if (res.status === 304 && limits.headers) {
        res.cancel();
        return { kind: 'done', answer: answerOf(res), body: new Uint8Array(0), resumed: false };
      }
      if (res.status === 429 || res.status >= 500) {
        res.cancel();
        throw retry(fetchFailed(url, 'the server failed', res.status));
      }
      if (res.status !== 200 && res.status !== 206) {
        res.cancel();
        throw fetchFailed(url, res.status === 404 ? 'not found' : 'the server refused', res.status);
      }
      const resumed = res.status === 206 && have > 0 && rangeStart(res.header('content-range')) === have;
      if (res.status === 206 && !resumed) {
        res.cancel();
        throw fetchFailed(
          url,
          `an unexpected partial answer (${res.header('content-range') ?? 'no Content-Range'})`,
          res.status,
        );
      }
      const offset = resumed ? have : 0;
      const length = res.header('content-length');
      const announced = length !== null && /^\d+$/.test(length) ? offset + Number(length) : undefined;
      const cap = limits.expectedBytes ?? limits.maxBytes;
      if (announced !== undefined && announced > cap) {
        res.cancel();
        throw fetchFailed(
          url,
          limits.expectedBytes !== undefined
            ? `the file has ${announced} bytes, the manifest says ${limits.expectedBytes}`
            : `the file has ${announced} bytes, over the cap of ${limits.maxBytes}`,
          res.status,
        );
      }
      const body = await readBody(res, url, cap - offset, touch, () => why);
      const got = offset + body.byteLength;
      const want = limits.expectedBytes ?? announced;
      if (want !== undefined && got < want)
        return { kind: 'short', url, body, resumed, total: want, status: res.status };
      return { kind: 'done', answer: answerOf(res), body, resumed };
    }
  } finally {
    clearTimeout(total);
    clearTimeout(idle);
  }
}

/** Reads a body up to `cap` bytes; a body cut by the network comes back short (the caller resumes). */
async function readBody(
  res: HttpAnswer,
  url: URL,
  cap: number,
  touch: () => void,
  why: () => string,
): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let n = 0;
  try {
    for await (const value of res.body) {
      touch();
      n += value.byteLength;
      if (n > cap) {
        res.cancel();
        throw fetchFailed(url, `the body passed ${cap} bytes, more than the file may have`, res.status);
      }
      chunks.push(value);
    }
  } catch (err) {
    if (err instanceof DataError) throw err;
    const reason = why();
    if (reason.startsWith('no answer within')) throw fetchFailed(url, reason, res.status);
    if (reason) throw retry(fetchFailed(url, reason, res.status));
    // the connection dropped mid-body: what arrived is kept, the rest is asked for again
  }
  return concatBytes(chunks);
}

function answerOf(res: HttpAnswer): Omit<FetchedBytes, 'bytes' | 'requests'> {
  const h = (name: string) => res.header(name) ?? undefined;
  const out: Omit<FetchedBytes, 'bytes' | 'requests'> = { status: res.status };
  const etag = h('etag');
  const lastModified = h('last-modified');
  const cacheControl = h('cache-control');
  if (etag) out.etag = etag;
  if (lastModified) out.lastModified = lastModified;
  if (cacheControl) out.cacheControl = cacheControl;
  return out;
}

function rangeStart(contentRange: string | null): number | undefined {
  const m = /^bytes (\d+)-\d+\/(\d+|\*)$/.exec(contentRange ?? '');
  return m ? Number(m[1]) : undefined;
}

function networkCause(err: unknown): string {
  const e = err as { code?: string; message?: string; cause?: { code?: string; message?: string } };
  return e.code ?? e.cause?.code ?? e.cause?.message ?? String(e.message ?? err);
}
