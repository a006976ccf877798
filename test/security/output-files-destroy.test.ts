// Attack: make a run's files destroy what is already on disk, or flood it: a name already in the
// --out folder, the same name saved twice in one run, tens of thousands of files, an output path
// that is a folder, a file where a folder should be, or a path under a file. Nothing is replaced
// without --force (OUTPUT_EXISTS, every file in the way named, none written), a second save of a
// name is FileExistsError, a run saves at most 200 files, and a path that cannot be written is
// OUTPUT_NOT_WRITABLE (exit 2) with the reason, never INTERNAL_ERROR (exit 70).
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli } from '../e2e/helpers/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'sbirtools-files-out-'));

describe('run --out', () => {
  it("never replaces a file already in the folder without --force, and writes none of the run's files", async () => {
    const out = join(dir, 'keep');
    mkdirSync(out);
    writeFileSync(join(out, 'b.csv'), "the user's file");
    const r = await cli([
      'run',
      '--out',
      out,
      '--code',
      "to_csv(aq.table({ a: [1] }), 'a.csv'); to_csv(aq.table({ a: [2] }), 'b.csv')",
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/OUTPUT_EXISTS: '.*b\.csv' already exists; no file was written/);
    expect(readFileSync(join(out, 'b.csv'), 'utf8')).toBe("the user's file");
    expect(readdirSync(out)).toEqual(['b.csv']);
    const forced = await cli([
      'run',
      '--out',
      out,
      '--force',
      '--code',
      "to_csv(aq.table({ a: [1] }), 'a.csv'); to_csv(aq.table({ a: [2] }), 'b.csv')",
    ]);
    expect(forced.code).toBe(0);
    expect(readFileSync(join(out, 'b.csv'), 'utf8')).toBe('a\n2\n');
    expect(readdirSync(out).sort()).toEqual(['a.csv', 'b.csv']);
  });

  it('saving one name twice in a run is FileExistsError; the first file is written', async () => {
    const out = join(dir, 'twice');
    const r = await cli([
      'run',
      '--out',
      out,
      '--code',
      "to_csv(aq.table({ a: [1] }), 'x.csv'); to_json(aq.table({ a: [2] }), 'x.csv')",
    ]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/FileExistsError: A file named "x\.csv" was already saved in this run/);
    expect(readFileSync(join(out, 'x.csv'), 'utf8')).toBe('a\n1\n');
  });

  it('tens of thousands of files: stopped at 200', async () => {
    const out = join(dir, 'many');
    const r = await cli([
      'run',
      '--out',
      out,
      '--code',
      "const t = aq.table({ a: [1] }); for (let i = 0; i < 50000; i++) to_json(t, 'f' + i + '.json')",
    ]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/FileLimitError: .*limit of 200 files/);
    expect(readdirSync(out)).toHaveLength(200);
  });

  it('--out naming a file is OUTPUT_NOT_WRITABLE, and the file is untouched', async () => {
    const file = join(dir, 'a-file');
    writeFileSync(file, 'x');
    const r = await cli(['run', '--out', file, '--code', "to_csv(aq.table({ a: [1] }), 'a.csv')"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/OUTPUT_NOT_WRITABLE: --out '.*a-file' is a file, not a folder/);
    expect(readFileSync(file, 'utf8')).toBe('x');
  });
});

describe('export and report paths that cannot be written', () => {
  it('export onto a folder is OUTPUT_NOT_WRITABLE (exit 2), not INTERNAL_ERROR', async () => {
    const folder = join(dir, 'folder');
    mkdirSync(folder);
    for (const extra of [[], ['--force']]) {
      const r = await cli(['export', '--format', 'csv', '-o', folder, ...extra]);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/OUTPUT_NOT_WRITABLE: '.*folder' is a folder/);
    }
    expect(readdirSync(folder)).toEqual([]);
  });

  it('a path under a file, or in a missing folder, is OUTPUT_NOT_WRITABLE with the reason', async () => {
    writeFileSync(join(dir, 'plain'), 'x');
    const under = await cli(['export', '--format', 'arrow', '-o', join(dir, 'plain', 'x.arrow')]);
    expect(under.code).toBe(2);
    expect(under.stderr).toMatch(/OUTPUT_NOT_WRITABLE: .*not a folder/);
    const log = join(dir, 'runs.jsonl');
    await cli(['run', '--capsule-log', log, '--capsule-outputs', '--code', '1']);
    const missing = await cli(['report', log, '-o', join(dir, 'no', 'such', 'r.html')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/OUTPUT_NOT_WRITABLE: .*does not exist/);
    const svg = await cli([
      'run',
      '--svg',
      join(dir, 'plain', 'c.svg'),
      '--code',
      "chart({ mark: 'bar', data: { values: [{ a: 1 }] }, encoding: { x: { field: 'a', type: 'quantitative' } } })",
    ]);
    expect(svg.code).toBe(2);
    expect(svg.stderr).toMatch(/OUTPUT_NOT_WRITABLE/);
  });
});
