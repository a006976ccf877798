// Attack: one JSON-RPC message on stdio far over the server's cap (a 200 MB add_table upload).
// The SDK's transport closed the connection (the server process ended) and copied its whole buffer
// on every chunk. Now the message is skipped as it streams in, the request gets a JSON-RPC error
// naming the limit, and the next request on the same connection is served.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import { CLI, cliEnv, ROOT } from '../e2e/helpers/processes.js';

describe('a stdio MCP message over the cap', () => {
  it('gets a JSON-RPC error with its id, and the server keeps running', async () => {
    // --max-upload-bytes 100000: the per-message cap is 4/3 of that plus 16 MiB
    const child = spawn(process.execPath, [CLI, 'mcp', '--max-upload-bytes', '100000'], {
      cwd: ROOT,
      env: cliEnv(),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    child.stderr.resume();
    const replies = new Map<unknown, { result?: unknown; error?: { code: number; message: string } }>();
    const waiters = new Map<unknown, () => void>();
    createInterface({ input: child.stdout }).on('line', (line) => {
      const m = JSON.parse(line) as { id?: unknown };
      if (m.id === undefined) return;
      replies.set(m.id, m as never);
      waiters.get(m.id)?.();
    });
    const reply = (id: unknown) =>
      (replies.has(id) ? Promise.resolve() : new Promise<void>((r) => waiters.set(id, r))).then(() => replies.get(id)!);
    const send = (m: object) =>
      new Promise<void>((r) => (child.stdin.write(`${JSON.stringify(m)}\n`) ? r() : child.stdin.once('drain', r)));
    try {
      await send({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'oversize', version: '1' } },
      });
      expect((await reply(1)).result).toBeDefined();
      await send({ jsonrpc: '2.0', method: 'notifications/initialized' });
      // a 200 MB upload, written in 1 MiB pieces
      const head =
        '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"add_table","arguments":{"name":"huge","content_text":"';
      await new Promise<void>((r) => (child.stdin.write(head) ? r() : child.stdin.once('drain', r)));
      const piece = 'a,b\\n1,2\\n'.repeat(104_858);
      for (let sent = 0; sent < 200e6; sent += piece.length) {
        await new Promise<void>((r) => (child.stdin.write(piece) ? r() : child.stdin.once('drain', r)));
      }
      await new Promise<void>((r) => (child.stdin.write('"}}}\n') ? r() : child.stdin.once('drain', r)));
      const refused = await reply(2);
      expect(refused.error?.code).toBe(-32600);
      expect(refused.error?.message).toMatch(
        /^A message of \d+ bytes is over this server's \d+-byte limit per message; it was not read\. For add_table, send a smaller file/,
      );
      // the same connection still serves
      await send({
        jsonrpc: '2.0',
        id: 3,
        method: 'tools/call',
        params: { name: 'run_analysis', arguments: { code: '6 * 7' } },
      });
      const ok = (await reply(3)) as { result?: { structuredContent?: { value?: unknown } } };
      expect(ok.result?.structuredContent?.value).toBe(42);
      expect(child.exitCode).toBeNull();
    } finally {
      child.stdin.end();
      await new Promise((r) => (child.exitCode !== null ? r(null) : child.once('exit', r)));
    }
  }, 180_000);
});
