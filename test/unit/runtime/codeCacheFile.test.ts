import { describe, it, expect } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CodeCacheFile } from '../../../src/runtime/engines/isolated-vm/codeCacheFile.js';

const distRuntime = fileURLToPath(new URL('../../../dist/src/runtime/', import.meta.url));

describe('CodeCacheFile', () => {
  it('returns what it stored, and nothing for a missing, truncated, corrupt or foreign file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sbir-cc-'));
    try {
      const path = join(dir, 'x.codecache');
      const file = new CodeCacheFile(path, 'key A');
      expect(file.read()).toBeUndefined();
      const payload = Uint8Array.from({ length: 5000 }, (_, i) => (i * 7) & 255);
      file.write(payload);
      expect(Buffer.from(file.read()!).equals(Buffer.from(payload))).toBe(true);
      expect(readdirSync(dir)).toEqual(['x.codecache']); // the temporary file was renamed
      expect(new CodeCacheFile(path, 'key B').read()).toBeUndefined(); // another prelude or V8
      const bytes = readFileSync(path);
      writeFileSync(path, bytes.subarray(0, bytes.length - 1));
      expect(file.read()).toBeUndefined();
      const flipped = Buffer.from(bytes);
      flipped[flipped.length - 100]! ^= 1;
      writeFileSync(path, flipped);
      expect(file.read()).toBeUndefined();
      writeFileSync(path, 'not a code cache');
      expect(file.read()).toBeUndefined();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('creates no folder, and never throws when the folder cannot be written', () => {
    const missing = join(tmpdir(), `sbir-cc-missing-${process.pid}`);
    new CodeCacheFile(join(missing, 'x.codecache'), 'k').write(new Uint8Array(10));
    expect(() => readdirSync(missing)).toThrow();
    const dir = mkdtempSync(join(tmpdir(), 'sbir-cc-'));
    try {
      writeFileSync(join(dir, 'file'), 'x');
      const file = new CodeCacheFile(join(dir, 'file', 'sub', 'x.codecache'), 'k');
      expect(() => file.write(new Uint8Array(10))).not.toThrow();
      expect(file.read()).toBeUndefined();
      expect(readdirSync(dir)).toEqual(['file']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/** A fresh process (the holder's flags) compiles the prelude once with the disk cache in `dir`. */
function compileOnce(dir: string): { rejected: boolean | undefined; gotCache: boolean } {
  const script = `
    const { loadEngine } = await import(${JSON.stringify(join(distRuntime, 'engines', 'isolated-vm', 'loadIsolatedVm.js'))});
    const p = await import(${JSON.stringify(join(distRuntime, 'engines', 'preludeScript.js'))});
    const { ivm } = loadEngine();
    p.usePreludeCodeCacheDir(${JSON.stringify(dir)});
    const isolate = new ivm.Isolate({ memoryLimit: 128 });
    const s = p.compilePrelude(ivm, isolate);
    s.runSync(isolate.createContextSync(), { timeout: 20000 });
    console.log(JSON.stringify({ rejected: s.cachedDataRejected, gotCache: s.cachedDataRejected === false }));
    isolate.dispose();`;
  const out = execFileSync(process.execPath, ['--no-node-snapshot', '--input-type=module', '-e', script], {
    encoding: 'utf8',
  });
  return JSON.parse(out.trim().split('\n').pop()!) as { rejected: boolean | undefined; gotCache: boolean };
}

describe('the prelude code cache on disk', () => {
  it('is written by the first process, used by the next, and replaced when V8 rejects it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sbir-cc-'));
    try {
      expect(compileOnce(dir).rejected).toBeUndefined(); // no cache given: compiled from source
      const [name] = readdirSync(dir);
      expect(name).toMatch(/^prelude-[0-9a-f]{16}-v8-.*\.codecache$/);
      expect(compileOnce(dir)).toEqual({ rejected: false, gotCache: true });

      // a file that passes our checks (right key, right hash) but whose bytes V8 does not accept
      const path = join(dir, name!);
      const good = readFileSync(path);
      const header = good.subarray(0, 16 + 32);
      const junk = Buffer.alloc(good.length - 80, 0x5a);
      writeFileSync(path, Buffer.concat([header, createHash('sha256').update(junk).digest(), junk]));
      expect(compileOnce(dir).rejected).toBe(true); // V8 refused it; the prelude still compiled
      expect(compileOnce(dir)).toEqual({ rejected: false, gotCache: true }); // and it was rewritten

      // a corrupt file is not handed to V8 at all
      const bytes = readFileSync(path);
      bytes[bytes.length - 1]! ^= 0xff;
      writeFileSync(path, bytes);
      expect(compileOnce(dir).rejected).toBeUndefined();
      expect(compileOnce(dir)).toEqual({ rejected: false, gotCache: true });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
