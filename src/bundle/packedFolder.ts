import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeDataDir } from '../data/dataDir.js';
import { openDataset } from '../data/openDataset.js';
import { SbirtoolsValidationError } from '../core/errors.js';
import { DATA_DIR_MANIFEST, parseManifest } from '../data/pack/manifest.js';
import { packFolder } from '../edge/folderSource.js';
import type { BundleData } from './targets.js';

/**
 * A data folder to embed in an edge bundle, packed into one file (embeddedFolder() reads it): the
 * given folder, or the synthetic sample built now.
 * @throws {SbirtoolsValidationError} when the folder is not one this version reads.
 */
export async function packedFolder(data: Exclude<BundleData, { kind: 'url' }>): Promise<Uint8Array> {
  let dir: string;
  let tmp: string | undefined;
  if (data.kind === 'folder') {
    dir = data.dir;
  } else {
    tmp = mkdtempSync(join(tmpdir(), 'sbirtools-edge-data-'));
    dir = (
      await writeDataDir(join(tmp, 'data'), { kind: 'synthetic', cacheDir: tmp, origin: 'synthetic' }, openDataset)
    ).dir;
  }
  try {
    const text = existsSync(join(dir, DATA_DIR_MANIFEST)) ? readFileSync(join(dir, DATA_DIR_MANIFEST), 'utf8') : '';
    const manifest = text ? parseManifest(text) : 'no sbirtools-data.json';
    if (typeof manifest === 'string') {
      throw new SbirtoolsValidationError(
        `--data ${dir}: not a data folder this version reads (${manifest}). Write it with \`sbirtools build-data <dir>\`.`,
      );
    }
    return packFolder([
      { path: DATA_DIR_MANIFEST, bytes: new TextEncoder().encode(text) },
      ...manifest.columns.map((c) => ({ path: c.file, bytes: readFileSync(join(dir, c.file)) })),
    ]);
  } finally {
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  }
}
