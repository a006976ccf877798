import { createHash, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { SbirtoolsValidationError } from '../core/errors.js';

/** The server's API keys, kept as SHA-256 digests; identify() compares in constant time. */
export interface KeyRing {
  /** No keys configured (allowed on loopback only): every caller is the one key `local`. */
  readonly open: boolean;
  readonly size: number;
  /** The id of the key `token` is (16 hex chars of its hash), or undefined for an unknown token. */
  identify(token: string): string | undefined;
}

const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest();

/**
 * Keys from the `apiKeys` option, else `SBIRTOOLS_API_KEYS` (comma-separated), else the file
 * `SBIRTOOLS_API_KEYS_FILE` (one key per line, `#` comments).
 * @throws {SbirtoolsValidationError} when the file cannot be read or a key is shorter than 16 characters.
 */
export function loadKeyRing(option: string[] | undefined, env: NodeJS.ProcessEnv): KeyRing {
  let keys = option;
  if (!keys && env.SBIRTOOLS_API_KEYS) keys = env.SBIRTOOLS_API_KEYS.split(',');
  if (!keys && env.SBIRTOOLS_API_KEYS_FILE) {
    try {
      keys = readFileSync(env.SBIRTOOLS_API_KEYS_FILE, 'utf8')
        .split('\n')
        .filter((l) => !l.trim().startsWith('#'));
    } catch (err) {
      throw new SbirtoolsValidationError(
        `Cannot read SBIRTOOLS_API_KEYS_FILE ${env.SBIRTOOLS_API_KEYS_FILE}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
      );
    }
  }
  const list = (keys ?? []).map((k) => k.trim()).filter(Boolean);
  const short = list.find((k) => k.length < 16);
  if (short !== undefined)
    throw new SbirtoolsValidationError(
      `API keys must be at least 16 characters (got one of ${short.length}); generate one with \`openssl rand -hex 32\`.`,
    );
  const digests = list.map(digest);
  return {
    open: digests.length === 0,
    size: digests.length,
    identify(token) {
      const d = digest(token);
      let found: Buffer | undefined;
      // every key is compared, equal-length digests: the time does not depend on which key matched
      for (const k of digests) if (timingSafeEqual(k, d)) found = k;
      return found ? found.toString('hex').slice(0, 16) : undefined;
    },
  };
}
