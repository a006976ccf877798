// Attack: file names that try to leave the output folder: `../`, absolute paths, backslashes,
// NUL, a leading dot, a symlink planted at the target name. The guest's to_csv/save_chart refuse
// them with FileNameError and a hint; the host's FileSink refuses them again whatever the guest
// did; and `sbirtools run --out` writes through a temporary name and a rename, so nothing is
// written outside the folder and a planted symlink is replaced, never followed.
import { spawnSync } from 'node:child_process';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, type Sandbox } from '../../src/index.js';
import { FileSink } from '../../src/runtime/engines/fileSink.js';
import { writeRunFiles } from '../../src/cli/writeFiles.js';
import { CLI, cliEnv } from '../e2e/helpers/processes.js';
import { expectHealthy } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'sbirtools-names-'));
let box: Sandbox;
beforeAll(async () => {
  box = await createSandbox();
});
afterAll(async () => {
  await box.close();
  rmSync(dir, { recursive: true, force: true });
});

const BAD = [
  '../escape.csv',
  '../../etc/passwd',
  '/tmp/abs.csv',
  'a/b.csv',
  'a\\\\b.csv',
  'nul\\u0000.csv',
  '.hidden',
  '..',
  'x'.repeat(200),
];

describe('output names that try to leave the output folder', () => {
  for (const name of BAD) {
    it(`the guest refuses ${JSON.stringify(name).slice(0, 40)} with FileNameError`, async () => {
      const r = await box.run(`to_csv(aq.table({ a: [1] }), "${name}")`);
      expect(r.ok).toBe(false);
      expect(r.error).toMatchObject({ type: 'RUNTIME_ERROR', name: 'FileNameError' });
      expect(r.error?.hint).toMatch(/plain name/);
      expect(r.files).toBeUndefined();
    });
  }

  it('save_chart refuses a path too', async () => {
    const r = await box.run("plot.bar(aq.table({ a: ['x'], n: [1] }), 'a', 'n'); save_chart('../chart.svg')");
    expect(r.error).toMatchObject({ name: 'FileNameError' });
  });

  it('the host FileSink refuses them whatever the guest sends', () => {
    const sink = new FileSink(1 << 20);
    for (const name of ['../x', '/abs', 'a/b', 'a\\b', 'a\u0000b', '..', '', 'x'.repeat(200), 42]) {
      expect(() => sink.add(name, 'text/csv', new Uint8Array(1)), String(name)).toThrow(/Invalid file name/);
    }
    expect(sink.files()).toEqual([]);
  });

  it('writeRunFiles refuses an unsafe name and a planted symlink; with force it replaces the link instead of following it', async () => {
    const out = join(dir, 'out');
    mkdirSync(out);
    const victim = join(dir, 'victim.txt');
    writeFileSync(victim, 'keep me');
    symlinkSync(victim, join(out, 'result.csv'));
    await expect(
      writeRunFiles(
        [{ name: '../victim.txt', mediaType: 'text/plain', size: 3, bytes: new Uint8Array([1, 2, 3]) }],
        out,
      ),
    ).rejects.toThrow(/refusing/);
    const file = { name: 'result.csv', mediaType: 'text/csv', size: 2, bytes: new TextEncoder().encode('a\n') };
    await expect(writeRunFiles([file], out)).rejects.toMatchObject({ code: 'OUTPUT_EXISTS' });
    expect(lstatSync(join(out, 'result.csv')).isSymbolicLink()).toBe(true);
    const written = await writeRunFiles([file], out, { force: true });
    expect(readFileSync(victim, 'utf8')).toBe('keep me');
    expect(lstatSync(join(out, 'result.csv')).isSymbolicLink()).toBe(false);
    expect(readFileSync(written[0]!.path!, 'utf8')).toBe('a\n');
    expect(readdirSync(out)).toEqual(['result.csv']);
  });

  it('sbirtools run --out writes only inside the folder', () => {
    const out = join(dir, 'cli-out');
    const r = spawnSync(
      process.execPath,
      [
        CLI,
        'run',
        '--out',
        out,
        '--code',
        "to_csv(aq.table({ a: [1, 2] }), 'ok.csv'); to_json(aq.table({ a: [1] }), '../bad.json')",
      ],
      { env: cliEnv(), encoding: 'utf8' },
    );
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/FileNameError/);
    // the file saved before the error is kept, inside the folder; nothing is written beside it
    expect(readdirSync(out)).toEqual(['ok.csv']);
    expect(existsSync(join(dir, 'bad.json'))).toBe(false);
  });

  it('the host and the session are unharmed', async () => {
    await expectHealthy(box);
  });
});
