// `sbirtools bundle` for the Node targets, each run like its platform runs it (helpers/functionHarness.ts):
// a copied read-only folder, a fresh process as an unprivileged user, the heap capped, the data
// built by `sbirtools build-data` and copied in; five answers checked against the library's own.
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, cliEnv, ROOT } from './helpers/processes.js';
import { copyReadOnly, functionCommand, jsonLines, runFunction } from './helpers/functionHarness.js';
import { FIVE_QUESTIONS } from './helpers/fiveQuestions.js';
import { spawn } from 'node:child_process';

function exec(args: string[], env = cliEnv()): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, args, { cwd: ROOT, env, maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) =>
      resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

const work = mkdtempSync(join(tmpdir(), 'sbirtools-bundle-test-'));
const dataDir = join(work, 'data');
const expected: Record<string, unknown> = {};

beforeAll(async () => {
  const built = await exec([CLI, 'build-data', dataDir]);
  expect(built.code, built.stderr).toBe(0);
  // the expected answers: the library itself, in this process's holder, on the same data
  const { run, shutdown } = await import(join(ROOT, 'dist', 'src', 'index.js'));
  for (const q of FIVE_QUESTIONS) {
    const r = await run(q.code, { dataPath: dataDir });
    expect(r.ok, JSON.stringify(r.error)).toBe(true);
    expected[q.name] = r.value;
  }
  expect((expected['long-text'] as number[])[1]).toBeGreaterThan(0);
  await shutdown();
}, 180_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

async function bundle(target: string, extra: string[] = []): Promise<{ dir: string; stdout: string }> {
  const dir = join(work, `${target}-bundle`);
  const r = await exec([CLI, 'bundle', dir, '--target', target, '--data', dataDir, ...extra]);
  expect(r.code, r.stderr).toBe(0);
  return { dir, stdout: r.stdout };
}

// a hang guard: bundling traces thousands of files (30-60 s on a loaded 2-core VM), then five cold answers
const TIMEOUT = 600_000;
const mbOf = (stdout: string) => Number(/bundle, ([\d.]+) MB/.exec(stdout)?.[1]);

describe('sbirtools bundle --target lambda', () => {
  it(
    'writes index.mjs exporting handler and answers five questions through lambda-local with recorded API Gateway v2 and Function URL events, read-only',
    async () => {
      const { dir, stdout } = await bundle('lambda');
      expect(stdout).toMatch(/isolated-vm[^\n]*native engine/);
      expect(stdout).toMatch(/sbirtools \(holder script\)/);
      expect(mbOf(stdout)).toBeLessThan(250);
      expect(readFileSync(join(dir, 'index.mjs'), 'utf8')).toMatch(/export const handler = lambdaHandler/);
      const fn = copyReadOnly(dir);
      const events = ['http-api-v2', 'function-url'].map((n) =>
        JSON.parse(readFileSync(join(ROOT, 'test', 'fixtures', 'lambda', `${n}.json`), 'utf8')),
      );
      writeFileSync(
        join(fn.runners, 'events.json'),
        JSON.stringify(
          FIVE_QUESTIONS.map((q, i) => {
            const event = structuredClone(events[i % 2]);
            const body = JSON.stringify({ code: q.code });
            return {
              name: q.name,
              event: { ...event, body: event.isBase64Encoded ? Buffer.from(body).toString('base64') : body },
            };
          }),
        ),
      );
      const lambdaLocal = createRequire(join(ROOT, 'package.json')).resolve('lambda-local');
      writeFileSync(
        join(fn.runners, 'lambda.mjs'),
        `
      import { readFileSync, writeFileSync } from 'node:fs';
      import { createRequire } from 'node:module';
      // the function platform's promise: nothing but the temp dir is writable
      let cwdWritable = true;
      try { writeFileSync('probe', 'x'); } catch { cwdWritable = false; }
      console.log(JSON.stringify({ cwdWritable }));
      const lambdaLocal = createRequire(import.meta.url)(${JSON.stringify(lambdaLocal)});
      for (const { name, event } of JSON.parse(readFileSync(process.argv[2], 'utf8'))) {
        const res = await lambdaLocal.execute({ event, lambdaPath: process.cwd() + '/index.mjs', lambdaHandler: 'handler', esm: true, timeoutMs: 120000, verboseLevel: 0 });
        console.log(JSON.stringify({ name, res }));
      }
      process.exit(0);`,
      );
      const r = await runFunction(fn, [join(fn.runners, 'lambda.mjs'), join(fn.runners, 'events.json')]);
      expect(r.code, r.stderr).toBe(0);
      const lines = jsonLines(r.stdout);
      expect(lines[0]).toEqual({ cwdWritable: false });
      const answers = lines.slice(1) as {
        name: string;
        res: { statusCode: number; body: string; isBase64Encoded: boolean; headers: Record<string, string> };
      }[];
      expect(answers.map((a) => a.name)).toEqual(FIVE_QUESTIONS.map((q) => q.name));
      for (const { name, res } of answers) {
        expect(res.statusCode, res.body).toBe(200);
        expect(res.isBase64Encoded).toBe(false);
        expect(res.headers['content-type']).toMatch(/application\/json/);
        const body = JSON.parse(res.body);
        expect(body.ok, res.body).toBe(true);
        expect(body.value, name).toEqual(expected[name]);
        expect(body.engine.name).toBe('isolated-vm');
      }
    },
    TIMEOUT,
  );
});

describe('sbirtools bundle --target node', () => {
  it(
    'index.mjs serves on $PORT and answers five questions over HTTP, read-only',
    async () => {
      const { dir } = await bundle('node');
      const fn = copyReadOnly(dir);
      const port = 20000 + (process.pid % 20000);
      const { command, args, options } = functionCommand(fn, ['index.mjs'], { PORT: String(port), HOST: '127.0.0.1' });
      const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
      let stderr = '';
      child.stderr.on('data', (d) => (stderr += d));
      const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
      try {
        await new Promise<void>((resolve, reject) => {
          const check = () => (stderr.includes('listening on') ? resolve() : undefined);
          child.stderr.on('data', check);
          child.on('close', () => reject(new Error(`exited before listening: ${stderr}`)));
        });
        expect(stderr).toContain(`127.0.0.1:${port}`);
        for (const q of FIVE_QUESTIONS) {
          const res = await fetch(`http://127.0.0.1:${port}/v1/run`, {
            method: 'POST',
            body: JSON.stringify({ code: q.code }),
          });
          const body = await res.json();
          expect(res.status, JSON.stringify(body)).toBe(200);
          expect(body.value, q.name).toEqual(expected[q.name]);
        }
      } finally {
        child.kill('SIGTERM');
      }
      expect(await exited).toBe(0);
    },
    TIMEOUT,
  );
});

describe('sbirtools bundle --target vercel', () => {
  it(
    'writes the Build Output API layout whose function answers five questions, read-only',
    async () => {
      const { dir, stdout } = await bundle('vercel');
      expect(mbOf(stdout)).toBeLessThan(250);
      expect(JSON.parse(readFileSync(join(dir, '.vercel', 'output', 'config.json'), 'utf8')).version).toBe(3);
      const func = join(dir, '.vercel', 'output', 'functions', 'api', 'run.func');
      const vc = JSON.parse(readFileSync(join(func, '.vc-config.json'), 'utf8'));
      expect(vc).toMatchObject({
        handler: 'index.mjs',
        launcherType: 'Nodejs',
        runtime: `nodejs${process.versions.node.split('.')[0]}.x`,
      });
      expect(existsSync(join(func, 'node_modules', 'sbirtools', 'dist', 'holder', 'holderMain.cjs'))).toBe(true);
      // Vercel runs the .func folder on its own: copy just that
      const fn = copyReadOnly(func);
      writeFileSync(
        join(fn.runners, 'vercel.mjs'),
        `
      import { createServer } from 'node:http';
      const { default: listener } = await import(process.cwd() + '/index.mjs');
      const server = createServer(listener).listen(0, '127.0.0.1');
      await new Promise((r) => server.once('listening', r));
      for (const { name, code } of JSON.parse(process.argv[2])) {
        const res = await fetch('http://127.0.0.1:' + server.address().port + '/api/run', { method: 'POST', body: JSON.stringify({ code }) });
        console.log(JSON.stringify({ name, status: res.status, body: await res.json() }));
      }
      process.exit(0);`,
      );
      const r = await runFunction(fn, [join(fn.runners, 'vercel.mjs'), JSON.stringify(FIVE_QUESTIONS)]);
      expect(r.code, r.stderr).toBe(0);
      const answers = jsonLines(r.stdout) as { name: string; status: number; body: { value: unknown } }[];
      expect(answers).toHaveLength(5);
      for (const a of answers) {
        expect(a.status).toBe(200);
        expect(a.body.value, a.name).toEqual(expected[a.name]);
      }
    },
    TIMEOUT,
  );
});

describe('sbirtools bundle: the output folder', () => {
  it('refuses a non-empty folder without --force, and an unknown target', async () => {
    const dir = join(work, 'taken');
    mkdirSync(dir);
    writeFileSync(join(dir, 'keep.txt'), 'mine');
    const r = await exec([CLI, 'bundle', dir, '--target', 'lambda']);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/not empty[\s\S]*--force/);
    expect(readFileSync(join(dir, 'keep.txt'), 'utf8')).toBe('mine');
    const bad = await exec([CLI, 'bundle', join(work, 'x'), '--target', 'azure']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/lambda, vercel, node, workers/);
  });
});
