// Hazard: the host's environment (API keys) and files are the assets a prompt-injected program
// wants. Layers: holder processes start with a minimal environment (holderProcess.ts: TZ and LANG
// only), the isolate has no process, fs or network (hardenGlobals.ts, the policy), and error
// messages and stacks carry guest text only. This plants a canary env variable and a canary file
// and runs many attempts to read them; neither may appear anywhere in any result.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPool, type Pool } from '../../src/index.js';
import { BYPASS, rt } from './helpers.js';

const ENV_NAME = 'SBIRTOOLS_TEST_CANARY_SECRET';
const ENV_VALUE = `env-canary-${randomUUID()}`;
const FILE_VALUE = `file-canary-${randomUUID()}`;
let dir = '';
let file = '';
let pool: Pool;

beforeAll(() => {
  process.env[ENV_NAME] = ENV_VALUE;
  dir = mkdtempSync(join(tmpdir(), 'sbirtools-canary-'));
  file = join(dir, 'secret.txt');
  writeFileSync(file, FILE_VALUE);
  pool = createPool({ size: 1 }); // started after the canary is planted
});

afterAll(async () => {
  await pool.close();
  delete process.env[ENV_NAME];
  rmSync(dir, { recursive: true, force: true });
});

const attempts = (): string[] => [
  'process.env',
  `process.env.${ENV_NAME}`,
  "require('fs').readFileSync(FILE, 'utf8')",
  "import('node:fs').then((fs) => fs.readFileSync(FILE, 'utf8'))",
  "fetch('file://' + FILE).then((r) => r.text())",
  `${BYPASS} F('return process.env')()`,
  `${BYPASS} G[${rt('process')}].env`,
  `${BYPASS} F('return require("fs").readFileSync(FILE, "utf8")')()`,
  `${BYPASS} await F('return import("node:fs")')().then((fs) => fs.readFileSync(FILE, 'utf8'))`,
  `${BYPASS} await F('return import("file://" + FILE)')()`,
  `${BYPASS} await G[${rt('fetch')}]('file://' + FILE)`,
  'await aq.loadCSV(FILE)',
  "await aq.load('file://' + FILE)",
  'await aq.loadJSON(FILE)',
  "throw new Error('leak: ' + FILE)",
  "const e = new Error('x'); e.stack",
  `${BYPASS} const k = ${rt('prepareStackTrace')}; G.Error[k] = (e, s) => s.map((c) => [c.getFileName(), c.getScriptNameOrSourceURL && c.getScriptNameOrSourceURL(), String(c.getThis && c.getThis())]); new Error('x').stack`,
  'JSON.stringify(describeData())',
  'print(award_data.columnNames()); tables',
  `${BYPASS} Object.getOwnPropertyNames(G).map((n) => { try { return n + '=' + String(G[n]).slice(0, 50) } catch { return n } })`,
  "award_data.derive({ x: 'd => process.env' }).numRows()",
  "const s = 'SBIRTOOLS_TEST_CANARY_SECRET'; [typeof this, s]",
  'new Date().toString() + Intl.DateTimeFormat().resolvedOptions().timeZone',
];

describe('host environment and file canaries', () => {
  it('the holder process does not even have the canary in its environment', async () => {
    await pool.run('1');
    const [pid] = pool.stats().pids;
    const environ = readFileSync(`/proc/${pid}/environ`, 'utf8');
    expect(environ).not.toContain(ENV_VALUE);
    expect(environ).not.toContain(ENV_NAME);
    // TZ, LANG, glibc's mmap threshold (holderEnv.ts mallocEnv) and the frame socket's fd
    // (frameChannel.ts) from holderProcess.ts; the two NODE_CHANNEL_* entries are Node's own IPC setup
    // (JSON: a run and its reply go as JSON, typed arrays on the frame socket)
    expect(environ.split('\0').filter(Boolean).sort()).toEqual([
      'LANG=C.UTF-8',
      'MALLOC_MMAP_THRESHOLD_=131072',
      'NODE_CHANNEL_FD=3',
      'NODE_CHANNEL_SERIALIZATION_MODE=json',
      'SBIRTOOLS_HOLDER_CHANNEL_FD=4',
      'TZ=UTC',
    ]);
  });

  it('no attempt, blocked or bypassed, shows either canary in any output, error, stack or hint', async () => {
    await using box = await pool.createSandbox({ timeoutMs: 3000 });
    const outcomes: string[] = [];
    for (const attempt of attempts()) {
      const code = attempt.replaceAll('FILE', JSON.stringify(file));
      const r = await box.run(code);
      const text = JSON.stringify(r);
      expect(text, code).not.toContain(ENV_VALUE);
      expect(text, code).not.toContain(FILE_VALUE);
      outcomes.push(r.error?.type ?? 'ok');
    }
    // most are refused outright; none may come back with the secret (checked above)
    expect(outcomes.filter((o) => o === 'POLICY_VIOLATION').length).toBeGreaterThanOrEqual(5);
    expect(outcomes.filter((o) => o === 'RUNTIME_ERROR').length).toBeGreaterThanOrEqual(5);
  });
});
