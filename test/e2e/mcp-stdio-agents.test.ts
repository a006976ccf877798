import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { ProgressNotification } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, cliEnv, ROOT } from './helpers/processes.js';

type Content = Array<{ type: string; text?: string; uri?: string; name?: string }>;

describe('sbirtools mcp (stdio): budget, progress and cancel, driven by the SDK client', () => {
  let client: Client;

  beforeAll(async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, 'mcp', '--timeout-ms', '600000'],
      cwd: ROOT,
      env: cliEnv({ SBIRTOOLS_MAX_RESULT_CHARS: '6000' }),
      stderr: 'pipe',
    });
    client = new Client({ name: 'e2e-stdio-agents', version: '1.0.0' });
    await client.connect(transport);
  });
  afterAll(async () => {
    await client?.close();
  });

  it('answers within the budget from the environment, and links the whole result as a resource', async () => {
    const res = await client.callTool({ name: 'run_analysis', arguments: { code: 'award_data' } });
    const content = res.content as Content;
    expect(content[0]!.text!.length).toBeLessThanOrEqual(7000);
    expect(content[0]!.text).toMatch(/table: [\d,]+ rows × \d+ columns/);
    const link = content.find((c) => c.type === 'resource_link' && c.name === 'result.json')!;
    expect(link.uri).toMatch(/^sbirtools:\/\/files\//);
    const read = await client.readResource({ uri: link.uri! });
    const whole = JSON.parse(Buffer.from((read.contents[0] as { blob: string }).blob, 'base64').toString('utf8'));
    expect(whole.table.rows.length).toBeGreaterThan(200); // the text showed a few dozen
    expect(whole.table.markdown.length).toBeGreaterThan(content[0]!.text!.length);
    // a call's max_chars overrides the server's budget
    const more = await client.callTool({ name: 'run_analysis', arguments: { code: 'award_data', max_chars: 20_000 } });
    expect((more.content as Content)[0]!.text!.length).toBeGreaterThan(12_000);
  });

  it('carries print() output in progress messages, then stops the run on cancel', async () => {
    const seen: ProgressNotification['params'][] = [];
    const abort = new AbortController();
    const call = client.callTool(
      {
        name: 'run_analysis',
        arguments: { code: 'print("looping"); let n = 0; while (true) { n++ }', session_id: 's' },
      },
      undefined,
      { signal: abort.signal, timeout: 900_000, onprogress: (p) => seen.push(p) },
    );
    call.catch(() => undefined);
    for (let i = 0; i < 400 && seen.length === 0; i++) await new Promise((r) => setTimeout(r, 100));
    expect(seen[0]!.message).toBe('looping\n');
    abort.abort();
    await expect(call).rejects.toThrow();
    // the 10-minute run was stopped: the session answers again, reset
    const next = await client.callTool(
      { name: 'run_analysis', arguments: { code: '1 + 1', session_id: 's' } },
      undefined,
      { timeout: 60_000 },
    );
    expect(next.structuredContent).toMatchObject({ value: 2, sessionReset: true });
  });
});
