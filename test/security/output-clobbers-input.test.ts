// Attack: make a command write its output over one of its own inputs, or over a file the user
// already had: `report -o` onto the capsule log it reads (by the same path, a `./` spelling, a
// symbolic link, a hard link), `export -o` onto the --data CSV, `run --svg`/`--out` onto the code
// file or a --table file. Inputs are compared by device and inode and never written, even with
// --force (OUTPUT_IS_INPUT, exit 2); any other existing file is kept unless --force
// (OUTPUT_EXISTS, exit 2). The input is byte-for-byte unchanged afterwards.
import { linkSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { record } from '../unit/viewer/fixtures.js';
import { cli } from '../e2e/helpers/cli.js';
import { ROOT } from '../e2e/helpers/processes.js';

const dir = mkdtempSync(join(tmpdir(), 'sbirtools-clobber-'));
const log = join(dir, 'runs.jsonl');
const LOG_TEXT = `${JSON.stringify(record({ outputs: { stdout: 'hello' } }))}\n`;
writeFileSync(log, LOG_TEXT);
symlinkSync(log, join(dir, 'link.html'));
linkSync(log, join(dir, 'hard.html'));
const csv = join(dir, 'awards.csv');
const CSV_TEXT = 'Company,Agency,Award Year,Award Amount\nAcme,DOD,2020,5\n';
writeFileSync(csv, CSV_TEXT);

describe('an output onto an input', () => {
  // cli() runs in the repository root: a relative spelling of the log from there
  const spellings = {
    'the same path': log,
    'a ./ spelling': `./${relative(ROOT, log)}`,
    'a symbolic link to it': join(dir, 'link.html'),
    'a hard link to it': join(dir, 'hard.html'),
  };
  for (const [name, target] of Object.entries(spellings)) {
    it(`report -o refuses ${name} of the log, even with --force`, async () => {
      const r = await cli(['report', log, '-o', target, '--force']);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/OUTPUT_IS_INPUT: .*an input of this command/);
      expect(readFileSync(log, 'utf8')).toBe(LOG_TEXT);
    });
  }

  it('export -o refuses the --data CSV (through a link too), even with --force', async () => {
    symlinkSync(csv, join(dir, 'csv-link.csv'));
    for (const target of [csv, join(dir, 'csv-link.csv')]) {
      const r = await cli(['export', '--format', 'csv', '--data', csv, '-o', target, '--force']);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/OUTPUT_IS_INPUT/);
    }
    expect(readFileSync(csv, 'utf8')).toBe(CSV_TEXT);
  });

  it('run --svg refuses the code file, and --out refuses a --table file in the folder, even with --force', async () => {
    const code = join(dir, 'chart.js');
    const CODE =
      "chart({ mark: 'bar', data: { values: [{ a: 1 }] }, encoding: { x: { field: 'a', type: 'quantitative' } } })";
    writeFileSync(code, CODE);
    const svg = await cli(['run', code, '--svg', code, '--force']);
    expect(svg.code).toBe(2);
    expect(svg.stderr).toMatch(/OUTPUT_IS_INPUT/);
    expect(readFileSync(code, 'utf8')).toBe(CODE);

    const out = join(dir, 'out');
    mkdirSync(out);
    const table = join(out, 'extra.csv');
    writeFileSync(table, 'a\n1\n');
    const r = await cli([
      'run',
      '--table',
      `extra=${table}`,
      '--out',
      out,
      '--force',
      '--code',
      "to_csv(extra, 'extra.csv')",
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/OUTPUT_IS_INPUT/);
    expect(readFileSync(table, 'utf8')).toBe('a\n1\n');
  });
});

describe('an output onto an existing file', () => {
  it('report keeps it without --force and replaces it with --force', async () => {
    const target = join(dir, 'mine.html');
    writeFileSync(target, 'my notes');
    const kept = await cli(['report', log, '-o', target]);
    expect(kept.code).toBe(2);
    expect(kept.stderr).toMatch(/OUTPUT_EXISTS: .*already exists.*--force/);
    expect(readFileSync(target, 'utf8')).toBe('my notes');
    const replaced = await cli(['report', log, '-o', target, '--force']);
    expect(replaced.code).toBe(0);
    expect(readFileSync(target, 'utf8')).toMatch(/^<!doctype html>/);
  });

  it('export keeps it without --force', async () => {
    const target = join(dir, 'mine.parquet');
    writeFileSync(target, 'mine');
    const r = await cli(['export', '--data', csv, '-o', target]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/OUTPUT_EXISTS/);
    expect(readFileSync(target, 'utf8')).toBe('mine');
  });
});
