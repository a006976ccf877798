import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createContext, runInContext } from 'node:vm';
import { packageRoot } from '../../core/paths.js';

/** The file the build writes beside the prelude bundle (scripts/build.mjs). */
export const SANDBOX_GLOBALS_FILE = 'globals.json';

/** The globals of the sandbox, by who provides them. */
export interface SandboxGlobals {
  /** JavaScript's own: a fresh V8 context's and a QuickJS context's globals, and Object.prototype's names. */
  builtins: string[];
  /** What the prelude adds when it boots, and `result`. */
  prelude: string[];
}

let cached: { all: ReadonlySet<string>; builtins: ReadonlySet<string> } | undefined;

/**
 * Every global name guest code sees: the JavaScript built-ins of a V8 context (Object, Math, JSON,
 * eval, WebAssembly... also those the hardening later removes), the names on Object.prototype
 * (globalThis inherits them: toString, constructor, __proto__), and whatever the prelude bundle
 * defines when it boots (award_data, aq, print, tables, the TextEncoder polyfill...). Listed by
 * running the real bundle, so the list cannot drift from the prelude: the build writes it to
 * dist/prelude/globals.json; without that file (a bundle copied on its own) it is listed here once,
 * from V8 alone.
 * @example sandboxGlobalNames().all.has('Object') // true
 */
export function sandboxGlobalNames(): { all: ReadonlySet<string>; builtins: ReadonlySet<string> } {
  if (cached) return cached;
  const dir = join(packageRoot(), 'dist', 'prelude');
  const file = join(dir, SANDBOX_GLOBALS_FILE);
  const g = existsSync(file)
    ? (JSON.parse(readFileSync(file, 'utf8')) as SandboxGlobals)
    : listSandboxGlobals(readFileSync(join(dir, 'bundle.js'), 'utf8'));
  cached = { all: new Set([...g.builtins, ...g.prelude]), builtins: new Set(g.builtins) };
  return cached;
}

/**
 * The globals of a fresh V8 context, and those added when `bundle` (the prelude) is evaluated and
 * booted with an empty bridge. The bundle is our own code; it runs in a context of its own that is
 * dropped afterwards (about 0.1 s, once).
 */
export function listSandboxGlobals(bundle: string, moreBuiltins: readonly string[] = []): SandboxGlobals {
  const context = createContext({});
  const own = '[...Object.getOwnPropertyNames(globalThis), ...Object.getOwnPropertyNames(Object.prototype)]';
  const builtins = new Set([...(runInContext(own, context) as string[]), ...moreBuiltins]);
  runInContext(bundle, context, { filename: 'sbirtools-prelude.js' });
  runInContext('__sbirtools_boot({ fetchColumn() {}, write() {}, tables: [] })', context);
  // `result` exists only while code runs (the value a run returns)
  const prelude = [...(runInContext(own, context) as string[]), 'result'].filter((n) => !builtins.has(n));
  return { builtins: [...builtins].sort(), prelude: [...new Set(prelude)].sort() };
}

/**
 * The globals of a fresh QuickJS context (the WASM engine has a few V8 lacks: InternalError,
 * Iterator, Float16Array...), for listSandboxGlobals' `moreBuiltins`.
 * @public used by scripts/sandbox-globals.mjs through dist/ (knip cannot follow that import)
 */
export async function listQuickJsBuiltins(): Promise<string[]> {
  const { loadQuickJs } = await import('./quickjs/quickjsModule.js');
  const { module } = await (await loadQuickJs()).instantiate(64 * 1024 * 1024);
  const context = module.newContext();
  try {
    const handle = context.unwrapResult(
      context.evalCode(
        'JSON.stringify([...Object.getOwnPropertyNames(globalThis), ...Object.getOwnPropertyNames(Object.prototype)])',
      ),
    );
    const names = JSON.parse(context.getString(handle)) as string[];
    handle.dispose();
    return names;
  } finally {
    context.dispose();
  }
}
