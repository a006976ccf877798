import type { CapsuleRecord } from '../capsule/capsuleRecord.js';
import type { TextField } from './renderLimits.js';

/**
 * The whole text of one field of a record, as the log holds it (what a page cuts): the code,
 * stdout, stderr, the value (its text, else its JSON), or the error (type, message, hint).
 * Undefined when the record has no such output.
 * @example fullText(record, 'stdout')
 */
export function fullText(record: CapsuleRecord, field: TextField): string | undefined {
  const o = record.outputs;
  switch (field) {
    case 'code':
      return record.code;
    case 'stdout':
      return o?.stdout || undefined;
    case 'stderr':
      return o?.stderr || undefined;
    case 'value':
      return o?.valueText ?? (o?.value !== undefined ? JSON.stringify(o.value, null, 2) : undefined);
    case 'error':
      return o?.error
        ? [`${o.error.type}: ${o.error.message}`, o.error.hint ? `hint: ${o.error.hint}` : '']
            .filter(Boolean)
            .join('\n')
        : undefined;
  }
}
