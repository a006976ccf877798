// Build: TypeScript (src/, schema/) -> dist/, and the in-isolate prelude -> dist/prelude/bundle.js.
// Runs on `npm install` (prepare) and before `npm test`, so a fresh clone is usable after one command.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const tsc = require.resolve('typescript/bin/tsc');
execFileSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.json')], { stdio: 'inherit', cwd: root });

const entry = join(root, 'prelude', 'index.ts');
if (existsSync(entry)) {
  const { buildPrelude } = await import('./build-prelude.mjs');
  await buildPrelude(root);
} else {
  console.warn('build: prelude/index.ts not found; skipping the prelude bundle');
}
mkdirSync(join(root, 'dist'), { recursive: true });
// after tsc: the holder bundle is made from the compiled JavaScript
const { buildHolder } = await import('./build-holder.mjs');
await buildHolder(root);
// the CLI's `run` path, bundled the same way (bin/sbirtools.js loads it when present)
const { buildCli } = await import('./build-cli.mjs');
await buildCli(root);
