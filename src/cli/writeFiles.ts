import { constants } from 'node:fs';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import type { RunFile } from '../../schema/result.js';
import { isSafeFileName } from '../../schema/fileName.js';

/**
 * Write a run's files into `dir` (created if missing) and return them with `path` set and
 * `bytes` dropped. Nothing can land outside `dir`: a name must be one safe segment (checked again
 * here, whatever produced it), the resolved path's folder must be `dir` itself, and each file is
 * written to a fresh temporary name (O_EXCL | O_NOFOLLOW) and renamed into place, so a symlink
 * planted at the target name is replaced, never followed.
 * @throws {Error} for an unsafe name or when `dir` cannot be written (nothing partial is left).
 * @example const written = await writeRunFiles(result.files ?? [], './out');
 */
export async function writeRunFiles(files: RunFile[], dir: string): Promise<RunFile[]> {
  const root = resolve(dir);
  await mkdir(root, { recursive: true });
  const out: RunFile[] = [];
  for (const f of files) {
    if (!isSafeFileName(f.name)) throw new Error(`refusing to write a file named ${JSON.stringify(f.name)}: not a plain file name`);
    const target = join(root, f.name);
    if (dirname(target) !== root) throw new Error(`refusing to write ${JSON.stringify(f.name)} outside ${root}`);
    const tmp = join(root, `.${f.name}.${process.pid}.tmp`);
    const handle = await open(tmp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o644);
    try {
      await handle.writeFile(f.bytes ?? new Uint8Array(0));
    } catch (err) {
      await handle.close();
      await rm(tmp, { force: true });
      throw err;
    }
    await handle.close();
    await rename(tmp, target);
    const { bytes: _bytes, ...rest } = f;
    out.push({ ...rest, path: target });
  }
  return out;
}
