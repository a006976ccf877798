import { describe, it, expect } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CodeCacheFile } from '../../../src/runtime/engines/isolated-vm/codeCacheFile.js';
import { KEEP_CODE_CACHES, pruneCodeCaches } from '../../../src/runtime/engines/isolated-vm/pruneCodeCaches.js';

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

      // other builds' caches from long ago: the next write keeps only the newest few
      rmSync(path);
      const day = Date.now() / 1000 - 86_400;
      for (let i = 0; i < 6; i++) {
        const other = join(dir, `prelude-${String(i).repeat(16)}-v8-11.3.244.8-node.38-x64.codecache`);
        writeFileSync(other, 'old');
        utimesSync(other, day - i * 60, day - i * 60);
      }
      compileOnce(dir);
      expect(readdirSync(dir).sort()).toEqual(
        [name!, ...[0, 1, 2].map((i) => `prelude-${String(i).repeat(16)}-v8-11.3.244.8-node.38-x64.codecache`)].sort(),
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});

describe('pruneCodeCaches', () => {
  const name = (c: string, v8 = '11.3.244.8-node.38-x64') => `prelude-${c.repeat(16)}-v8-${v8}.codecache`;
  const now = Date.now();
  const age = (path: string, minutes: number) => {
    const t = (now - minutes * 60_000) / 1000;
    utimesSync(path, t, t);
  };

  it('keeps the given cache and the newest others, removes older ones and stale temporary files', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sbir-cc-prune-'));
    try {
      const kept = join(dir, name('f'));
      writeFileSync(kept, 'mine');
      age(kept, 100_000); // its own age never matters
      const others = ['0', '1', '2', '3', '4', '5', '6'].map((c, i) => {
        const p = join(dir, name(c, i % 2 ? '12.4.254.21-node.33-arm64' : '11.3.244.8-node.38-x64'));
        writeFileSync(p, c);
        age(p, 60 * (i + 1)); // '0' newest
        return p;
      });
      const tempOld = join(dir, `${name('a')}.4242.1700000000000.tmp`);
      const tempNew = join(dir, `${name('b')}.4243.1700000000001.tmp`);
      writeFileSync(tempOld, 'half');
      writeFileSync(tempNew, 'half');
      age(tempOld, 120);
      // not ours, or not named as ours: never touched, however old
      const foreign = ['prelude-notes.codecache', 'prelude-xyz.txt', 'award_data.sbircache', 'columnar'];
      for (const f of foreign) {
        writeFileSync(join(dir, f), 'x');
        age(join(dir, f), 100_000);
      }

      const removed = pruneCodeCaches(kept, now);
      const left = readdirSync(dir).sort();
      const keptOthers = others.slice(0, KEEP_CODE_CACHES - 1).map((p) => p.slice(dir.length + 1));
      expect(left).toEqual([name('f'), ...keptOthers, `${name('b')}.4243.1700000000001.tmp`, ...foreign].sort());
      expect(removed.sort()).toEqual(
        [
          ...others.slice(KEEP_CODE_CACHES - 1).map((p) => p.slice(dir.length + 1)),
          `${name('a')}.4242.1700000000000.tmp`,
        ].sort(),
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('leaves a cache written in the last minutes, however many there are', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sbir-cc-prune-'));
    try {
      const all = ['1', '2', '3', '4', '5', '6'].map((c) => join(dir, name(c)));
      for (const p of all) writeFileSync(p, 'x');
      expect(pruneCodeCaches(all[0]!, now)).toEqual([]);
      expect(readdirSync(dir)).toHaveLength(6);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('does nothing and does not throw for a folder that is gone', () => {
    expect(pruneCodeCaches(join(tmpdir(), `sbir-cc-none-${process.pid}`, name('1')))).toEqual([]);
  });
});
