import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { quickJsFromModule, type QuickJsEngine } from './quickjsInstance.js';

export type { QuickJsEngine, WasmMemory } from './quickjsInstance.js';

let loading: Promise<QuickJsEngine> | undefined;

/**
 * Compile the QuickJS WASM code (quickjs-emscripten, the release-sync build of bellard/quickjs;
 * ~0.5 MB) lazily and once per process. Each session instantiates it anew (~5-15 ms): a session
 * owns a whole WASM memory, so no session can see another's heap, and a runtime QuickJS cannot
 * free (it asserts on some interrupted promise jobs) is dropped with its instance.
 * @throws when the WASM file cannot be read or compiled (a broken install).
 * @example const engine = await loadQuickJs(); const rt = (await engine.instantiate()).newRuntime();
 */
export function loadQuickJs(): Promise<QuickJsEngine> {
  loading ??= compile().catch((err: unknown) => {
    loading = undefined;
    throw err;
  });
  return loading;
}

async function compile(): Promise<QuickJsEngine> {
  const require = createRequire(import.meta.url);
  // (tsconfig has no DOM lib, so WebAssembly is typed here by hand)
  const wasm = (globalThis as unknown as { WebAssembly: { compile(bytes: Uint8Array): Promise<unknown> } }).WebAssembly;
  const wasmModule = await wasm.compile(readFileSync(require.resolve('@jitl/quickjs-wasmfile-release-sync/wasm')));
  return quickJsFromModule(wasmModule, quickJsVersion(require));
}

function quickJsVersion(require: NodeRequire): string {
  try {
    // the package exports no ./package.json: read it beside its entry point
    const entry = require.resolve('quickjs-emscripten-core');
    return (JSON.parse(readFileSync(join(dirname(entry), '..', 'package.json'), 'utf8')) as { version: string })
      .version;
  } catch {
    return 'unknown';
  }
}
