import { appendFile, mkdir } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import type { CapsuleRecord } from './capsuleRecord.js';

// One write queue per file, so runs of several sessions append whole lines in order.
const queues = new Map<string, Promise<void>>();

/**
 * Append one record to a JSONL capsule log, creating its folder if needed.
 * @throws {Error} when the file cannot be written (the message names the file and the reason).
 */
export function appendCapsule(path: string, record: CapsuleRecord): Promise<void> {
  const file = resolve(path);
  const line = `${JSON.stringify(record)}\n`;
  const previous = queues.get(file) ?? Promise.resolve();
  const next = previous.then(async () => {
    try {
      await mkdir(dirname(file), { recursive: true });
      await appendFile(file, line, 'utf8');
    } catch (err) {
      throw new Error(`Cannot write the capsule log ${file}: ${(err as Error).message}. Pick a writable path for the capsule log.`);
    }
  });
  const settled = next.catch(() => undefined);
  queues.set(file, settled);
  void settled.then(() => {
    if (queues.get(file) === settled) queues.delete(file);
  });
  return next;
}
