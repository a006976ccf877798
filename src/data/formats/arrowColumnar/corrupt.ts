import { DataError } from '../../errors.js';

/** What to do about a damaged Arrow file (the hint of every DATA_CORRUPT the Arrow reader raises). */
export const ARROW_DAMAGED =
  'The file is damaged or truncated: write it again (an Arrow IPC file starts and ends with ARROW1; a stream starts with 0xFFFFFFFF).';

/**
 * The DataError for a column whose buffers do not hold what the file's headers declare
 * (DATA_CORRUPT, with the Arrow hint): never a short, shifted or guessed column.
 * @example throw corrupt('t.arrow', 'name', 'row 7 of a record batch ends past its text bytes');
 */
export function corrupt(file: string, column: string, detail: string): DataError {
  return new DataError('DATA_CORRUPT', `${file}: column '${column}' is damaged: ${detail}`, { hint: ARROW_DAMAGED });
}
