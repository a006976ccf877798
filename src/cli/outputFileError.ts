import { SbirtoolsError } from '../core/errors.js';

/** Why the CLI refused or failed to write a file (one row each in docs/errors.md). */
export type OutputFileErrorCode = 'OUTPUT_EXISTS' | 'OUTPUT_IS_INPUT' | 'OUTPUT_NOT_WRITABLE';

/**
 * A file the CLI was asked to write (`report -o`, `export -o`, `run --out`/`--svg`) that it will
 * not or cannot write: it exists and `--force` was not given, it is one of the command's own
 * inputs (never written, even with `--force`), or the path is a folder or cannot be written.
 * The CLI exits 2 with the code and the message; nothing is left half-written.
 * @example throw new OutputFileError('OUTPUT_EXISTS', "'a.csv' exists", 'pass --force to replace it')
 */
export class OutputFileError extends SbirtoolsError {
  constructor(
    code: OutputFileErrorCode,
    message: string,
    readonly hint: string,
  ) {
    super(code, `${message}; ${hint}`);
  }
}
