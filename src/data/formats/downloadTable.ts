import { createHash } from 'node:crypto';
import { createWriteStream, existsSync, statSync } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { DataError, isDiskFull, isUnwritable } from '../errors.js';
import type { Destinations } from '../download/addressPolicy.js';
import { httpGet } from '../download/httpGet.js';
import { acquireLock } from '../download/lock.js';
import { readSidecar, writeSidecar } from '../download/sidecar.js';

/** How a table URL is fetched. */
export interface TableDownloadOptions {
  /** No byte for this long -> DOWNLOAD_STALLED. @default 30000 */
  idleTimeoutMs?: number;
  /** Bound on the whole transfer (redirects, headers, body) -> DOWNLOAD_DEADLINE. @default 60000 */
  deadlineMs?: number;
  /** 'public' for a URL a model names: public internet addresses only (DOWNLOAD_BLOCKED). @default 'any' */
  destinations?: Destinations;
}

/** Default bound on a table download's whole transfer. */
export const DEFAULT_TABLE_DOWNLOAD_DEADLINE_MS = 60_000;

/**
 * Download a table file from an http(s) URL into `<cacheDir>/tables/` with the award data's
 * guards: an idle timeout, a deadline for the whole transfer, a destination policy, bounded redirects, a byte cap (DATA_TOO_LARGE as soon as it is passed),
 * the body length checked against Content-Length, a `.part` file renamed only when complete, and
 * ETag / Last-Modified revalidation so an unchanged file is not downloaded twice. A failure never
 * replaces a good cached copy.
 * @returns the cached file's path.
 * @throws {DataError} DOWNLOAD_* codes (DOWNLOAD_DEADLINE, DOWNLOAD_BLOCKED...), DATA_TOO_LARGE, DISK_FULL, CACHE_DIR_UNWRITABLE.
 * @example const path = await downloadTable('https://example.org/portfolio.parquet', cacheDir, 64e6);
 */
export async function downloadTable(
  href: string,
  cacheDir: string,
  maxBytes: number,
  o: TableDownloadOptions = {},
): Promise<string> {
  const idleTimeoutMs = o.idleTimeoutMs ?? 30_000;
  let url: URL;
  try {
    url = new URL(href);
  } catch {
    throw new DataError('DOWNLOAD_BAD_URL', `Not a URL: ${JSON.stringify(href)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new DataError('DOWNLOAD_BAD_URL', `Only http(s) URLs can be downloaded, got ${JSON.stringify(href)}`);
  const dir = join(cacheDir, 'tables');
  try {
    await mkdir(dir, { recursive: true });
  } catch (err) {
    throw new DataError(
      isUnwritable(err) ? 'CACHE_DIR_UNWRITABLE' : 'DATA_READ_ERROR',
      `Cannot create ${dir}. Set SBIRTOOLS_CACHE_DIR to a writable directory.`,
      { cause: err },
    );
  }
  // the cache name comes from a hash of the URL: nothing in the URL chooses where the file goes
  const ext = /^\.[a-z0-9]{1,8}$/i.test(extname(url.pathname)) ? extname(url.pathname).toLowerCase() : '';
  const final = join(dir, `${createHash('sha256').update(href).digest('hex').slice(0, 32)}${ext}`);
  const part = `${final}.part`;
  const release = acquireLock(final);
  try {
    const have = readSidecar(final);
    const headers: Record<string, string> = {};
    if (have?.url === href && existsSync(final)) {
      if (have.etag) headers['if-none-match'] = have.etag;
      if (have.lastModified) headers['if-modified-since'] = have.lastModified;
    }
    const open = await httpGet(url, headers, {
      idleTimeoutMs,
      maxRedirects: 5,
      deadlineMs: o.deadlineMs ?? DEFAULT_TABLE_DOWNLOAD_DEADLINE_MS,
      destinations: o.destinations ?? 'any',
    });
    const status = open.res.statusCode ?? 0;
    if (status === 304 && Object.keys(headers).length) {
      open.res.resume();
      return final;
    }
    if (status !== 200) {
      open.res.resume();
      throw new DataError(
        'DOWNLOAD_HTTP_ERROR',
        `${open.url.href} answered ${status}${open.res.statusMessage ? ` ${open.res.statusMessage}` : ''}. Check the URL.`,
      );
    }
    const declared = Number(open.res.headers['content-length'] ?? NaN);
    if (declared > maxBytes) {
      open.res.resume();
      open.req.destroy();
      throw tooLarge(href, declared, maxBytes);
    }
    let received = 0;
    const meter = new Transform({
      transform(chunk: Buffer, _enc, done) {
        received += chunk.length;
        done(received > maxBytes ? tooLarge(href, received, maxBytes) : null, chunk);
      },
    });
    try {
      await pipeline(open.res, meter, createWriteStream(part));
    } catch (err) {
      open.req.destroy();
      await rm(part, { force: true });
      if (err instanceof DataError) throw err;
      if (isDiskFull(err))
        throw new DataError(
          'DISK_FULL',
          `No space left while writing ${part}. Free some space or set SBIRTOOLS_CACHE_DIR.`,
          { cause: err },
        );
      if (open.stalled())
        throw new DataError(
          'DOWNLOAD_STALLED',
          `No data from ${url.host} for ${Math.round(idleTimeoutMs / 1000)} s. Try again.`,
          { cause: err },
        );
      throw new DataError('DOWNLOAD_TRUNCATED', `The download of ${href} stopped after ${received} bytes. Try again.`, {
        cause: err,
      });
    }
    if (Number.isFinite(declared) && received !== declared) {
      await rm(part, { force: true });
      throw new DataError(
        'DOWNLOAD_TRUNCATED',
        `${href} sent ${received} of ${declared} bytes. Try again; the cached copy (if any) was left unchanged.`,
      );
    }
    await rename(part, final);
    const header = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);
    await writeSidecar(final, {
      url: href,
      etag: header(open.res.headers.etag),
      lastModified: header(open.res.headers['last-modified']),
      bytes: statSync(final).size,
      downloadedAt: new Date().toISOString(),
    });
    return final;
  } finally {
    release();
  }
}

function tooLarge(href: string, bytes: number, max: number): DataError {
  return new DataError('DATA_TOO_LARGE', `${href} is ${bytes} bytes or more, over the ${max}-byte limit for a table`, {
    hint: 'Filter the data on the server side, or download it yourself and pass a smaller file.',
  });
}
