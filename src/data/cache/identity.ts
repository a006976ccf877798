import { createHash } from 'node:crypto';
import { closeSync, openSync, readSync, type Stats } from 'node:fs';
import { join } from 'node:path';

const EDGE = 64 * 1024;

/**
 * Identity of a CSV for cache lookups, cheap enough for every open: its path, size, mtime and a
 * sha256 of its first and last 64 KiB. A full-content sha256 is also computed during ingest
 * (DatasetInfo.identity), but hashing 400 MB on every start would cost ~0.25 s.
 * @example identityKey('/data/award_data.csv', statSync('/data/award_data.csv'))
 */
export function identityKey(path: string, stat: Stats): string {
  const hash = createHash('sha256');
  const fd = openSync(path, 'r');
  try {
    const head = Buffer.alloc(Math.min(EDGE, stat.size));
    readSync(fd, head, 0, head.length, 0);
    hash.update(head);
    if (stat.size > EDGE) {
      const tail = Buffer.alloc(Math.min(EDGE, stat.size - EDGE));
      readSync(fd, tail, 0, tail.length, stat.size - tail.length);
      hash.update(tail);
    }
  } finally {
    closeSync(fd);
  }
  return `${path}|${stat.size}|${stat.mtimeMs}|${hash.digest('hex')}`;
}

/** Where the binary cache of the CSV at `csvPath` lives: one file per source path. */
export function cacheFileFor(cacheDir: string, csvPath: string): string {
  const id = createHash('sha256').update(csvPath).digest('hex').slice(0, 16);
  return join(cacheDir, 'columnar', `${id}.sbtc`);
}
