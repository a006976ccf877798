import { createHash } from 'node:crypto';
import { readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';

/** First bytes of every code cache file this version writes. */
const MAGIC = Buffer.from('SBIRTOOLS-V8CC-1', 'latin1');
const HASH = 32;
const HEADER = MAGIC.length + HASH + HASH;
/** A prelude's code cache is ~0.3 MB; anything far larger is not ours. */
const MAX_BYTES = 64 * 1024 * 1024;

const sha256 = (data: string | Uint8Array): Buffer => createHash('sha256').update(data).digest();

/**
 * A V8 code cache kept on disk between processes, for one compiled source (the prelude). The file
 * holds a magic string, the SHA-256 of `key` (the source's hash with the V8 version and platform:
 * whatever makes the bytes valid) and the SHA-256 of the payload, then the payload. `read()` returns
 * the payload only when all three match, so a truncated, corrupt, foreign or stale file is ignored
 * (V8 then checks the bytes once more and may still reject them: the caller rewrites the file).
 * Nothing here throws: a cache that cannot be read or written only costs the compile it would save.
 * Trust: the folder is the data cache's, which the host already trusts with the data itself.
 */
export class CodeCacheFile {
  private readonly keyHash: Buffer;

  constructor(
    readonly path: string,
    key: string,
  ) {
    this.keyHash = sha256(key);
  }

  /** The stored payload, or undefined when the file is missing, unreadable or fails a check. */
  read(): Uint8Array | undefined {
    try {
      if (statSync(this.path).size > MAX_BYTES) return undefined;
      const file = readFileSync(this.path);
      if (file.length <= HEADER || !file.subarray(0, MAGIC.length).equals(MAGIC)) return undefined;
      if (!file.subarray(MAGIC.length, MAGIC.length + HASH).equals(this.keyHash)) return undefined;
      const payload = file.subarray(HEADER);
      if (!sha256(payload).equals(file.subarray(MAGIC.length + HASH, HEADER))) return undefined;
      return payload;
    } catch {
      return undefined;
    }
  }

  /**
   * Store `payload` atomically (a temporary file renamed over the old one); failures are ignored.
   * The folder must exist: none is created (opening a read-only data directory writes nothing).
   */
  write(payload: Uint8Array): void {
    const tmp = `${this.path}.${process.pid}.${Date.now()}.tmp`;
    try {
      writeFileSync(tmp, Buffer.concat([MAGIC, this.keyHash, sha256(payload), payload]), { mode: 0o600 });
      renameSync(tmp, this.path);
    } catch {
      try {
        rmSync(tmp, { force: true });
      } catch {
        // nothing more to do: the next process compiles without the cache
      }
    }
  }
}
