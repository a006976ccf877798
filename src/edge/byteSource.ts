/** Byte ranges of one file: in memory, over HTTP range requests, or from an R2 bucket binding. */
export interface ByteSource {
  /** Where the bytes come from, for messages (a URL or a bucket key; never a credential). */
  readonly name: string;
  read(offset: number, length: number): Promise<Uint8Array>;
}

/** A failed read of remote data: what was asked of whom, and what came back. */
export class DataFetchError extends Error {
  override readonly name = 'DataFetchError';
  readonly code = 'DATA_FETCH_FAILED';
  constructor(message: string) {
    super(message);
  }
}

/** The bytes of a module the worker imports (a Data module: the embedded sample). */
export function memorySource(bytes: ArrayBuffer, name: string): ByteSource {
  return { name, read: async (offset, length) => new Uint8Array(bytes, offset, Math.min(length, bytes.byteLength - offset)) };
}

/** The fetch of the platform, bounded in time, with one retry of a failed connection or a 5xx. */
export function urlSource(url: string, fetchImpl: typeof fetch = fetch, timeoutMs = 15_000): ByteSource {
  const where = describeUrl(url);
  return {
    name: where,
    async read(offset, length) {
      for (let attempt = 1; ; attempt++) {
        let res: Response;
        try {
          res = await fetchImpl(url, { headers: { range: `bytes=${offset}-${offset + length - 1}` }, signal: AbortSignal.timeout(timeoutMs), redirect: 'manual' });
        } catch (err) {
          if (attempt < 2) continue;
          throw new DataFetchError(`Could not fetch ${where} (bytes ${offset}-${offset + length - 1}): ${(err as Error).message}.`);
        }
        if (res.status >= 500 && attempt < 2) continue;
        // never followed: a redirect could lead to another host (point the URL at the final location)
        if (res.status >= 300 && res.status < 400) {
          throw new DataFetchError(`${where} answered HTTP ${res.status} (a redirect to ${res.headers.get('location') ?? 'an unnamed location'}); redirects are not followed: set SBIRTOOLS_DATA_URL to the final URL.`);
        }
        if (res.status !== 206 && res.status !== 200) {
          throw new DataFetchError(`${where} answered HTTP ${res.status} for bytes ${offset}-${offset + length - 1}. Check SBIRTOOLS_DATA_URL names the award_data.sbtc file of a folder written by \`sbirtools build-data\`.`);
        }
        const body = new Uint8Array(await res.arrayBuffer());
        // a server that ignores Range sends the whole file (200): take the part asked for
        const part = res.status === 200 ? body.subarray(offset, offset + length) : body;
        if (part.byteLength !== length) {
          throw new DataFetchError(`${where} sent ${part.byteLength} bytes for a range of ${length} (bytes ${offset}-${offset + length - 1}): the file is shorter than its header says, or the response was cut.`);
        }
        return part;
      }
    },
  };
}

/** The part of an R2 bucket binding read here (env.SBIRTOOLS_DATA). */
export interface BucketLike {
  get(key: string, options: { range: { offset: number; length: number } }): Promise<{ arrayBuffer(): Promise<ArrayBuffer> } | null>;
}

/** Ranges of one object in an R2 bucket binding. */
export function bucketSource(bucket: BucketLike, key: string): ByteSource {
  const name = `bucket object ${key}`;
  return {
    name,
    async read(offset, length) {
      const object = await bucket.get(key, { range: { offset, length } });
      if (!object) throw new DataFetchError(`The ${name} does not exist. Upload the award_data.sbtc of \`sbirtools build-data\` under that key, or set SBIRTOOLS_DATA_KEY.`);
      const bytes = new Uint8Array(await object.arrayBuffer());
      if (bytes.byteLength !== length) throw new DataFetchError(`The ${name} gave ${bytes.byteLength} bytes for a range of ${length}: it is shorter than its header says.`);
      return bytes;
    },
  };
}

/** Host and path of a URL, without its query (it may carry a signature). */
function describeUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname}`;
  } catch {
    return 'the data URL';
  }
}
