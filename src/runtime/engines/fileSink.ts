import type { OutFile } from '../../../schema/outcome.js';
import { isSafeFileName, MAX_FILES_PER_RUN } from '../../../schema/fileName.js';

/**
 * The files of one run, as the host receives them. This is the authority on files: whatever the
 * guest checked, a name must be safe (no folder, `..`, absolute path or NUL can pass
 * SAFE_FILE_NAME in schema/fileName.ts), the bytes must be a Uint8Array, all files of the run together must
 * stay within `capBytes` (maxFileBytes), a name may be saved once per run (a second save would
 * drop the first file silently), and a run saves at most MAX_FILES_PER_RUN (schema/fileName.ts) files.
 * @example const sink = new FileSink(limits.maxFileBytes); sink.add('a.csv', 'text/csv', bytes);
 */
export class FileSink {
  private readonly byName = new Map<string, OutFile>();
  private used = 0;

  constructor(private readonly capBytes: number) {}

  /** @throws {Error} with a message for the guest, for a bad name or type, or past the cap. */
  add(name: unknown, mediaType: unknown, bytes: unknown): void {
    if (!isSafeFileName(name))
      throw new Error(
        `Invalid file name ${JSON.stringify(String(name).slice(0, 200))}: use a plain name such as 'result.csv' (no folders, '..' or NUL)`,
      );
    if (!(bytes instanceof Uint8Array)) throw new Error('a saved file must be bytes (Uint8Array)');
    const type =
      typeof mediaType === 'string' && /^[\w.+-]+\/[\w.+-]+$/.test(mediaType) ? mediaType : 'application/octet-stream';
    if (this.byName.has(name))
      throw new Error(
        `A file named ${JSON.stringify(name)} was already saved in this run; give each file its own name`,
      );
    if (this.byName.size >= MAX_FILES_PER_RUN)
      throw new Error(`Saving ${name} would pass this run's limit of ${MAX_FILES_PER_RUN} files`);
    if (this.used + bytes.byteLength > this.capBytes) {
      throw new Error(
        `Saving ${name} (${bytes.byteLength} bytes) would pass this run's limit of ${this.capBytes} bytes of files`,
      );
    }
    this.used += bytes.byteLength;
    this.byName.set(name, { name, mediaType: type, bytes });
  }

  /** Bytes saved so far. */
  get usedBytes(): number {
    return this.used;
  }

  /** The files, in save order. */
  files(): OutFile[] {
    return [...this.byName.values()];
  }
}
