// The MCP path of the issue: `sbirtools mcp --capsule-log … --capsule-outputs`, runs in a session,
// then the log holds their outputs and `sbirtools report` exports the session.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { describe, expect, it } from 'vitest';
import { readCapsules } from '../../src/capsule/readCapsules.js';
import { cli } from './helpers/cli.js';
import { CLI, cliEnv, ROOT } from './helpers/processes.js';

describe('sbirtools mcp --capsule-outputs', () => {
  it('logs each run with its outputs; the session exports as a report', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sbirtools-mcp-outputs-'));
    const log = join(dir, 'runs.jsonl');
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, 'mcp', '--capsule-log', log, '--capsule-outputs'],
      cwd: ROOT,
      env: cliEnv(),
      stderr: 'pipe',
    });
    const client = new Client({ name: 'e2e', version: '1.0.0' });
    await client.connect(transport);
    try {
      await client.callTool({
        name: 'run_analysis',
        arguments: {
          code: "print('first'); plot.bar(value_counts(award_data, 'Phase'), 'Phase', 'count')",
          session_id: 'm1',
        },
      });
      await client.callTool({ name: 'run_analysis', arguments: { code: 'const x = 1;\nx.nope()', session_id: 'm1' } });
    } finally {
      await client.close();
    }
    const entries = await readCapsules(log);
    expect(entries.map((e) => e.record.session)).toEqual([
      { id: 'm1', seq: 1 },
      { id: 'm1', seq: 2 },
    ]);
    expect(entries[0]!.record.outputs).toMatchObject({
      stdout: 'first\n',
      charts: [{ kind: 'vega-lite', svg: expect.stringMatching(/^<svg/) }],
    });
    expect(entries[1]!.record.outputs!.error).toMatchObject({
      type: 'RUNTIME_ERROR',
      line: 2,
      hint: expect.any(String),
    });
    const out = join(dir, 'm1.html');
    expect((await cli(['report', log, '--session', 'm1', '-o', out])).code).toBe(0);
    const page = readFileSync(out, 'utf8');
    expect(page).toContain('sbirtools report: session m1');
    expect(page).toMatch(/class="sb-ln sb-err-line" data-line="2"/);
  });

  it('--capsule-outputs without --capsule-log is a usage error', async () => {
    const r = await cli(['mcp', '--capsule-outputs']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--capsule-outputs needs --capsule-log/);
  });
});
