import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { newQuickJSWASMModuleFromVariant, newVariant, type QuickJSSyncVariant, type QuickJSWASMModule } from 'quickjs-emscripten-core';
import variant from '@jitl/quickjs-wasmfile-release-sync';

/** The compiled QuickJS WASM code, and the version reported in results. */
export interface QuickJsEngine {
  /**
   * A new WASM instance of the module compiled once, one per session, with its own linear memory
   * that cannot grow past `maxBytes` (rounded up to 64 KiB pages, at most the build's 2 GiB).
   */
  instantiate(maxBytes: number, initialBytes?: number): Promise<{ module: QuickJSWASMModule; memory: WasmMemory }>;
  version: string;
}

/** The part of WebAssembly.Memory the engine reads. */
export interface WasmMemory {
  readonly buffer: ArrayBuffer;
}

const PAGE = 65536;
/** The emscripten build's initial (16 MiB) and largest (2 GiB) memory, in pages. */
const INITIAL_PAGES = 256;
const MAX_PAGES = 32768;

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
  const wasm = (globalThis as unknown as {
    WebAssembly: { compile(bytes: Uint8Array): Promise<unknown>; Memory: new (d: { initial: number; maximum: number }) => WasmMemory };
  }).WebAssembly;
  const wasmModule = await wasm.compile(readFileSync(require.resolve('@jitl/quickjs-wasmfile-release-sync/wasm')));
  // the package's typings describe its CommonJS entry; Node loads its ESM entry, whose default is the variant
  const base = variant as unknown as QuickJSSyncVariant;
  const quiet = { print: () => undefined, printErr: () => undefined };
  return {
    version: quickJsVersion(require),
    async instantiate(maxBytes, initialBytes = 0) {
      // The cap QuickJS cannot overshoot: its own malloc accounting misses strings and buffers in
      // this build, but no allocation can grow the instance's memory past its maximum.
      const initial = Math.max(INITIAL_PAGES, Math.ceil(initialBytes / PAGE));
      const maximum = Math.min(MAX_PAGES, Math.max(initial, Math.ceil(maxBytes / PAGE)));
      const memory = new wasm.Memory({ initial, maximum });
      const customized = newVariant(base, { wasmModule: wasmModule as never, wasmMemory: memory as never, emscriptenModule: quiet as never });
      return { module: await newQuickJSWASMModuleFromVariant(customized), memory };
    },
  };
}

function quickJsVersion(require: NodeRequire): string {
  try {
    // the package exports no ./package.json: read it beside its entry point
    const entry = require.resolve('quickjs-emscripten-core');
    return (JSON.parse(readFileSync(join(dirname(entry), '..', 'package.json'), 'utf8')) as { version: string }).version;
  } catch {
    return 'unknown';
  }
}
