// Attack: a table named after a global the prelude or the run relies on (award_data, aq, print,
// to_parquet, tables, console, result...), which would replace it for every later run of the
// session. The name is refused up front with VALIDATION_ERROR, on the library, the CLI (exit 2)
// and MCP (covered in test/e2e/mcp-tables.test.ts), and nothing is loaded.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { GLOBAL_NAMES } from '../../schema/preludeApi.js';
import { run, SbirtoolsValidationError } from '../../src/index.js';
import { CLI, cliEnv } from '../e2e/helpers/processes.js';
import { portfolioParquet } from '../helpers/tableFiles.js';
import { expectHealthy } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'sbirtools-shadow-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = join(dir, 'goals.parquet');
writeFileSync(file, portfolioParquet());

describe('a table name that shadows a global', () => {
  for (const name of ['award_data', 'aq', 'print', 'to_parquet', 'to_csv', 'save_chart', 'merge', 'tables', 'console', 'result', 'describeData']) {
    it(`\`${name}\` is refused with VALIDATION_ERROR`, async () => {
      const err = await run('1', { tables: { [name]: file } }).then(() => null, (e: unknown) => e);
      expect(err).toBeInstanceOf(SbirtoolsValidationError);
      expect((err as Error).message).toContain(`Invalid table name \`${name}\``);
    });
  }

  it('every prelude global is reserved', async () => {
    for (const name of GLOBAL_NAMES) {
      const err = await run('1', { tables: { [name]: [{ a: 1 }] } }).then(() => null, (e: unknown) => e);
      expect(err, name).toBeInstanceOf(SbirtoolsValidationError);
    }
  });

  it('the CLI exits 2 with the reason', () => {
    const r = spawnSync(process.execPath, [CLI, 'run', '--table', `aq=${file}`, '--code', '1'], { env: cliEnv(), encoding: 'utf8' });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/Invalid table name `aq`/);
  });

  it('the host is unharmed', async () => {
    await expectHealthy();
  });
});
