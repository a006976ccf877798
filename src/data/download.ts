import { existsSync, statSync } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { DataError, isUnwritable } from './errors.js';
import { httpGet } from './download/httpGet.js';
import { acquireLock } from './download/lock.js';
import { readSidecar, writeSidecar } from './download/sidecar.js';
import { streamBody } from './download/streamBody.js';
import { validateCsvFile } from './download/validateCsvFile.js';
import { defaultCacheDir, DOWNLOAD_FILE, ENV, envValue, OFFICIAL_CSV_URL } from './paths.js';

/** Options of {@link downloadData}. */
export interface DownloadOptions {
  /** @default env SBIRTOOLS_CSV_URL, else the official current file */
  url?: string;
  /** @default env SBIRTOOLS_CACHE_DIR, else ~/.cache/sbirtools */
  cacheDir?: string;
  /** @default process.env */
  env?: Record<string, string | undefined>;
  /** Fail when no byte arrives for this long (connecting, waiting or streaming). @default 30000 */
  idleTimeoutMs?: number;
  /** @default 5 */
  maxRedirects?: number;
  /** Download even if the server says the cached file is current. @default false */
  force?: boolean;
  onProgress?: (p: DownloadProgress) => void;
  signal?: AbortSignal;
}

/** Bytes so far (including a resumed prefix) and the expected total when the server said. */
export interface DownloadProgress {
  receivedBytes: number;
  totalBytes?: number;
  /** Bytes already on disk from an earlier, interrupted attempt. */
  resumedFrom: number;
}

/** What happened. */
export interface DownloadResult {
  status: 'downloaded' | 'resumed' | 'not-modified';
  path: string;
  url: string;
  bytes: number;
  layout?: 'current' | 'legacy';
  etag?: string;
  lastModified?: string;
}

/**
 * Downloads the SBIR award CSV into `<cacheDir>/award_data.csv`. Streams to
 * `award_data.csv.part`, resumes it with a Range request after an interruption, and renames it
 * over the cache only once it is complete and validated; a failure never touches the good file.
 * Sends If-None-Match / If-Modified-Since from the last download's sidecar and skips on 304.
 * @throws {DataError} DOWNLOAD_* codes, DISK_FULL, CACHE_DIR_UNWRITABLE; each message says what to do.
 * @example const r = await downloadData({ onProgress: (p) => console.log(p.receivedBytes) });
 */
export async function downloadData(opts: DownloadOptions = {}): Promise<DownloadResult> {
  const env = opts.env ?? process.env;
  const href = opts.url ?? envValue(env, ENV.csvUrl) ?? OFFICIAL_CSV_URL;
  const url = parseUrl(href);
  const cacheDir = resolve(opts.cacheDir ?? envValue(env, ENV.cacheDir) ?? defaultCacheDir());
  const final = join(cacheDir, DOWNLOAD_FILE);
  const part = `${final}.part`;
  try {
    await mkdir(cacheDir, { recursive: true });
  } catch (err) {
    const code = isUnwritable(err) ? 'CACHE_DIR_UNWRITABLE' : 'DATA_READ_ERROR';
    throw new DataError(
      code,
      `Cannot create the cache directory ${cacheDir}. Set SBIRTOOLS_CACHE_DIR to a writable directory.`,
      { cause: err },
    );
  }
  const release = acquireLock(final);
  try {
    return await attempt({ url, href, final, part, opts, allowResume: true });
  } finally {
    release();
  }
}

interface Attempt {
  url: URL;
  href: string;
  final: string;
  part: string;
  opts: DownloadOptions;
  allowResume: boolean;
}

async function attempt(a: Attempt): Promise<DownloadResult> {
  const { url, href, final, part, opts } = a;
  const headers: Record<string, string> = {};
  const partMeta = readSidecar(part);
  const partSize = existsSync(part) ? statSync(part).size : 0;
  const validator = partMeta?.etag && !partMeta.etag.startsWith('W/') ? partMeta.etag : partMeta?.lastModified;
  const resuming = a.allowResume && partSize > 0 && partMeta?.url === href && validator !== undefined;
  const have = readSidecar(final);
  if (resuming) {
    headers.range = `bytes=${partSize}-`;
    headers['if-range'] = validator;
  } else if (!opts.force && have?.url === href && existsSync(final)) {
    if (have.etag) headers['if-none-match'] = have.etag;
    if (have.lastModified) headers['if-modified-since'] = have.lastModified;
  }
  const open = await httpGet(url, headers, {
    idleTimeoutMs: opts.idleTimeoutMs ?? 30_000,
    maxRedirects: opts.maxRedirects ?? 5,
    signal: opts.signal,
  });
  const { res } = open;
  const status = res.statusCode ?? 0;
  if (status === 304 && (headers['if-none-match'] !== undefined || headers['if-modified-since'] !== undefined)) {
    res.resume();
    return {
      status: 'not-modified',
      path: final,
      url: href,
      bytes: statSync(final).size,
      etag: have?.etag,
      lastModified: have?.lastModified,
    };
  }
  if (status === 416 && resuming) {
    res.resume();
    await discard(part);
    return attempt({ ...a, allowResume: false });
  }
  if (status !== 200 && status !== 206) {
    res.resume();
    throw httpError(open.url, status, res.statusMessage);
  }
  const append = status === 206 && resuming && contentRangeStart(res.headers['content-range']) === partSize;
  if (status === 206 && !append) {
    // a range we did not ask for, or at the wrong offset: start over without Range
    res.resume();
    await discard(part);
    return attempt({ ...a, allowResume: false });
  }
  const etag = header(res.headers.etag);
  const lastModified = header(res.headers['last-modified']);
  if (!append)
    await writeSidecar(part, { url: href, etag, lastModified, bytes: 0, downloadedAt: new Date().toISOString() });
  const bytes = await streamBody(open, part, { append, partSize, onProgress: opts.onProgress });

  const check = await validateCsvFile(part);
  if (!check.ok) {
    await discard(part);
    const code = check.problem === 'not-csv' ? 'DOWNLOAD_NOT_CSV' : 'DOWNLOAD_TRUNCATED';
    const advice =
      check.problem === 'not-csv'
        ? 'Check the URL (the official one is the default).'
        : 'The server sent an incomplete file; try again later.';
    throw new DataError(
      code,
      `${open.url.href} did not give a complete SBIR award CSV: ${check.reason}. ${advice} The cached file was left unchanged.`,
    );
  }
  await rename(part, final);
  // the sidecar follows the file: a crash in between leaves an old sidecar, which only forces a re-download
  await writeSidecar(final, {
    url: href,
    etag: append ? partMeta?.etag : etag,
    lastModified: append ? partMeta?.lastModified : lastModified,
    bytes,
    downloadedAt: new Date().toISOString(),
  });
  await rm(`${part}.json`, { force: true });
  return {
    status: append ? 'resumed' : 'downloaded',
    path: final,
    url: href,
    bytes,
    layout: check.layout,
    etag: append ? partMeta?.etag : etag,
    lastModified: append ? partMeta?.lastModified : lastModified,
  };
}

function parseUrl(href: string): URL {
  let url: URL;
  try {
    url = new URL(href);
  } catch {
    throw new DataError(
      'DOWNLOAD_BAD_URL',
      `Not a URL: ${JSON.stringify(href)}. Pass an http(s) URL, e.g. ${OFFICIAL_CSV_URL}`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new DataError(
      'DOWNLOAD_BAD_URL',
      `Only http(s) URLs can be downloaded, got ${JSON.stringify(href)}. For a local file set SBIRTOOLS_CSV_PATH instead.`,
    );
  }
  return url;
}

function httpError(url: URL, status: number, text: string | undefined): DataError {
  const what = `${url.href} answered ${status}${text ? ` ${text}` : ''}.`;
  const advice =
    status === 404 || status === 410
      ? 'The file may have moved: find the current link on https://www.sbir.gov/data-resources and run `sbirtools download-data <URL>`.'
      : status >= 500
        ? 'The server is failing; try again later.'
        : 'Check the URL and any proxy settings.';
  return new DataError('DOWNLOAD_HTTP_ERROR', `${what} ${advice} The cached file was left unchanged.`);
}

function contentRangeStart(value: string | undefined): number {
  const m = /^bytes (\d+)-(\d+)\/(\d+|\*)$/.exec(value ?? '');
  return m ? Number(m[1]) : -1;
}

function header(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}

async function discard(part: string): Promise<void> {
  await rm(part, { force: true });
  await rm(`${part}.json`, { force: true });
}
