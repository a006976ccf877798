// The warm code cache (preludeScript.ts keepWarmCodeCache): an isolate that ran the prelude's
// warm-up and no run compiles the prelude again (a compilation-cache hit), and the code cache V8
// makes then also holds the bytecode of the functions the warm-up called. It is kept for the
// process's later isolates and written beside the plain cache, once; a later process reads it
// first; a run's isolate never makes it; a file V8 refuses is made again. Nothing here is timed.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IsolatedVmSession } from '../../../src/runtime/engines/isolated-vm/isolatedVmSession.js';
import { loadEngine } from '../../../src/runtime/engines/isolated-vm/loadIsolatedVm.js';
import { CodeCacheFile } from '../../../src/runtime/engines/isolated-vm/codeCacheFile.js';
import {
  preludeCodeCacheName,
  usePreludeCodeCacheDir,
  warmCodeCacheWanted,
  warmPreludeCodeCacheName,
} from '../../../src/runtime/engines/preludeScript.js';
import { SessionHost } from '../../../src/runtime/holder/sessionHost.js';
import { PRESETS } from '../../../schema/limits.js';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const PRELUDE_SCRIPT = pathToFileURL(join(ROOT, 'dist', 'src', 'runtime', 'engines', 'preludeScript.js')).href;
const LOAD_IVM = pathToFileURL(
  join(ROOT, 'dist', 'src', 'runtime', 'engines', 'isolated-vm', 'loadIsolatedVm.js'),
).href;

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'sbt-warm-cc-'));
  usePreludeCodeCacheDir(dir);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const plainFile = () => join(dir, preludeCodeCacheName().file);
const warmFile = () => join(dir, warmPreludeCodeCacheName().file);

/** A new process compiles the prelude once with `folder` as its cache folder and says what it read. */
function freshProcess(folder: string): { rejected: boolean; wanted: boolean } {
  const script = `
    const { loadEngine } = await import(${JSON.stringify(LOAD_IVM)});
    const p = await import(${JSON.stringify(PRELUDE_SCRIPT)});
    const { ivm } = loadEngine();
    p.usePreludeCodeCacheDir(${JSON.stringify(folder)});
    const isolate = new ivm.Isolate({ memoryLimit: 128 });
    const script = p.compilePrelude(ivm, isolate);
    process.stdout.write(JSON.stringify({ rejected: script.cachedDataRejected === true, wanted: p.warmCodeCacheWanted() }));
    isolate.dispose();`;
  const r = spawnSync(process.execPath, ['--no-node-snapshot', '--input-type=module', '-e', script], {
    encoding: 'utf8',
    timeout: 60_000,
  });
  expect(r.status, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
}

describe('the warm code cache', () => {
  it('is not made from an isolate a run has touched', async () => {
    const { ivm } = loadEngine();
    const session = await IsolatedVmSession.open(ivm, { ...PRESETS.standard }, [], undefined);
    try {
      expect(warmCodeCacheWanted()).toBe(true);
      const out = await session.run({
        code: '1 + 1',
        async: false,
        lineOffset: 0,
        resultName: false,
        timeoutMs: 5_000,
      });
      // the trivial program answers (the outcome's shape is the prelude's, read elsewhere)
      expect(out.status).toBe('ok');
      expect(session.keepWarmCodeCache()).toBe(false);
      expect(warmCodeCacheWanted()).toBe(true);
      expect(existsSync(warmFile())).toBe(false);
    } finally {
      session.dispose('closed');
    }
  });

  it('is made once, from a session warmed in idle time, larger than the plain cache', async () => {
    const host = new SessionHost();
    try {
      await host.open('s1', {
        limits: { ...PRESETS.standard },
        data: { kind: 'synthetic', cacheDir: dir },
        tables: [],
      });
      // the idle warm-up starts after 100 ms without a run and runs one question per slice
      for (let i = 0; i < 600 && !existsSync(warmFile()); i++) await new Promise((r) => setTimeout(r, 50));
      expect(existsSync(warmFile())).toBe(true);
      expect(warmCodeCacheWanted()).toBe(false);
      expect(statSync(warmFile()).size).toBeGreaterThan(statSync(plainFile()).size);
      const { file, key } = warmPreludeCodeCacheName();
      expect(file).toMatch(/\.warm\.codecache$/);
      // the two files are never read as each other
      expect(new CodeCacheFile(warmFile(), key).read()).toBeDefined();
      expect(new CodeCacheFile(warmFile(), preludeCodeCacheName().key).read()).toBeUndefined();
      expect(new CodeCacheFile(plainFile(), key).read()).toBeUndefined();
      // the session warmed this way answers
      const r = await host.run('s1', {
        source: "award_data['Award Amount'].sum() > 0",
        preset: 'standard',
        timeoutMs: 30_000,
      });
      expect(r.status, r.message).toBe('ok');
      expect(JSON.parse(r.outcomeJson!).value).toBe(true);
    } finally {
      host.closeAll();
    }
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  }, 60_000);

  it('a later process reads it, and V8 takes it', () => {
    expect(freshProcess(dir)).toEqual({ rejected: false, wanted: false });
  }, 60_000);

  it('a warm file V8 refuses costs the compile, and the process makes it again', () => {
    // bytes that pass the file's own checks (key, checksum) but are no code cache V8 accepts
    new CodeCacheFile(warmFile(), warmPreludeCodeCacheName().key).write(new Uint8Array(4096).fill(7));
    expect(freshProcess(dir)).toEqual({ rejected: true, wanted: true });
  }, 60_000);
});
