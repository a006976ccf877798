import { existsSync } from 'node:fs';
import { fullText } from './fullText.js';
import { LogSource } from './logSource.js';
import type { TextField } from './renderLimits.js';
import { ReportError } from './renderReport.js';

/**
 * The full text of one field of the run on line `line` of a capsule log: what a report or page
 * cut ("full text: sbirtools report <log> --line N --field F -o -").
 * @throws {ReportError} when the log is missing, the line is not a record, or the run has no such output.
 * @example await readFullText('runs.jsonl', 12, 'stdout')
 */
export async function readFullText(logPath: string, line: number, field: TextField): Promise<string> {
  if (!existsSync(logPath)) throw new ReportError(`${logPath} does not exist.`);
  const log = new LogSource(logPath, { keepAllRows: true });
  await log.refresh();
  const entry = log.entries.find((e) => e.line === line);
  if (!entry)
    throw new ReportError(
      `${logPath} has no record on line ${line} (its records are on lines ${log.entries[0]?.line ?? '-'} to ${log.entries.at(-1)?.line ?? '-'}).`,
    );
  if (!entry.record) throw new ReportError(entry.problem ?? `Line ${line} is not a capsule record.`);
  const text = fullText(entry.record, field);
  if (text === undefined)
    throw new ReportError(
      `The run on line ${line} has no ${field}${entry.record.outputs ? '' : ' (it was logged without --capsule-outputs)'}.`,
    );
  return text;
}
