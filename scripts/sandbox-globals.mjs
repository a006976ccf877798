// After the prelude bundle and tsc: list every global the sandbox provides (built-ins and what the
// prelude defines) into dist/prelude/globals.json, the one source of the names a table may not take.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

export async function writeSandboxGlobals(root) {
  const mod = await import(pathToFileURL(join(root, 'dist', 'src', 'runtime', 'engines', 'sandboxGlobals.js')).href);
  const dir = join(root, 'dist', 'prelude');
  const names = mod.listSandboxGlobals(readFileSync(join(dir, 'bundle.js'), 'utf8'), await mod.listQuickJsBuiltins());
  writeFileSync(join(dir, mod.SANDBOX_GLOBALS_FILE), JSON.stringify(names) + '\n');
}
