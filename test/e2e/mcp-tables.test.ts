import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parquetMetadata, parquetReadObjects } from 'hyparquet';
import { RunResultSchema } from '../../src/index.js';
import { CLI, cliEnv, ROOT } from './helpers/processes.js';
import { portfolioArrow, portfolioParquet } from '../helpers/tableFiles.js';

type Content = Array<{
  type: string;
  text?: string;
  uri?: string;
  resource?: { uri: string; mimeType?: string; text?: string; blob?: string };
}>;

describe('sbirtools mcp: add_table in, files out', () => {
  let client: Client;

  beforeAll(async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, 'mcp', '--max-upload-bytes', '200000', '--deny-table-urls'],
      cwd: ROOT,
      env: cliEnv(),
      stderr: 'pipe',
    });
    client = new Client({ name: 'e2e-tables', version: '1.0.0' });
    await client.connect(transport);
  });

  afterAll(async () => {
    await client?.close();
  });

  it('adds a Parquet upload, lists it as a resource and puts its schema in the tool text', async () => {
    const res = await client.callTool({
      name: 'add_table',
      arguments: { name: 'goals', content_base64: Buffer.from(portfolioParquet()).toString('base64') },
    });
    expect(res.isError).toBeFalsy();
    expect((res.content as Content)[0]!.text).toMatch(
      /goals \(4 rows\): Agency \(string\), target \(integer\), big \(string\), when \(date\), flag \(boolean\)/,
    );
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri)).toContain('sbirtools://tables/goals');
    const read = await client.readResource({ uri: 'sbirtools://tables/goals' });
    expect((read.contents[0] as { text: string }).text).toMatch(/\| target \| integer \|/);
    const { tools } = await client.listTools();
    expect(tools.find((t) => t.name === 'run_analysis')!.description).toMatch(/Your tables[\s\S]*goals \(4 rows\)/);
  });

  it('joins the added table with award_data and returns a Parquet file as an embedded resource', async () => {
    const code =
      "const j = merge(value_counts(award_data, 'Agency'), goals, { on: 'Agency' }); to_parquet(j, 'joined'); to_csv(j, 'joined.csv'); j";
    const res = await client.callTool({ name: 'run_analysis', arguments: { code } });
    expect(res.isError).toBeFalsy();
    const result = RunResultSchema.parse(res.structuredContent);
    expect(result.files?.map((f) => [f.name, f.mediaType])).toEqual([
      ['joined.parquet', 'application/vnd.apache.parquet'],
      ['joined.csv', 'text/csv'],
    ]);
    expect(result.files?.every((f) => f.bytes === undefined && f.uri?.startsWith('sbirtools://files/'))).toBe(true);
    const embedded = (res.content as Content).filter((c) => c.type === 'resource');
    expect(embedded).toHaveLength(2);
    const parquet = Buffer.from(embedded[0]!.resource!.blob!, 'base64');
    const buf = parquet.buffer.slice(parquet.byteOffset, parquet.byteOffset + parquet.byteLength);
    const rows = await parquetReadObjects({ file: buf, metadata: parquetMetadata(buf) });
    expect(rows.map((r) => [r.Agency, Number(r.target)])).toEqual([
      ['Department of Defense', 5],
      ['National Science Foundation', 2],
    ]);
    expect(embedded[1]!.resource!.text).toMatch(
      /^Agency,count,target,big,when,flag\nDepartment of Defense,\d+,5,9007199254740993,2021-01-02T00:00:00.000Z,true\n/,
    );
    // the same file is readable later as a resource
    const again = await client.readResource({ uri: embedded[0]!.resource!.uri });
    expect(Buffer.from((again.contents[0] as { blob: string }).blob, 'base64').equals(parquet)).toBe(true);
  });

  it('adds an Arrow stream and refuses an upload over the cap, a bad name and a corrupt file with typed errors', async () => {
    const ok = await client.callTool({
      name: 'add_table',
      arguments: { name: 'arrowgoals', content_base64: Buffer.from(portfolioArrow('stream')).toString('base64') },
    });
    expect(ok.isError).toBeFalsy();
    const big = await client.callTool({
      name: 'add_table',
      arguments: { name: 'huge', content_text: 'a\n' + '1\n'.repeat(150_000) },
    });
    expect(big.isError).toBe(true);
    expect((big.content as Content)[0]!.text).toMatch(/DATA_TOO_LARGE.*over the \d+-byte limit of add_table/);
    const shadow = await client.callTool({
      name: 'add_table',
      arguments: { name: 'award_data', content_text: 'a\n1\n' },
    });
    expect((shadow.content as Content)[0]!.text).toMatch(/VALIDATION_ERROR: Invalid table name `award_data`/);
    const bad = await client.callTool({
      name: 'add_table',
      arguments: {
        name: 'broken',
        content_base64: Buffer.from(portfolioParquet()).subarray(0, 60).toString('base64'),
        format: 'parquet',
      },
    });
    expect((bad.content as Content)[0]!.text).toMatch(/DATA_CORRUPT[\s\S]*hint:/);
    const url = await client.callTool({
      name: 'add_table',
      arguments: { name: 'remote', url: 'http://169.254.169.254/latest/meta-data' },
    });
    expect((url.content as Content)[0]!.text).toMatch(
      /DOWNLOAD_BAD_URL: this server does not download tables from URLs/,
    );
    // the server still answers
    const res = await client.callTool({
      name: 'run_analysis',
      arguments: { code: 'arrowgoals.numRows() + goals.numRows()' },
    });
    expect(RunResultSchema.parse(res.structuredContent).value).toBe(8);
  });
});

describe('sbirtools mcp --table', () => {
  it("lists a table given at start in run_analysis's description, and runs see it", async () => {
    const { mkdtempSync, writeFileSync, rmSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const dir = mkdtempSync(join(tmpdir(), 'sbirtools-mcp-table-'));
    const file = join(dir, 'goals.parquet');
    writeFileSync(file, portfolioParquet());
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, 'mcp', '--table', `goals=${file}`],
      cwd: ROOT,
      env: cliEnv(),
      stderr: 'pipe',
    });
    const c = new Client({ name: 'e2e-start-table', version: '1.0.0' });
    try {
      await c.connect(transport);
      const { tools } = await c.listTools();
      expect(tools.find((t) => t.name === 'run_analysis')!.description).toMatch(
        /Your tables[\s\S]*goals \(4 rows\): Agency \(string\), target \(integer\)/,
      );
      const res = await c.callTool({ name: 'run_analysis', arguments: { code: 'goals.numRows()' } });
      expect(RunResultSchema.parse(res.structuredContent).value).toBe(4);
    } finally {
      await c.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
