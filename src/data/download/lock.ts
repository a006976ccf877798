import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { DataError } from '../errors.js';

/**
 * Takes `<file>.lock` (holding our pid) so two downloads never write the same partial file.
 * A lock whose process is gone is stale and taken over.
 * @returns a release function (idempotent).
 * @throws {DataError} DOWNLOAD_IN_PROGRESS when a live process holds it.
 */
export function acquireLock(file: string): () => void {
  const lock = `${file}.lock`;
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(lock, String(process.pid), { flag: 'wx' });
      let held = true;
      return () => {
        if (held) rmSync(lock, { force: true });
        held = false;
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const pid = Number(readFileSync(lock, 'utf8').trim());
      if (Number.isInteger(pid) && pid > 0 && alive(pid)) {
        throw new DataError(
          'DOWNLOAD_IN_PROGRESS',
          `Another download (pid ${pid}) is writing ${file}. Wait for it to finish, or delete ${lock} if that process is gone.`,
        );
      }
      rmSync(lock, { force: true }); // stale: its process died
    }
  }
  throw new DataError('DOWNLOAD_IN_PROGRESS', `Could not take the lock ${lock}; delete it if no download is running.`);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
