import { randomUUID } from 'node:crypto';
import type { RunFile } from '../../schema/result.js';

/** A file kept for clients to read as a resource. */
interface Kept {
  uri: string;
  name: string;
  mediaType: string;
  bytes: Uint8Array;
}

/**
 * The files runs saved, kept in memory so an MCP client can read them as resources
 * (`sbirtools://files/<run>/<name>`). Bounded: past `capBytes` in total the oldest files are
 * dropped (their resource reads then say so).
 * @example const store = new FileStore(256 * 1024 * 1024); const listed = store.keep(result.files);
 */
export class FileStore {
  private readonly files = new Map<string, Kept>();
  private used = 0;

  constructor(private readonly capBytes: number) {}

  /** Keep a run's files; returns them without bytes, each with its resource `uri`. */
  keep(files: RunFile[]): Array<RunFile & { uri: string }> {
    const run = randomUUID();
    return files.map((f) => {
      const uri = `sbirtools://files/${run}/${encodeURIComponent(f.name)}`;
      const bytes = f.bytes ?? new Uint8Array(0);
      if (bytes.byteLength <= this.capBytes) {
        this.files.set(uri, { uri, name: f.name, mediaType: f.mediaType, bytes });
        this.used += bytes.byteLength;
        for (const [k, v] of this.files) {
          if (this.used <= this.capBytes) break;
          this.files.delete(k);
          this.used -= v.bytes.byteLength;
        }
      }
      const { bytes: _b, ...rest } = f;
      return { ...rest, uri };
    });
  }

  get(uri: string): Kept | undefined {
    return this.files.get(uri);
  }

  list(): Kept[] {
    return [...this.files.values()];
  }
}
