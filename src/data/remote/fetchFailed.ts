import { DataError } from '../errors.js';

/**
 * The DATA_FETCH_FAILED error for one URL: the message names the host, the path and the status
 * (or the network failure); the hint says what to do about it.
 * @example throw fetchFailed(url, 'the server answered 404', 404)
 */
export function fetchFailed(url: URL, what: string, status?: number, cause?: unknown): DataError {
  const hint =
    status === 404 || status === 410
      ? 'Check the URL: it must name a folder written by `sbirtools build-data`, uploaded whole (the manifest and its columns/ folder).'
      : status === 401 || status === 403
        ? 'The host refused access: make the folder publicly readable, or use a pre-signed or token URL your host gives.'
        : status !== undefined && status >= 500
          ? 'The host had a server error; it was retried. Try again later or check the host.'
          : /hash|size|bytes|manifest|column file/.test(what)
            ? 'The file on the host is not the one its manifest describes (a partial upload, or a folder rebuilt without re-uploading every file). Upload the whole folder again.'
            : /redirect/.test(what)
              ? 'Point the URL at the final host, or list that host in SBIRTOOLS_DATA_ALLOW_HOSTS (option remoteData.allowRedirectHosts).'
              : 'Check the network and the URL; the transfer was retried. Limits: option remoteData (requestTimeoutMs, deadlineMs, retries, maxColumnBytes).';
  return new DataError(
    'DATA_FETCH_FAILED',
    `Fetching ${url.pathname} from ${url.host} failed: ${what}${status !== undefined ? ` (HTTP ${status})` : ''}.`,
    {
      hint,
      host: url.host,
      path: url.pathname,
      ...(status !== undefined ? { status } : {}),
      ...(cause !== undefined ? { cause } : {}),
    },
  );
}
