import { existsSync, readFileSync, statSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { SYNTHETIC_DEFAULTS, SYNTHETIC_VERSION, syntheticCsv, writeSyntheticCsv } from './synthetic.js';

/** Where the embedded sample is generated: versioned, so a generator change makes a new file. */
export function syntheticSamplePath(cacheDir: string): string {
  return join(cacheDir, 'synthetic', `award_data-synthetic-v${SYNTHETIC_VERSION}-seed${SYNTHETIC_DEFAULTS.seed}.csv`);
}

/**
 * The embedded synthetic sample as a file in the cache directory, generated on first use
 * (~10 MB, ~0.2 s, deterministic), or as bytes in memory when that directory is not writable.
 */
export async function ensureSyntheticSample(
  cacheDir: string,
  onProgress?: (p: { phase: 'generate' }) => void,
): Promise<{ csv: string | Uint8Array; warning?: string }> {
  const path = syntheticSamplePath(cacheDir);
  if (isComplete(path)) return { csv: path };
  onProgress?.({ phase: 'generate' });
  try {
    await mkdir(join(cacheDir, 'synthetic'), { recursive: true });
    // writeSyntheticCsv renames into place; the sidecar records the size, so a sample truncated
    // later (disk full, a user's edit) is regenerated, not served short
    const { bytes } = await writeSyntheticCsv(path);
    await writeFile(`${path}.json`, JSON.stringify({ bytes }));
    return { csv: path };
  } catch (err) {
    const bytes = Buffer.from([...syntheticCsv()].join(''), 'utf8');
    return {
      csv: bytes,
      warning: `the synthetic sample could not be written to ${path} (${(err as Error).message}); it lives in memory`,
    };
  }
}

/** The sample exists with the size its generator recorded. */
function isComplete(path: string): boolean {
  try {
    if (!existsSync(path)) return false;
    const { bytes } = JSON.parse(readFileSync(`${path}.json`, 'utf8')) as { bytes?: unknown };
    return typeof bytes === 'number' && statSync(path).size === bytes;
  } catch {
    return false;
  }
}
