import { createHash } from 'node:crypto';
import type { RunResult } from '../../schema/result.js';

/** `sha256:<hex>` of a UTF-8 string. */
export function sha256(text: string): string {
  return `sha256:${createHash('sha256').update(text, 'utf8').digest('hex')}`;
}

/**
 * Hash of everything a run returned besides its output: the value, its text, the returned table
 * and display() tables. Two runs with equal hashes returned the same thing.
 */
export function valueHash(result: RunResult): string {
  const table = (t: NonNullable<RunResult['table']>) => ({ columns: t.columns, rows: t.rows, totalRows: t.totalRows });
  return sha256(
    JSON.stringify({
      value: result.value ?? null,
      valueText: result.valueText ?? null,
      table: result.table ? table(result.table) : null,
      displays: (result.displays ?? []).map(table),
    }),
  );
}
