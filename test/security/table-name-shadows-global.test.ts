// Attack: a table named after anything the sandbox provides (award_data, aq, print, to_parquet,
// tables, console, result, built-ins such as Object, Math, JSON, Object.prototype's names), a
// reserved word, or a name that is no identifier at all (it would be accepted, then silently not
// bound, and the code would run against the wrong table; `Object` broke every run with
// "Object.freeze is not a function"). The name is refused up front with VALIDATION_ERROR naming
// the table and the rule, on the library, the CLI (exit 2) and MCP add_table (before any
// download; more in test/e2e/mcp-tables.test.ts), and nothing is loaded.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, describe, expect, it } from 'vitest';
import { GLOBAL_NAMES } from '../../schema/preludeApi.js';
import { run, SbirtoolsValidationError } from '../../src/index.js';
import { MAX_TABLE_NAME_LENGTH, tableNameProblem } from '../../src/sandbox/tableName.js';
import { CLI, cliEnv, ROOT } from '../e2e/helpers/processes.js';
import { portfolioParquet } from '../helpers/tableFiles.js';
import { BYPASS, expectHealthy } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'sbirtools-shadow-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = join(dir, 'goals.parquet');
writeFileSync(file, portfolioParquet());

const refused = async (name: string) =>
  run('1', { tables: { [name]: file } }).then(
    () => null,
    (e: unknown) => e,
  );

describe('a table name that shadows a global or is no identifier', () => {
  const cases: Array<[string, RegExp]> = [
    ['award_data', /hide the sandbox's own `award_data`/],
    ['tables', /hide the sandbox's own `tables`/],
    ['aq', /a global the prelude defines/],
    ['print', /a global the prelude defines/],
    ['to_parquet', /a global the prelude defines/],
    ['describeData', /a global the prelude defines/],
    ['console', /built-in|prelude/],
    ['result', /a global the prelude defines/],
    ['TextEncoder', /built-in|prelude/],
    ['Object', /a JavaScript built-in/],
    ['Math', /a JavaScript built-in/],
    ['JSON', /a JavaScript built-in/],
    ['Promise', /a JavaScript built-in/],
    ['globalThis', /a JavaScript built-in/],
    ['undefined', /a JavaScript built-in/],
    ['WebAssembly', /a JavaScript built-in/],
    ['__proto__', /a JavaScript built-in/],
    ['constructor', /a JavaScript built-in/],
    ['hasOwnProperty', /a JavaScript built-in/],
    ['toString', /a JavaScript built-in/],
    ['class', /reserved word/],
    ['let', /reserved word/],
    ['await', /reserved word/],
    ['null', /reserved word/],
    ['arguments', /reserved word/],
    ['', /it is empty/],
    ['1abc', /not a JavaScript identifier/],
    ['my-table', /not a JavaScript identifier/],
    ['my table', /not a JavaScript identifier/],
    ['x\u001b[2J', /not a JavaScript identifier/],
    ['a'.repeat(MAX_TABLE_NAME_LENGTH + 1), /over the \d+-character limit/],
  ];
  for (const [name, rule] of cases) {
    it(`${JSON.stringify(name.slice(0, 20))} is refused with VALIDATION_ERROR naming the table and the rule`, async () => {
      const err = await refused(name);
      expect(err).toBeInstanceOf(SbirtoolsValidationError);
      const message = (err as Error).message;
      expect(message).toMatch(rule);
      expect(message).toContain('Invalid table name `');
      // control characters are escaped, never echoed raw
      expect(message).not.toMatch(/[\u0000-\u001f]/);
    });
  }

  it('a Unicode identifier is a valid name and is bound', async () => {
    const r = await run('données.numRows()', { tables: { données: [{ a: 1 }, { a: 2 }] }, awardData: false });
    expect(r.ok && r.value).toBe(2);
  });

  it('every prelude global is reserved', async () => {
    for (const name of GLOBAL_NAMES) {
      const err = await run('1', { tables: { [name]: [{ a: 1 }] } }).then(
        () => null,
        (e: unknown) => e,
      );
      expect(err, name).toBeInstanceOf(SbirtoolsValidationError);
    }
  });

  // the forbidden list is derived from the prelude bundle; this checks it against a live sandbox
  for (const engine of ['isolated-vm', 'quickjs'] as const) {
    it(`every global a live ${engine} sandbox has is refused as a table name`, async () => {
      const r = await run(
        `(() => { ${BYPASS} return [...Object.getOwnPropertyNames(G), ...Object.getOwnPropertyNames(Object.getPrototypeOf(G) ?? {})]; })()`,
        { engine, tables: { mine: [{ a: 1 }] } },
      );
      expect(r.ok, JSON.stringify(r.ok ? null : r.error)).toBe(true);
      const names = (r.ok ? (r.value as string[]) : []).filter((n) => n !== 'mine');
      expect(names).toContain('Object');
      const accepted = names.filter((n) => tableNameProblem(n) === undefined);
      expect(accepted).toEqual([]);
    });
  }

  it('the CLI exits 2 with the reason', () => {
    for (const name of ['aq', 'Math']) {
      const r = spawnSync(process.execPath, [CLI, 'run', '--table', `${name}=${file}`, '--code', '1'], {
        env: cliEnv(),
        encoding: 'utf8',
      });
      expect(r.status).toBe(2);
      expect(r.stderr).toContain(`Invalid table name \`${name}\``);
    }
  });

  it('MCP add_table refuses the name before it downloads anything', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, 'mcp'],
      cwd: ROOT,
      env: cliEnv(),
      stderr: 'pipe',
    });
    const client = new Client({ name: 'table-names', version: '1.0.0' });
    await client.connect(transport);
    try {
      for (const name of ['JSON', 'my-table', 'award_data']) {
        // a URL that would fail differently (unreachable) if it were fetched
        const res = await client.callTool({ name: 'add_table', arguments: { name, url: 'http://203.0.113.9/t.csv' } });
        expect(res.isError).toBe(true);
        expect((res.content as Array<{ text: string }>)[0]!.text).toMatch(
          new RegExp(`^error: VALIDATION_ERROR: Invalid table name \`${name}\` in add_table`),
        );
      }
    } finally {
      await client.close();
    }
  });

  it('the host is unharmed', async () => {
    await expectHealthy();
  });
});
