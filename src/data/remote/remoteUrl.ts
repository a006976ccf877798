import { DataError } from '../errors.js';
import { DATA_DIR_MANIFEST } from '../pack/manifest.js';

/** True for `http:`/`https:` URLs (what dataPath treats as remote data). */
export function isDataUrl(value: string): boolean {
  return /^https?:\/\//i.test(value);
}

/** True for host names that never leave the machine. */
export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

/**
 * A data folder's URL checked and normalized: `https://host/sbir`, `https://host/sbir/` and
 * `https://host/sbir/sbirtools-data.json` all give the folder `https://host/sbir/`.
 * @throws {DataError} DATA_FETCH_FAILED for another scheme, credentials in the URL, or `http:` to a
 * host that is not loopback without `allowHttp`.
 * @example dataFolderUrl('https://cdn.example.com/sbir', false).manifest.href // 'https://cdn.example.com/sbir/sbirtools-data.json'
 */
export function dataFolderUrl(value: string, allowHttp: boolean): { folder: URL; manifest: URL } {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw refused(
      value,
      'it is not a valid URL',
      'Give the https:// URL of a folder written by `sbirtools build-data`.',
    );
  }
  checkScheme(url, allowHttp);
  if (url.username || url.password)
    throw refused(
      url.host,
      'it carries a user name or password',
      'Remove the credentials from the URL; use a public or pre-signed folder URL.',
    );
  url.hash = '';
  url.search = '';
  if (url.pathname.endsWith(`/${DATA_DIR_MANIFEST}`)) url.pathname = url.pathname.slice(0, -DATA_DIR_MANIFEST.length);
  if (!url.pathname.endsWith('/')) url.pathname += '/';
  return { folder: url, manifest: new URL(DATA_DIR_MANIFEST, url) };
}

/**
 * Refuses a scheme other than https (http only to loopback or when allowed).
 * @throws {DataError} DATA_FETCH_FAILED
 */
export function checkScheme(url: URL, allowHttp: boolean): void {
  if (url.protocol === 'https:') return;
  if (url.protocol === 'http:' && (allowHttp || isLoopbackHost(url.hostname))) return;
  if (url.protocol === 'http:') {
    throw refused(
      url.host,
      'plain http:// is only used for loopback hosts',
      'Serve the data folder over https://, or set SBIRTOOLS_DATA_ALLOW_HTTP=1 (option remoteData.allowHttp) on a private network you trust.',
    );
  }
  throw refused(
    url.host || url.href,
    `the scheme ${url.protocol} is not supported`,
    'Give an https:// URL, or a local folder path.',
  );
}

function refused(where: string, why: string, hint: string): DataError {
  return new DataError('DATA_FETCH_FAILED', `Remote data at ${where} was refused: ${why}.`, { hint, host: where });
}
