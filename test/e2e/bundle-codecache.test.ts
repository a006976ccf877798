// The V8 code caches shipped inside a Node function bundle (src/bundle/shipCodeCaches.ts): the
// holder bundle's and the prelude's. A cold function's temp directory is empty, so these files are
// the only caches it has. They must be used from the read-only folder, and a damaged or foreign one
// must cost only the compile.
import { execFile, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, cliEnv, ROOT } from './helpers/processes.js';
import { copyReadOnly, jsonLines, runFunction, type FunctionFolder } from './helpers/functionHarness.js';

const work = mkdtempSync(join(tmpdir(), 'sbirtools-codecache-test-'));
let bundleDir: string;
let bundleOut: string;
afterAll(() => rmSync(work, { recursive: true, force: true }));

beforeAll(async () => {
  bundleDir = join(work, 'fn');
  const r = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) =>
    execFile(
      process.execPath,
      [CLI, 'bundle', bundleDir, '--target', 'lambda'],
      { cwd: ROOT, env: cliEnv() },
      (err, stdout, stderr) => resolve({ code: err ? 1 : 0, stdout, stderr }),
    ),
  );
  expect(r.code, r.stderr).toBe(0);
  bundleOut = r.stdout;
}, 600_000);

const PRELUDE = join('node_modules', 'sbirtools', 'dist', 'prelude');
const HOLDER = join('node_modules', 'sbirtools', 'dist', 'holder');
const shipped = (dir: string) => readdirSync(join(dir, PRELUDE)).filter((f) => f.endsWith('.codecache'));

/**
 * In the function folder, as the platform runs it: compile the prelude once with the holder's flags
 * and no cache folder (the bundle's own modules), then answer a group-by through the handler.
 */
async function coldFunction(fn: FunctionFolder): Promise<{ rejected: boolean | null; ok: boolean; value: unknown }> {
  const engines = join(fn.dir, 'node_modules', 'sbirtools', 'dist', 'src', 'runtime', 'engines');
  writeFileSync(
    join(fn.runners, 'probe.mjs'),
    `
    const { loadEngine } = await import(${JSON.stringify(join(engines, 'isolated-vm', 'loadIsolatedVm.js'))});
    const p = await import(${JSON.stringify(join(engines, 'preludeScript.js'))});
    const { ivm } = loadEngine();
    const isolate = new ivm.Isolate({ memoryLimit: 128 });
    const s = p.compilePrelude(ivm, isolate);
    s.runSync(isolate.createContextSync(), { timeout: 60000 });
    isolate.dispose();
    const { handler } = await import(process.cwd() + '/index.mjs');
    const event = { version: '2.0', rawPath: '/', headers: { 'content-type': 'application/json' }, requestContext: { http: { method: 'POST', path: '/' } }, body: JSON.stringify({ code: "award_data.groupby('Agency').count().numRows()" }), isBase64Encoded: false };
    const body = JSON.parse((await handler(event)).body);
    console.log(JSON.stringify({ rejected: s.cachedDataRejected ?? null, ok: body.ok, value: body.value }));
    process.exit(0);`,
  );
  const r = await runFunction(fn, ['--no-node-snapshot', join(fn.runners, 'probe.mjs')]);
  expect(r.code, r.stderr).toBe(0);
  return jsonLines(r.stdout)[0] as { rejected: boolean | null; ok: boolean; value: unknown };
}

/**
 * A copy of the bundle with a shipped code cache file (`dir`/`name`) rewritten by `change`; without
 * a name, both of the prelude's (the plain and the warm one).
 */
function withCache(change: (file: Buffer) => Buffer, dir = PRELUDE, name?: string): FunctionFolder {
  const fn = copyReadOnly(bundleDir);
  chmodSync(join(fn.dir, dir), 0o755);
  for (const n of name ? [name] : shipped(fn.dir)) {
    const path = join(fn.dir, dir, n);
    chmodSync(path, 0o644);
    writeFileSync(path, change(readFileSync(path)));
    chmodSync(path, 0o444);
  }
  chmodSync(join(fn.dir, dir), 0o555);
  return fn;
}

/**
 * Start the function's holder entry alone (no IPC: it loads, then exits) with the flags its host
 * gives it (`--no-node-snapshot` and no other: HolderProcess passes none of the host's, so a
 * platform's heap flags never reach it) and say whether its code cache was used.
 */
function holderCache(fn: FunctionFolder): unknown {
  const r = spawnSync(process.execPath, ['--no-node-snapshot', join(fn.dir, HOLDER, 'holderBoot.cjs')], {
    cwd: fn.dir,
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '', SBIRTOOLS_CODE_CACHE_REPORT: '1' },
    timeout: 120_000,
  });
  expect(r.status, r.stderr).toBe(0);
  return jsonLines(r.stderr)[0]?.holderCodeCache;
}

// codeCacheFile.ts: 16-byte magic, SHA-256 of the key, SHA-256 of the payload, then the payload
const HEADER = 16 + 32 + 32;

describe('the code caches shipped in a lambda bundle', () => {
  it('is written beside the prelude, and the first isolate of a cold function takes it from the read-only folder', async () => {
    // the plain cache and its warm twin (the warm-up's functions compiled too: preludeScript.ts)
    const names = shipped(bundleDir).sort();
    expect(names).toHaveLength(2);
    expect(names[0]).toMatch(/^prelude-[0-9a-f]{16}-v8-.+\.codecache$/);
    expect(names[0]).not.toContain('.warm.');
    expect(names[1]).toBe(names[0]!.replace(/\.codecache$/, '.warm.codecache'));
    expect(statSync(join(bundleDir, PRELUDE, names[1]!)).size).toBeGreaterThan(
      statSync(join(bundleDir, PRELUDE, names[0]!)).size,
    );
    expect(bundleOut).not.toMatch(/No prelude code cache/);
    const fn = copyReadOnly(bundleDir);
    const r = await coldFunction(fn);
    expect(r).toMatchObject({ rejected: false, ok: true });
    expect(r.value).toBeGreaterThan(5);
    expect(readdirSync(fn.tmp).some((f) => f.endsWith('.codecache'))).toBe(false); // nothing to rewrite
  }, 300_000);

  it('the holder starts from the CommonJS copy of its bundle with its code cache, and a damaged or foreign cache is compiled past', async () => {
    expect(readdirSync(join(bundleDir, HOLDER))).toEqual(
      expect.arrayContaining(['holderBoot.cjs', 'holderMain.cjs', 'holderMain.cjs.codecache']),
    );
    expect(holderCache(copyReadOnly(bundleDir))).toBe('accepted');
    // one byte of the payload flipped: its checksum fails, V8 never sees it
    const damaged = withCache(
      (file) => {
        const bad = Buffer.from(file);
        bad[bad.length - 10]! ^= 0xff;
        return bad;
      },
      HOLDER,
      'holderMain.cjs.codecache',
    );
    expect(holderCache(damaged)).toBe('none');
    expect(await coldFunction(damaged)).toMatchObject({ ok: true });
    // checks passed, payload V8 does not take (another V8, other flags): rejected, compiled, answered
    const HOLDER_HEADER = 'SBIRTOOLS-HOLDERCC-1'.length + 32;
    const foreign = withCache(
      (file) => {
        const payload = Buffer.alloc(file.length - HOLDER_HEADER - 32, 7);
        return Buffer.concat([file.subarray(0, HOLDER_HEADER), createHash('sha256').update(payload).digest(), payload]);
      },
      HOLDER,
      'holderMain.cjs.codecache',
    );
    expect(holderCache(foreign)).toBe('rejected');
    expect(await coldFunction(foreign)).toMatchObject({ ok: true });
  }, 300_000);

  it('a damaged file fails its checksum and is never offered to V8: the prelude compiles, the answer comes', async () => {
    const fn = withCache((file) => {
      const bad = Buffer.from(file);
      bad[HEADER + (bad.length - HEADER) / 2]! ^= 0xff;
      return bad;
    });
    expect(await coldFunction(fn)).toMatchObject({ rejected: null, ok: true });
  }, 300_000);

  it('a file that passes its checks but that V8 rejects (another V8, other flags) costs only the compile', async () => {
    const fn = withCache((file) => {
      const payload = Buffer.alloc(file.length - HEADER, 7);
      const hash = createHash('sha256').update(payload).digest();
      return Buffer.concat([file.subarray(0, 16 + 32), hash, payload]);
    });
    expect(await coldFunction(fn)).toMatchObject({ rejected: true, ok: true });
  }, 300_000);
});
