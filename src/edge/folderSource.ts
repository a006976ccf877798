import { isLoopbackHost } from '../data/remote/remoteUrl.js';
import { SbirtoolsError } from '../core/errors.js';

/**
 * The files of a built data folder (`sbirtools build-data`: sbirtools-data.json and columns/NN.col),
 * wherever the edge reads them: over HTTPS, from an R2 bucket binding, or embedded in the worker.
 */
export interface FolderSource {
  /** Where the folder is, for messages (a URL without its query, a bucket prefix; never a credential). */
  readonly name: string;
  /** One file of the folder, whole. @throws {DataFetchError} */
  read(path: string): Promise<Uint8Array>;
}

/** A failed read of remote data: what was asked of whom, and what came back. */
export class DataFetchError extends SbirtoolsError {
  constructor(message: string) {
    super('DATA_FETCH_FAILED', message);
  }
}

/**
 * A data folder on a static host. `https://` only (`http://` for loopback hosts, for tests);
 * `https://host/sbir`, `.../sbir/` and `.../sbir/sbirtools-data.json` name the same folder.
 * Each request is bounded in time and retried once on a network error or a 5xx; redirects are not
 * followed (one could lead to another host).
 */
export function urlFolder(value: string, fetchImpl: typeof fetch = fetch, timeoutMs = 15_000): FolderSource {
  const folder = new URL(value);
  if (!(folder.protocol === 'https:' || (folder.protocol === 'http:' && isLoopbackHost(folder.hostname)))) {
    throw new DataFetchError(
      `SBIRTOOLS_DATA_URL must be https:// (http:// only for a loopback host); got ${folder.protocol}//${folder.host}.`,
    );
  }
  folder.search = '';
  folder.hash = '';
  folder.pathname = folder.pathname.replace(/\/sbirtools-data\.json$/, '/').replace(/([^/])$/, '$1/');
  const name = `${folder.protocol}//${folder.host}${folder.pathname}`;
  return {
    name,
    async read(path) {
      const url = new URL(path, folder);
      for (let attempt = 1; ; attempt++) {
        let res: Response;
        try {
          res = await fetchImpl(url, { signal: AbortSignal.timeout(timeoutMs), redirect: 'manual' });
        } catch (err) {
          if (attempt < 2) continue;
          throw new DataFetchError(`Could not fetch ${name}${path}: ${(err as Error).message}.`);
        }
        if (res.status >= 500 && attempt < 2) continue;
        if (res.status >= 300 && res.status < 400) {
          throw new DataFetchError(
            `${name}${path} answered HTTP ${res.status} (a redirect to ${res.headers.get('location') ?? 'an unnamed location'}); redirects are not followed: set SBIRTOOLS_DATA_URL to the final location.`,
          );
        }
        if (res.status !== 200) {
          throw new DataFetchError(
            `${name}${path} answered HTTP ${res.status}. SBIRTOOLS_DATA_URL must name a folder written by \`sbirtools build-data\`, uploaded as is.`,
          );
        }
        return new Uint8Array(await res.arrayBuffer());
      }
    },
  };
}

/** The part of an R2 bucket binding read here (env.SBIRTOOLS_DATA). */
export interface BucketLike {
  get(key: string): Promise<{ arrayBuffer(): Promise<ArrayBuffer> } | null>;
}

/** A data folder uploaded to an R2 bucket under `prefix` (e.g. `sbir/`). */
export function bucketFolder(bucket: BucketLike, prefix: string): FolderSource {
  const base = prefix && !prefix.endsWith('/') ? `${prefix}/` : prefix;
  const name = `the R2 bucket folder '${base}'`;
  return {
    name,
    async read(path) {
      const object = await bucket.get(`${base}${path}`);
      if (!object)
        throw new DataFetchError(
          `${path} is not in ${name}. Upload the folder written by \`sbirtools build-data\` as is, or set SBIRTOOLS_DATA_PREFIX.`,
        );
      return new Uint8Array(await object.arrayBuffer());
    },
  };
}

/**
 * A data folder packed into one file by `sbirtools bundle --target workers` (a Data module):
 * a little-endian u32 index length, the index (JSON: path -> [offset, length]), then the files.
 */
export function embeddedFolder(packed: ArrayBuffer, name: string): FolderSource {
  const indexLength = new DataView(packed).getUint32(0, true);
  const index = JSON.parse(new TextDecoder().decode(new Uint8Array(packed, 4, indexLength))) as Record<
    string,
    [number, number]
  >;
  return {
    name,
    async read(path) {
      const at = index[path];
      if (!at) throw new DataFetchError(`${path} is not in ${name}.`);
      return new Uint8Array(packed, 4 + indexLength + at[0], at[1]);
    },
  };
}

/** Pack a folder's files for embeddedFolder() (run by the bundler, in Node). */
export function packFolder(files: { path: string; bytes: Uint8Array }[]): Uint8Array {
  const index: Record<string, [number, number]> = {};
  let offset = 0;
  for (const f of files) {
    index[f.path] = [offset, f.bytes.byteLength];
    offset += f.bytes.byteLength;
  }
  const head = new TextEncoder().encode(JSON.stringify(index));
  const out = new Uint8Array(4 + head.byteLength + offset);
  new DataView(out.buffer).setUint32(0, head.byteLength, true);
  out.set(head, 4);
  let at = 4 + head.byteLength;
  for (const f of files) {
    out.set(f.bytes, at);
    at += f.bytes.byteLength;
  }
  return out;
}
