import { constants, readdirSync, statSync, type Stats } from 'node:fs';
import { link, lstat, open, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { OutputFileError } from './outputFileError.js';
import { terminalSafe } from './terminalSafe.js';

/** The files a command reads, by device and inode (so a link or `./x` spelling of one is caught). */
export interface InputFiles {
  /** `dev:ino` -> the path as the user gave it. */
  byId: Map<string, string>;
}

const idOf = (s: Stats) => `${s.dev}:${s.ino}`;
const shown = (p: string) => `'${terminalSafe(p)}'`;

/**
 * The identities of the files a command reads: each path that exists, followed through links; a
 * folder (a `build-data` directory) adds the files directly inside it. Missing paths are skipped.
 * @example const inputs = inputFiles(['runs.jsonl']);
 */
export function inputFiles(paths: Array<string | undefined>): InputFiles {
  const byId = new Map<string, string>();
  for (const p of paths) {
    if (!p || /^https?:\/\//i.test(p)) continue;
    let s: Stats;
    try {
      s = statSync(p);
    } catch {
      continue;
    }
    byId.set(idOf(s), p);
    if (s.isDirectory()) {
      for (const name of safeReaddir(p)) {
        try {
          byId.set(idOf(statSync(join(p, name))), join(p, name));
        } catch {
          // vanished meanwhile
        }
      }
    }
  }
  return { byId };
}

function safeReaddir(p: string): string[] {
  try {
    return readdirSync(p).slice(0, 10_000);
  } catch {
    return [];
  }
}

/**
 * Checks that `path` may be written: not a folder, not one of `inputs` (whatever the spelling or
 * link leading to it, even with `force`), and not an existing file unless `force`.
 * @throws {OutputFileError} OUTPUT_NOT_WRITABLE, OUTPUT_IS_INPUT, OUTPUT_EXISTS.
 */
export async function checkOutput(path: string, opts: { force: boolean; inputs: InputFiles }): Promise<void> {
  let link: Stats;
  try {
    link = await lstat(path);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return;
    throw notWritable(path, err);
  }
  let target: Stats | undefined = link;
  if (link.isSymbolicLink()) target = await stat(path).catch(() => undefined); // a dangling link has no target
  for (const s of [link, target]) {
    const input = s && opts.inputs.byId.get(idOf(s));
    if (input !== undefined) {
      throw new OutputFileError(
        'OUTPUT_IS_INPUT',
        `${shown(path)} is ${input === path ? '' : `the same file as ${shown(input)}, `}an input of this command`,
        'write the output to another file; an input is never overwritten, even with --force',
      );
    }
  }
  if (target?.isDirectory())
    throw new OutputFileError(
      'OUTPUT_NOT_WRITABLE',
      `${shown(path)} is a folder`,
      'give a file name inside it, e.g. ' + shown(join(path, basename(path) || 'out')),
    );
  if (!opts.force)
    throw new OutputFileError(
      'OUTPUT_EXISTS',
      `${shown(path)} already exists`,
      'choose another name, or pass --force to replace it',
    );
}

/**
 * The typed error for a failed write of `path`, naming the reason in words (folder missing,
 * permission, read-only file system, disk full...).
 */
export function notWritable(path: string, err: unknown): OutputFileError {
  if (err instanceof OutputFileError) return err;
  const code = (err as NodeJS.ErrnoException)?.code ?? '';
  const why: Record<string, string> = {
    ENOENT: `its folder ${shown(dirname(resolve(path)))} does not exist`,
    ENOTDIR: 'a part of the path is not a folder',
    EISDIR: 'it is a folder',
    EACCES: 'permission denied',
    EPERM: 'permission denied',
    EROFS: 'the file system is read-only',
    ENOSPC: 'the disk is full',
    EDQUOT: 'the disk quota is used up',
    ENAMETOOLONG: 'the name is too long',
    ELOOP: 'it is a loop of symbolic links',
  };
  return new OutputFileError(
    'OUTPUT_NOT_WRITABLE',
    `cannot write ${shown(path)}: ${why[code] ?? terminalSafe(code || (err as Error)?.message || String(err))}`,
    'give a path in a folder you can write to',
  );
}

/**
 * Writes a file without ever clobbering what is not meant to be replaced: `write` fills a fresh
 * temporary file beside `path` (O_EXCL | O_NOFOLLOW), which then takes the name: with `force` by
 * rename (an existing file, or a link planted there, is replaced, never followed), without it by
 * link(2), which fails if anything appeared at `path` meanwhile. Nothing partial is left.
 * @throws {OutputFileError} as {@link checkOutput}, or OUTPUT_NOT_WRITABLE when the write fails.
 * @example await writeOutput('report.html', { force: false, inputs }, (fh) => fh.writeFile(page));
 */
export async function writeOutput(
  path: string,
  opts: { force: boolean; inputs: InputFiles },
  write: (file: import('node:fs/promises').FileHandle, tmp: string) => Promise<void>,
): Promise<void> {
  await checkOutput(path, opts);
  const tmp = join(dirname(path), `.${basename(path)}.${process.pid}.${Math.random().toString(36).slice(2, 8)}.tmp`);
  let handle;
  try {
    handle = await open(tmp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o644);
  } catch (err) {
    throw notWritable(path, err);
  }
  try {
    try {
      await write(handle, tmp);
    } finally {
      await handle.close();
    }
    if (opts.force) await rename(tmp, path);
    else {
      try {
        await link(tmp, path);
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        if (code === 'EEXIST') await checkOutput(path, opts); // appeared meanwhile: the same typed refusal
        if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP') throw err;
        // a file system without hard links: check once more, then rename
        await checkOutput(path, opts);
        await rename(tmp, path);
      }
      await rm(tmp, { force: true });
    }
  } catch (err) {
    await rm(tmp, { force: true });
    throw notWritable(path, err);
  }
}
