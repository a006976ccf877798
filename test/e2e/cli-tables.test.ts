// The CLI as a user runs it: export the awards, read them back with --table, save files with --out.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parquetMetadata, parquetReadObjects } from 'hyparquet';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI, cliEnv } from './helpers/processes.js';

const dir = mkdtempSync(join(tmpdir(), 'sbirtools-cli-tables-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const cli = (...args: string[]) =>
  spawnSync(process.execPath, [CLI, ...args], { env: cliEnv(), encoding: 'utf8', cwd: dir });

describe('sbirtools export / run --table / run --out', () => {
  it('exports chosen columns as Parquet that a reader gets back whole', async () => {
    const out = join(dir, 'awards.parquet');
    const r = cli('export', '--format', 'parquet', '--columns', 'Company,Award Amount,Proposal Award Date', '-o', out);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/wrote .*awards\.parquet \(parquet, \d+ rows, 3 columns/);
    const bytes = readFileSync(out);
    const buf = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
    const meta = parquetMetadata(buf);
    expect(meta.schema.slice(1).map((e) => e.name)).toEqual(['Company', 'Award Amount', 'Proposal Award Date']);
    const rows = await parquetReadObjects({ file: buf, metadata: meta, rowEnd: 1 });
    expect(typeof rows[0]!.Company).toBe('string');
    expect(rows[0]!['Proposal Award Date']).toBeInstanceOf(Date);
  });

  it('refuses an unknown column or format with exit 2 and writes nothing', () => {
    const out = join(dir, 'never.parquet');
    const a = cli('export', '--columns', 'Company,Nope', '-o', out);
    expect(a.status).toBe(2);
    expect(a.stderr).toMatch(/unknown column 'Nope'/);
    const b = cli('export', '--format', 'xlsx', '-o', out);
    expect(b.status).toBe(2);
    expect(existsSync(out)).toBe(false);
  });

  it('reads an NDJSON table with --table, joins it and writes files with --out (--json lists their paths)', () => {
    const goals = join(dir, 'goals.ndjson');
    writeFileSync(
      goals,
      '{"Agency":"Department of Defense","target":5}\n{"Agency":"National Science Foundation","target":2}\n',
    );
    const out = join(dir, 'out');
    const r = cli(
      'run',
      '--json',
      '--table',
      `goals=${goals}`,
      '--out',
      out,
      '--code',
      "const j = merge(value_counts(award_data, 'Agency'), goals, { on: 'Agency' }); to_csv(j, 'joined'); to_json(j, 'joined.ndjson'); j.numRows()",
    );
    expect(r.status, r.stderr).toBe(0);
    const result = JSON.parse(r.stdout);
    expect(result.value).toBe(2);
    expect(result.files.map((f: { name: string; path: string; bytes?: unknown }) => [f.name, f.path, f.bytes])).toEqual(
      [
        ['joined.csv', join(out, 'joined.csv'), undefined],
        ['joined.ndjson', join(out, 'joined.ndjson'), undefined],
      ],
    );
    expect(readFileSync(join(out, 'joined.csv'), 'utf8')).toMatch(
      /^Agency,count,target\nDepartment of Defense,\d+,5\n/,
    );
    expect(readFileSync(join(out, 'joined.ndjson'), 'utf8').split('\n')[1]).toMatch(
      /^\{"Agency":"National Science Foundation","count":\d+,"target":2\}$/,
    );
  });

  it('without --out the files are listed on stderr, not written', () => {
    const r = cli('run', '--code', "to_csv(aq.table({ a: [1] }), 'x.csv'); 1");
    expect(r.status).toBe(0);
    expect(r.stderr).toMatch(/the run saved x\.csv \(4 bytes\); write them with --out <dir>/);
    expect(existsSync(join(dir, 'x.csv'))).toBe(false);
  });

  it('a --table flag without = is a usage error', () => {
    const r = cli('run', '--table', 'goals', '--code', '1');
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/--table expects name=file/);
  });
});
