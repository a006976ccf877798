// What Vercel, Next.js and Netlify do to an app that imports sbirtools: trace its files with
// @vercel/nft, ship only those, run. Every run-time file (holder script, prelude bundle, code-check
// worker, native addon, QuickJS WASM) must be in the trace, or the copy fails on its first call.
import { cpSync, lstatSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { nodeFileTrace } from '@vercel/nft';
import { ROOT } from './helpers/processes.js';
import { copyReadOnly, jsonLines, runFunction } from './helpers/functionHarness.js';

const work = mkdtempSync(join(tmpdir(), 'sbirtools-nft-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('@vercel/nft tracing of an app that imports sbirtools', () => {
  it('finds every run-time file: the traced files alone, copied to a fresh read-only folder, answer a group-by', async () => {
    const app = join(work, 'app');
    mkdirSync(join(app, 'node_modules'), { recursive: true });
    symlinkSync(ROOT, join(app, 'node_modules', 'sbirtools'));
    writeFileSync(
      join(app, 'index.mjs'),
      `
      import { run, shutdown } from 'sbirtools';
      const r = await run("award_data.groupby('Agency').count().numRows()", { cacheDir: process.env.TMPDIR });
      console.log(JSON.stringify({ ok: r.ok, value: r.value, engine: r.engine?.name, error: r.error?.message }));
      await shutdown();`,
    );
    const root = realpathSync(ROOT);
    const { fileList } = await nodeFileTrace([join(app, 'index.mjs')], {
      base: '/',
      ignore: (p: string) => /^(proc|sys|dev)\//.test(p),
    });
    const files = [...fileList].map((f) => `/${f}`);
    for (const needed of [
      'dist/holder/holderMain.cjs',
      'dist/holder/columnWorker.cjs',
      'dist/prelude/bundle.js',
      'dist/src/runtime/prepare/codeCheckWorker.js',
      'dist/src/data/remote/fetchWorker.js',
      'dist/src/data/cache/scanWorker.js',
      'dist/src/data/formats/decodeWorker.js',
      'package.json',
    ]) {
      expect(files, needed).toContain(join(root, needed));
    }
    expect(files.some((f) => f.endsWith('.node') && f.includes('isolated-vm'))).toBe(true);
    expect(files.some((f) => f.endsWith('.wasm') && f.includes('quickjs'))).toBe(true);

    // lay the traced files out as an install would, and nothing else
    const fresh = join(work, 'fresh');
    for (const file of files) {
      if (lstatSync(file).isSymbolicLink() || lstatSync(file).isDirectory()) continue;
      const inApp = relative(realpathSync(app), file);
      const inRoot = relative(root, file);
      const to = !inApp.startsWith('..')
        ? join(fresh, inApp)
        : inRoot.startsWith('node_modules')
          ? join(fresh, inRoot)
          : !inRoot.startsWith('..')
            ? join(fresh, 'node_modules', 'sbirtools', inRoot)
            : undefined;
      if (!to) continue;
      mkdirSync(dirname(to), { recursive: true });
      cpSync(file, to);
    }
    const fn = copyReadOnly(fresh);
    const r = await runFunction(fn, ['index.mjs']);
    expect(r.code, r.stderr).toBe(0);
    const [answer] = jsonLines(r.stdout);
    expect(answer).toMatchObject({ ok: true, engine: 'isolated-vm' });
    expect(answer!.value).toBeGreaterThan(5);
  }, 600_000);
});
