import { DataError } from '../errors.js';

/** The caps checkColumnNames applies. */
export interface ColumnNameCaps {
  maxColumns: number;
  maxColumnNameChars: number;
}

/**
 * Column names are data: any name is kept exactly (`__proto__`, `constructor`, control
 * characters, any script), except those refused here with an error that names the column: more
 * columns than `maxColumns`, an empty name (Arquero's select and rename drop a column named ''),
 * a name longer than `maxColumnNameChars`, and a name given twice.
 * @throws {DataError} DATA_TOO_LARGE (columns), DATA_UNSUPPORTED (empty, too long), DATA_CORRUPT (twice).
 * @example checkColumnNames(['a', 'b'], 't.parquet', DEFAULT_DECODE_CAPS)
 */
export function checkColumnNames(names: readonly string[], file: string, caps: ColumnNameCaps): void {
  if (names.length > caps.maxColumns) {
    throw new DataError('DATA_TOO_LARGE', `${file}: ${names.length} columns, more than ${caps.maxColumns}`, {
      hint: 'Load fewer columns: select the ones you need before writing the file, or reshape it long (one row per key and value).',
    });
  }
  const seen = new Set<string>();
  names.forEach((name, i) => {
    if (name === '')
      throw new DataError('DATA_UNSUPPORTED', `${file}: column ${i + 1} has an empty name`, {
        hint: 'Give every column a name before loading the file.',
      });
    if (name.length > caps.maxColumnNameChars) {
      throw new DataError(
        'DATA_UNSUPPORTED',
        `${file}: column ${i + 1}'s name is ${name.length} characters long, over the ${caps.maxColumnNameChars}-character limit (it starts ${quoteName(name)})`,
        { hint: 'Rename the column to something shorter before loading the file.' },
      );
    }
    if (seen.has(name))
      throw new DataError('DATA_CORRUPT', `${file}: column ${quoteName(name)} appears twice`, {
        hint: 'Give every column a distinct name.',
      });
    seen.add(name);
  });
}

/** A column name for a message: JSON-quoted (control characters escaped), cut at 80 characters. */
export function quoteName(name: string): string {
  return JSON.stringify(name.length > 80 ? `${name.slice(0, 80)}…` : name).replace(
    /[\u007f-\u009f\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
