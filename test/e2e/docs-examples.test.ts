import { execFile, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, describe, expect, it } from 'vitest';
import { transform } from 'esbuild';
import { CLI, cliEnv, ROOT } from './helpers/processes.js';

interface Block {
  doc: string;
  lang: string;
  marker: string;
  code: string;
  line: number;
}

/** Fenced blocks of a doc, with their info string split into language and marker (```js test). */
function blocks(doc: string): Block[] {
  const text = readFileSync(join(ROOT, doc), 'utf8');
  const out: Block[] = [];
  const re = /^```(\w+)(?:[ \t]+([\w-]+))?[ \t]*\n([\s\S]*?)^```[ \t]*$/gm;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    out.push({ doc, lang: m[1]!, marker: m[2] ?? '', code: m[3]!, line: text.slice(0, m.index).split('\n').length });
  }
  return out;
}

// Stand-ins for what a reader has and the test does not: a model, a vendor's tool call.
const PRELUDE = `
import { MockLanguageModelV3 } from 'ai/test';
const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } };
let step = 0;
const model = new MockLanguageModelV3({ doGenerate: async () => (step++ === 0
  ? { content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'run_analysis', input: JSON.stringify({ code: "value_counts(award_data, 'Agency').head(1)" }) }], finishReason: { unified: 'tool-calls', raw: undefined }, usage, warnings: [] }
  : { content: [{ type: 'text', text: 'The top agency is shown above.' }], finishReason: { unified: 'stop', raw: undefined }, usage, warnings: [] }) });
const toolCall = { id: 'call_1', type: 'function', function: { name: 'run_analysis', arguments: '{"code":"award_data.numRows()"}' } };
const toolUse = { type: 'tool_use', id: 'toolu_1', name: 'run_analysis', input: { code: 'award_data.numRows()' } };
`;

const scratch = join(ROOT, 'test', 'e2e', '.docs-tmp');
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function exec(
  file: string,
  args: string[],
  cwd: string,
  env: Record<string, string>,
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(file, args, { cwd, env, maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) => {
      resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

/** A JS example as the reader runs it: an ESM file inside the package, so `import 'sbirtools'` resolves to it. */
async function runJs(block: Block): Promise<{ code: number; stdout: string; stderr: string }> {
  mkdirSync(scratch, { recursive: true });
  const file = join(scratch, `example-${block.line}.mjs`);
  const uses = /\b(model|toolCall|toolUse)\b/.test(block.code);
  // TypeScript examples (e.g. `await using`) are compiled as a TypeScript user's build would.
  const code =
    block.lang === 'ts'
      ? (await transform(block.code, { loader: 'ts', format: 'esm', target: 'node20' })).code
      : block.code;
  writeFileSync(file, `${uses ? PRELUDE : ''}\n${code}`);
  return exec(process.execPath, ['--no-node-snapshot', file], mkdtempSync(join(tmpdir(), 'sbirtools-doc-')), cliEnv());
}

const docs = ['README.md', 'docs/integrations.md', 'docs/cli.md', 'docs/viewer.md'].flatMap(blocks);

describe('docs examples', () => {
  it('every JavaScript, shell and JSON example is marked for testing', () => {
    // `ci`: the README's set-up commands, which .ci/run runs on a clean clone.
    const untested = docs.filter(
      (b) => ['js', 'ts', 'sh', 'json'].includes(b.lang) && !b.marker.startsWith('test') && b.marker !== 'ci',
    );
    expect(untested.map((b) => `${b.doc}:${b.line}`)).toEqual([]);
    expect(docs.filter((b) => b.marker.startsWith('test')).length).toBeGreaterThanOrEqual(10);
  });

  for (const block of docs.filter((b) => (b.lang === 'js' || b.lang === 'ts') && b.marker === 'test')) {
    it(`${block.doc}:${block.line} runs`, async () => {
      const r = await runJs(block);
      expect(r.stderr).not.toMatch(/Error|at file:/);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout.length).toBeGreaterThan(0);
    });
  }

  for (const block of docs.filter((b) => b.lang === 'sh' && b.marker === 'test')) {
    it(`${block.doc}:${block.line} runs in a shell`, async () => {
      const script = block.code.replaceAll('npx sbirtools', `"${process.execPath}" "${CLI}"`);
      const r = await exec(
        'bash',
        ['-e', '-o', 'pipefail', '-c', script],
        mkdtempSync(join(tmpdir(), 'sbirtools-doc-')),
        cliEnv(),
      );
      expect(r.code, r.stderr).toBe(0);
    });
  }

  for (const block of docs.filter((b) => b.marker === 'test-mcp-config')) {
    it(`${block.doc}:${block.line} is a working MCP client config`, async () => {
      const config = JSON.parse(block.code) as { mcpServers: Record<string, { command: string; args: string[] }> };
      const server = config.mcpServers.sbirtools!;
      expect(server).toEqual({ command: 'npx', args: ['sbirtools', 'mcp'] });
      // `npx sbirtools` resolves to bin/sbirtools.js; run that directly.
      const transport = new StdioClientTransport({
        command: process.execPath,
        args: [CLI, ...server.args.slice(1)],
        cwd: ROOT,
        env: cliEnv(),
        stderr: 'pipe',
      });
      const client = new Client({ name: 'docs', version: '1' });
      await client.connect(transport);
      expect((await client.listTools()).tools.map((t) => t.name)).toContain('run_analysis');
      await client.close();
    });
  }

  for (const block of docs.filter((b) => b.marker === 'test-server')) {
    it(`${block.doc}:${block.line} serves POST requests`, async () => {
      mkdirSync(scratch, { recursive: true });
      const file = join(scratch, `server-${block.line}.mjs`);
      writeFileSync(file, block.code);
      const child = spawn(process.execPath, ['--no-node-snapshot', file], {
        cwd: ROOT,
        env: cliEnv({ PORT: '0' }),
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const exited = new Promise((resolve) => child.once('exit', resolve));
      try {
        const port = await new Promise<number>((resolve, reject) => {
          child.stdout.on('data', (d: Buffer) => {
            const m = /listening on (\d+)/.exec(d.toString());
            if (m) resolve(Number(m[1]));
          });
          child.once('exit', () => reject(new Error('the example server exited before listening')));
        });
        const res = await fetch(`http://127.0.0.1:${port}/`, {
          method: 'POST',
          body: JSON.stringify({ code: '6 * 7' }),
        });
        expect(res.status).toBe(200);
        expect(((await res.json()) as { value: unknown }).value).toBe(42);
      } finally {
        child.kill('SIGTERM');
        await exited;
      }
    });
  }
});
