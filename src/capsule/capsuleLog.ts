import { mkdir, open } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import type { CapsuleRecord } from './capsuleRecord.js';

// One write queue per file, so runs of several sessions of this process append whole lines in order.
const queues = new Map<string, Promise<void>>();

// Each record is ONE write(2) of one whole line on an O_APPEND descriptor: the kernel moves the
// offset to the end and writes under the inode lock, so lines from several processes appending to
// the same local file never interleave (fs.appendFile would split writes above 512 KiB).
async function appendLine(file: string, line: Buffer): Promise<void> {
  const fh = await open(file, 'a');
  try {
    let written = 0;
    while (written < line.length) {
      const { bytesWritten } = await fh.write(line, written, line.length - written);
      if (bytesWritten === 0) throw new Error('the disk accepted no bytes');
      written += bytesWritten;
    }
  } finally {
    await fh.close();
  }
}

/**
 * Append one record to a JSONL capsule log, creating its folder if needed. Safe with several
 * writers (sessions, processes) on the same local file: each record is one whole line.
 * @throws {Error} when the file cannot be written (the message names the file and the reason).
 * @example await appendCapsule('runs.jsonl', record);
 */
export function appendCapsule(path: string, record: CapsuleRecord): Promise<void> {
  const file = resolve(path);
  const line = Buffer.from(`${JSON.stringify(record)}\n`, 'utf8');
  const previous = queues.get(file) ?? Promise.resolve();
  const next = previous.then(async () => {
    try {
      await mkdir(dirname(file), { recursive: true });
      await appendLine(file, line);
    } catch (err) {
      throw new Error(
        `Cannot write the capsule log ${file}: ${(err as Error).message}. Pick a writable path for the capsule log.`,
      );
    }
  });
  const settled = next.catch(() => undefined);
  queues.set(file, settled);
  void settled.then(() => {
    if (queues.get(file) === settled) queues.delete(file);
  });
  return next;
}
