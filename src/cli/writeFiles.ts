import { mkdir, stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import type { RunFile } from '../../schema/result.js';
import { isSafeFileName } from '../../schema/fileName.js';
import { checkOutput, notWritable, writeOutput, type InputFiles } from './outputFile.js';
import { OutputFileError } from './outputFileError.js';
import { terminalSafe } from './terminalSafe.js';

/** How writeRunFiles() may treat what is already in the folder. */
export interface WriteFilesOptions {
  /** Replace a file of the same name already in the folder. @default false */
  force?: boolean;
  /** Files the command reads: never written, even with `force`. @default none */
  inputs?: InputFiles;
}

/**
 * Write a run's files into `dir` (created if missing) and return them with `path` set and
 * `bytes` dropped. Nothing can land outside `dir`: a name must be one safe segment (checked again
 * here, whatever produced it) and the resolved path's folder must be `dir` itself. Nothing already
 * there is destroyed: every target is checked before the first byte is written, a name that exists
 * is refused unless `force` (then the file, or a link planted at that name, is replaced, never
 * followed), and an input of the command is never written. Each file goes to a fresh temporary
 * name and takes its name only when whole.
 * @throws {OutputFileError} OUTPUT_EXISTS (names every file in the way), OUTPUT_IS_INPUT,
 *   OUTPUT_NOT_WRITABLE (`dir` is a file, or cannot be created or written); an Error for an unsafe name.
 * @example const written = await writeRunFiles(result.files ?? [], './out');
 */
export async function writeRunFiles(
  files: RunFile[],
  dir: string,
  options: WriteFilesOptions = {},
): Promise<RunFile[]> {
  const root = resolve(dir);
  const opts = { force: options.force === true, inputs: options.inputs ?? { byId: new Map() } };
  try {
    await mkdir(root, { recursive: true });
    if (!(await stat(root)).isDirectory()) throw Object.assign(new Error('not a folder'), { code: 'ENOTDIR' });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST' || (err as NodeJS.ErrnoException).code === 'ENOTDIR') {
      throw new OutputFileError(
        'OUTPUT_NOT_WRITABLE',
        `--out '${terminalSafe(dir, true)}' is a file, not a folder`,
        'give a folder (it is created when missing)',
      );
    }
    throw notWritable(dir, err);
  }
  const targets = files.map((f) => {
    if (!isSafeFileName(f.name))
      throw new Error(`refusing to write a file named ${JSON.stringify(f.name)}: not a plain file name`);
    const target = join(root, f.name);
    if (dirname(target) !== root) throw new Error(`refusing to write ${JSON.stringify(f.name)} outside ${root}`);
    return target;
  });
  // every target first, so a refusal leaves the folder as it was
  const existing: string[] = [];
  for (const target of targets) {
    try {
      await checkOutput(target, opts);
    } catch (err) {
      if (err instanceof OutputFileError && err.code === 'OUTPUT_EXISTS') existing.push(target);
      else throw err;
    }
  }
  if (existing.length) {
    throw new OutputFileError(
      'OUTPUT_EXISTS',
      `${existing.map((p) => `'${terminalSafe(p, true)}'`).join(', ')} already exist${existing.length === 1 ? 's' : ''}; no file was written`,
      'write into another (or an empty) folder, or pass --force to replace them',
    );
  }
  const out: RunFile[] = [];
  for (const [i, f] of files.entries()) {
    await writeOutput(targets[i]!, opts, (handle) => handle.writeFile(f.bytes ?? new Uint8Array(0)));
    const { bytes: _bytes, ...rest } = f;
    out.push({ ...rest, path: targets[i]! });
  }
  return out;
}
