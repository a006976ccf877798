/**
 * Files a run produces (to_csv, to_parquet, to_arrow, to_json, save_chart): each is handed to the
 * host at once through the bridge as bytes (a Uint8Array, copied across the isolate boundary as
 * binary), checked here first so the code gets a clear error, and checked again by the host, which
 * enforces the name rule and the per-run byte cap (`maxFileBytes`) whatever happens in here.
 */
import { MAX_FILES_PER_RUN } from '../../schema/fileName.js';
import { GuestError } from '../errors/guestError.js';

/** The host's file callback: (name, media type, bytes). */
export type SaveFile = (name: string, mediaType: string, bytes: Uint8Array) => void;

/** What to_csv() & co. return: a small description of the file, printed like any object. */
export interface SavedFile {
  name: string;
  mediaType: string;
  size: number;
}

const state = { save: null as SaveFile | null, cap: 0, sizes: new Map<string, number>() };

export { MAX_FILES_PER_RUN };

/** A file name: one path segment of letters, digits, `_`, `-`, `.` (no `..`), at most 128 characters. */
export const FILE_NAME = /^(?!.*\.\.)[A-Za-z0-9_][A-Za-z0-9._-]{0,127}$/;

/** Installs the host callback and the per-run cap (once, at boot). */
export function setFileSink(save: SaveFile | null, capBytes: number): void {
  state.save = save;
  state.cap = capBytes;
}

/** Forgets this run's files (the host starts a new list for every run too). */
export function resetFiles(): void {
  state.sizes = new Map();
}

/**
 * Checks a file name for the guest; returns it with `ext` appended when it has no extension.
 * @throws {GuestError} FileNameError for a name that is a path, empty, too long or has odd characters.
 */
export function fileName(name: unknown, fallback: string, ext: string): string {
  const n = name === undefined || name === null ? fallback : name;
  if (typeof n !== 'string' || !FILE_NAME.test(n)) {
    throw new GuestError(
      'FileNameError',
      `Invalid file name ${typeof n === 'string' ? JSON.stringify(n.slice(0, 200)) : typeof n}: a file name is one segment of letters, digits, '_', '-' and '.', at most 128 characters`,
      `Pass a plain name such as 'result${ext}': no folders, '..', '/', '\\' or NUL; the host decides where files are written.`,
    );
  }
  return /\.[A-Za-z0-9]{1,10}$/.test(n) ? n : n + ext;
}

/**
 * Throws unless this sandbox takes files (checked before a writer spends time on one).
 * @throws {GuestError} FileError.
 */
export function requireFiles(): void {
  if (!state.save) throw noFiles();
}

function noFiles(): GuestError {
  return new GuestError(
    'FileError',
    'Files cannot be saved in this sandbox',
    'Return the data as the value of the run instead.',
  );
}

/** Bytes a file named `name` may still take in this run. */
export function fileBytesLeft(_name: string): number {
  let used = 0;
  for (const v of state.sizes.values()) used += v;
  return Math.max(0, state.cap - used);
}

/**
 * Throws when `name` was already saved in this run or the run already saved MAX_FILES_PER_RUN
 * files: a second save under one name would silently drop the first file.
 * @throws {GuestError} FileExistsError, FileLimitError.
 */
export function checkNewFile(name: string): void {
  if (state.sizes.has(name)) {
    throw new GuestError(
      'FileExistsError',
      `A file named ${JSON.stringify(name)} was already saved in this run`,
      `Give each file of a run its own name, e.g. '${name.replace(/(\.[A-Za-z0-9]+)?$/, '-2$1')}'; saving the same name again would drop the first file.`,
    );
  }
  if (state.sizes.size >= MAX_FILES_PER_RUN) {
    throw new GuestError(
      'FileLimitError',
      `Saving ${name} would pass this run's limit of ${MAX_FILES_PER_RUN} files`,
      'Save fewer, larger files: put the rows of several tables in one (e.g. with a column naming the group) or return the data as the value.',
    );
  }
}

/**
 * Throws when `bytes` more for `name` would pass the run's cap (`atLeast`: a writer stopped early,
 * the file would have been larger still).
 * @throws {GuestError} FileLimitError.
 */
export function checkFileSize(name: string, bytes: number, atLeast = false): void {
  const left = fileBytesLeft(name);
  if (bytes <= left) return;
  const used = state.cap - left;
  throw new GuestError(
    'FileLimitError',
    `Saving ${name} (${atLeast ? 'more than ' : ''}${bytes} bytes) would pass this run's limit of ${state.cap} bytes of files (${used} bytes already saved)`,
    'Save fewer rows or columns (select/filter/aggregate first), use to_parquet (smaller than CSV/JSON), or raise the maxFileBytes limit.',
  );
}

/**
 * Hands a file to the host. A name may be saved once per run.
 * @throws {GuestError} FileExistsError for a name saved before, FileLimitError past the run's byte or file-count cap, FileError when files are not available.
 */
export function saveFile(name: string, mediaType: string, bytes: Uint8Array): SavedFile {
  const save = state.save;
  if (!save) throw noFiles();
  checkNewFile(name);
  checkFileSize(name, bytes.byteLength);
  save(name, mediaType, bytes);
  state.sizes.set(name, bytes.byteLength);
  return { name, mediaType, size: bytes.byteLength };
}
