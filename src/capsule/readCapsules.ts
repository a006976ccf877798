import { readFile } from 'node:fs/promises';
import { CapsuleRecordSchema, type CapsuleRecord } from './capsuleRecord.js';

/** A capsule record with the 1-based line of the file it came from. */
export interface CapsuleEntry {
  line: number;
  record: CapsuleRecord;
}

/**
 * Read every record of a JSONL capsule log. Blank lines are skipped.
 * @throws {Error} when the file cannot be read or a line is not a capsule record (the message names the line).
 * @example const entries = await readCapsules('runs.jsonl');
 */
export async function readCapsules(path: string): Promise<CapsuleEntry[]> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    throw new Error(
      `Cannot read the capsule log ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
    );
  }
  const entries: CapsuleEntry[] = [];
  text.split('\n').forEach((raw, i) => {
    if (raw.trim() === '') return;
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch {
      throw new Error(`${path}:${i + 1} is not valid JSON; a capsule log has one JSON record per line.`);
    }
    const parsed = CapsuleRecordSchema.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new Error(
        `${path}:${i + 1} is not a capsule record (${issue?.path.join('.') || 'record'}: ${issue?.message}).`,
      );
    }
    entries.push({ line: i + 1, record: parsed.data });
  });
  return entries;
}
