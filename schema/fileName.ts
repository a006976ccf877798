/** A saved file's name: one path segment of letters, digits, `_`, `-`, `.`, no `..`, at most 128 characters. */
export const SAFE_FILE_NAME = /^(?!.*\.\.)[A-Za-z0-9_][A-Za-z0-9._-]{0,127}$/;

/** True for a name that can only ever mean a file directly inside an output folder. */
export function isSafeFileName(name: unknown): name is string {
  return typeof name === 'string' && SAFE_FILE_NAME.test(name);
}

/** Most files one run may save (the host's FileSink enforces it; prelude/output/files.ts checks the same number for the guest). */
export const MAX_FILES_PER_RUN = 200;
