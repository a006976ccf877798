// The published package.json is the repo's less what only this repo's own machines need.
// `npm pack` / `npm publish` run `prepack` (strip) before they read the manifest and `postpack`
// (restore) after: the tarball gets the stripped copy, the working tree keeps its own.
//
// Stripped:
// - `scripts`: build, test and pack steps of this repo; a consumer's install runs none of them, and
//   npm 11 lists a package's `prepare` among "install scripts not yet covered by allowScripts".
//   npm re-reads the manifest after `prepack` and so skips `prepare`: `prepack` builds first.
// - optionalDependencies['isolated-vm-legacy'] (isolated-vm 5.0.4, the Node 20 engine).
// In the repo it lets CI (Node 20) run the suite on the native engine; in a consumer's install it
// would compile V8 bindings for minutes on every Node, including 22/24/26 where isolated-vm 6/7
// ship prebuilt. Node 20 (end of life) users add it themselves (README "Install"); without it they
// get the QuickJS engine and a warning that names this fix.
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const file = join(root, 'package.json');
const saved = join(root, 'package.json.prepack');
const REPO_ONLY_OPTIONAL = ['isolated-vm-legacy'];

const mode = process.argv[2];
if (mode === 'strip') {
  // a pack that died between strip and restore left the saved copy: restore it first, so a
  // stripped manifest is never taken as the original
  if (existsSync(saved)) renameSync(saved, file);
  const text = readFileSync(file, 'utf8');
  const pkg = JSON.parse(text);
  writeFileSync(saved, text);
  for (const name of REPO_ONLY_OPTIONAL) delete pkg.optionalDependencies?.[name];
  delete pkg.scripts;
  writeFileSync(file, `${JSON.stringify(pkg, null, 2)}\n`);
} else if (mode === 'restore') {
  if (existsSync(saved)) renameSync(saved, file);
} else {
  console.error('usage: node scripts/pack-manifest.mjs strip|restore');
  process.exit(2);
}
