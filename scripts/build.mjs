// Build: TypeScript (src/, schema/) -> dist/, and the in-isolate prelude -> dist/prelude/bundle.js.
// Runs on `npm install` (prepare) and before `npm test`, so a fresh clone is usable after one command.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createRequire } from 'node:module';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const tsc = require.resolve('typescript/bin/tsc');
// --clean (npm pack's prepack): start from an empty dist/, so files a move or a rename left behind
// are never packed (tsc and esbuild only ever add and overwrite)
if (process.argv.includes('--clean')) rmSync(join(root, 'dist'), { recursive: true, force: true });
execFileSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.json')], { stdio: 'inherit', cwd: root });

const entry = join(root, 'prelude', 'index.ts');
if (existsSync(entry)) {
  const { buildPrelude } = await import('./build-prelude.mjs');
  await buildPrelude(root);
  // the names a user table may not take, listed from the bundle just built (src/runtime/engines/sandboxGlobals.ts)
  const { writeSandboxGlobals } = await import('./sandbox-globals.mjs');
  await writeSandboxGlobals(root);
} else {
  console.warn('build: prelude/index.ts not found; skipping the prelude bundle');
}
mkdirSync(join(root, 'dist'), { recursive: true });
// third-party code we ship bundled (src/vendor/): before the holder and CLI bundles read dist/
const { buildVendor } = await import('./build-vendor.mjs');
await buildVendor(root);
// after tsc: the holder bundle is made from the compiled JavaScript
const { buildHolder } = await import('./build-holder.mjs');
await buildHolder(root);
// the column decode worker, bundled the same way (dist/holder/columnWorker.cjs; columnWorkers.ts)
const { buildColumnWorker } = await import('./build-column-worker.mjs');
await buildColumnWorker(root);
// the CLI's `run` path, bundled the same way (bin/sbirtools.js loads it when present)
const { buildCli } = await import('./build-cli.mjs');
await buildCli(root);
// the entries of a Node function bundle (`sbirtools bundle --target lambda|vercel`), bundled the same way
const { buildFn } = await import('./build-fn.mjs');
await buildFn(root);
// the Cloudflare Workers module (QuickJS, no node: import) that `sbirtools bundle --target workers` ships
const { buildWorker } = await import('./build-worker.mjs');
await buildWorker(root);

// Say which engine 'auto' will use here, so an install where no isolated-vm build loads (Node 26
// without 7.x, no build tools, a host that cannot load addons) says so instead of failing later.
// In its own process: a native build is never loaded into the build's process.
const probe = `import(${JSON.stringify(pathToFileURL(join(root, 'dist', 'src', 'runtime', 'engines', 'isolated-vm', 'loadIsolatedVm.js')).href)}).then((m) => {
  try { const e = m.loadEngine(); console.log('sbirtools: engine isolated-vm ' + e.version + ' (' + e.name + ') loads on Node ' + process.version + "; engine 'auto' uses it, 'quickjs' (WASM) is also available"); }
  catch (err) { console.log('sbirtools: NO isolated-vm build loads on Node ' + process.version + ": engine 'auto' uses the QuickJS WASM engine (slower; see docs/engines.md). " + String(err.message).split('. Attempts')[0]); }
})`;
const report = spawnSync(process.execPath, ['--no-node-snapshot', '-e', probe], { encoding: 'utf8', timeout: 30_000 });
if (report.stdout) process.stderr.write(report.stdout);

// Last: test/setup/distFresh.ts refuses to run tests when a source file is newer than this stamp.
writeFileSync(join(root, 'dist', '.build-stamp'), `${new Date().toISOString()}\n`);
