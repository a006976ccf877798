// The sha256 worker is an eval worker, and a worker inherits its process's flags: under
// `node --input-type=module` it is evaluated as an ES module. Its source once called require(), so
// the first ingest of the award data in such a process (a user's `node --input-type=module -e`,
// a test's child) failed with "require is not defined in ES module scope".
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from './helpers.js';

const HASH_FILE = new URL('../../../dist/src/data/ingest/hashFile.js', import.meta.url).href;
const dir = tempDir('sbt-hashtype-');
const file = join(dir, 'some.csv');
writeFileSync(file, 'name,amount\nalpha,1\nbeta,2\n'.repeat(1000));
const expected = createHash('sha256').update('name,amount\nalpha,1\nbeta,2\n'.repeat(1000)).digest('hex');

function hashIn(args: string[]): { status: number | null; out: string; err: string } {
  const code = `const { hashFileInWorker } = await import(${JSON.stringify(HASH_FILE)});
  process.stdout.write(await hashFileInWorker(${JSON.stringify(file)}).done);`;
  const r = spawnSync(process.execPath, [...args, '-e', code], { encoding: 'utf8', timeout: 60_000 });
  return { status: r.status, out: r.stdout, err: r.stderr };
}

describe('the sha256 worker of an ingest', () => {
  it('answers in a process whose input type is module, as in a plain one', () => {
    for (const args of [['--input-type=module'], ['--no-node-snapshot', '--input-type=module']]) {
      const r = hashIn(args);
      expect(r.err).toBe('');
      expect(r.out).toBe(expected);
      expect(r.status).toBe(0);
    }
  });

  it('rejects with the reason when the file is missing', () => {
    const code = `const { hashFileInWorker } = await import(${JSON.stringify(HASH_FILE)});
    await hashFileInWorker(${JSON.stringify(join(dir, 'none.csv'))}).done.then(() => console.log('answered'), (e) => console.log('rejected', e.code));`;
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', code], { encoding: 'utf8', timeout: 60_000 });
    expect(r.stdout.trim()).toBe('rejected ENOENT');
  });
});
