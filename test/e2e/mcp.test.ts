import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RunResultSchema } from '../../src/index.js';
import { childPids, CLI, cliEnv, isAlive, ROOT, waitGone } from './helpers/processes.js';

type TextContent = Array<{ type: string; text: string }>;

describe('sbirtools mcp, driven by the SDK client', () => {
  let client: Client;
  let transport: StdioClientTransport;

  beforeAll(async () => {
    transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, 'mcp'],
      cwd: ROOT,
      env: cliEnv(),
      stderr: 'pipe',
    });
    client = new Client({ name: 'e2e', version: '1.0.0' });
    await client.connect(transport);
  });

  afterAll(async () => {
    await client?.close();
  });

  it('lists run_analysis with the generated description and describe_dataset', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['add_table', 'describe_dataset', 'run_analysis']);
    const run = tools.find((t) => t.name === 'run_analysis')!;
    // The generated description (src/result/toolDescription.ts), from this server's data card.
    expect(run.description).toMatch(/^Run JavaScript over award_data, an Arquero table of \d+ US SBIR\/STTR awards/);
    expect(run.description).toMatch(/SYNTHETIC SAMPLE/);
    expect(run.description).toMatch(/value_counts/);
    expect(run.inputSchema).toMatchObject({ type: 'object', required: ['code'] });
    expect(Object.keys(run.inputSchema.properties ?? {})).toEqual(['code', 'session_id', 'max_chars', 'row_offset']);
  });

  it('run_analysis returns text and the RunResult as structuredContent', async () => {
    const res = await client.callTool({
      name: 'run_analysis',
      arguments: { code: 'print("rows", award_data.numRows()); 6 * 7' },
    });
    expect(res.isError).toBeFalsy();
    const result = RunResultSchema.parse(res.structuredContent);
    expect(result).toMatchObject({ ok: true, value: 42 });
    expect((res.content as TextContent)[0]!.text).toMatch(/^stdout:\nrows \d+/);
    expect(result.dataset?.synthetic).toBe(true);
    expect((res.content as TextContent)[0]!.text).toMatch(/SYNTHETIC sample/);
  });

  it('a session keeps state across two calls', async () => {
    await client.callTool({ name: 'run_analysis', arguments: { code: 'const total = 40', session_id: 'e2e-session' } });
    const res = await client.callTool({
      name: 'run_analysis',
      arguments: { code: 'total + 2', session_id: 'e2e-session' },
    });
    expect(RunResultSchema.parse(res.structuredContent).value).toBe(42);
    const fresh = await client.callTool({ name: 'run_analysis', arguments: { code: 'typeof total' } });
    expect(RunResultSchema.parse(fresh.structuredContent).value).toBe('undefined');
  });

  it('a guest error comes back as isError with a hint', async () => {
    const res = await client.callTool({ name: 'run_analysis', arguments: { code: 'const x = 1;\nx.notAFunction()' } });
    expect(res.isError).toBe(true);
    const result = RunResultSchema.parse(res.structuredContent);
    expect(result.error).toMatchObject({ type: 'RUNTIME_ERROR', line: 2 });
    const text = (res.content as TextContent)[0]!.text;
    expect(text).toMatch(/error: RUNTIME_ERROR: TypeError/);
    expect(text).toMatch(/\nhint: /);
  });

  it('describe_dataset and the data card resource agree', async () => {
    const res = await client.callTool({ name: 'describe_dataset', arguments: {} });
    const card = (res.content as TextContent)[0]!.text;
    expect(card).toMatch(/Award Amount/);
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri)).toContain('sbirtools://dataset/card.md');
    const read = await client.readResource({ uri: 'sbirtools://dataset/card.md' });
    expect((read.contents[0] as { text: string }).text).toBe(card);
    const json = await client.readResource({ uri: 'sbirtools://dataset/card.json' });
    expect(JSON.parse((json.contents[0] as { text: string }).text)).toMatchObject({
      table: 'award_data',
      summary: card,
    });
  });

  it('serves docs/prelude.md as a resource when the package ships it', async () => {
    const { resources } = await client.listResources();
    const uris = resources.map((r) => r.uri);
    if (!existsSync(join(ROOT, 'docs', 'prelude.md'))) {
      expect(uris).not.toContain('sbirtools://docs/prelude.md');
      return;
    }
    const read = await client.readResource({ uri: 'sbirtools://docs/prelude.md' });
    expect((read.contents[0] as { text: string }).text).toBe(readFileSync(join(ROOT, 'docs', 'prelude.md'), 'utf8'));
  });

  it('on close, the server exits and leaves no holder process behind', async () => {
    const pid = transport.pid!;
    const children = childPids(pid);
    expect(children.length).toBeGreaterThan(0); // the holder that ran the code above
    await client.close();
    expect(await waitGone([pid, ...children])).toEqual([]);
  });
});

/** Speak raw JSON-RPC to `sbirtools mcp` so the test sees the exit code itself. */
async function startRaw() {
  const child = spawn(process.execPath, [CLI, 'mcp'], { cwd: ROOT, env: cliEnv(), stdio: ['pipe', 'pipe', 'pipe'] });
  const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  let buffer = '';
  const waiters = new Map<number, (msg: unknown) => void>();
  child.stdout.on('data', (chunk: Buffer) => {
    buffer += chunk.toString('utf8');
    for (let nl = buffer.indexOf('\n'); nl >= 0; nl = buffer.indexOf('\n')) {
      const msg = JSON.parse(buffer.slice(0, nl)) as { id?: number };
      buffer = buffer.slice(nl + 1);
      if (msg.id !== undefined) waiters.get(msg.id)?.(msg);
    }
  });
  const request = (id: number, method: string, params: unknown) =>
    new Promise<unknown>((resolve) => {
      waiters.set(id, resolve);
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
    });
  await request(1, 'initialize', {
    protocolVersion: '2025-06-18',
    capabilities: {},
    clientInfo: { name: 'raw', version: '1' },
  });
  child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
  await request(2, 'tools/call', { name: 'run_analysis', arguments: { code: '1 + 1', session_id: 'keep-open' } });
  return { child, exited };
}

describe('sbirtools mcp shutdown', () => {
  for (const how of ['stdin close', 'SIGTERM', 'SIGINT'] as const) {
    it(`exits 0 on ${how}, closing its sessions and holder`, async () => {
      const { child, exited } = await startRaw();
      const holders = childPids(child.pid!);
      expect(holders.length).toBeGreaterThan(0);
      if (how === 'stdin close') child.stdin.end();
      else child.kill(how);
      expect(await exited).toEqual({ code: 0, signal: null });
      expect(await waitGone(holders)).toEqual([]);
      expect(isAlive(child.pid!)).toBe(false);
    });
  }
});
