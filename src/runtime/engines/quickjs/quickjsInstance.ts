import {
  newQuickJSWASMModuleFromVariant,
  newVariant,
  type QuickJSSyncVariant,
  type QuickJSWASMModule,
} from 'quickjs-emscripten-core';
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

/** Memories whose allocator asked to grow past their maximum (and was refused) at least once. */
const refused = new WeakSet<object>();

/**
 * True once the instance's allocator asked for more memory than its maximum allows: it is within a
 * growth step of its limit, and a trap of the WASM code from then on is the memory limit.
 */
export function growWasRefused(memory: WasmMemory): boolean {
  return refused.has(memory);
}

const PAGE = 65536;
/** The emscripten build's initial (16 MiB) and largest (2 GiB) memory, in pages. */
const INITIAL_PAGES = 256;
const MAX_PAGES = 32768;

/**
 * The engine over an already compiled QuickJS WebAssembly.Module: Node compiles the package's file
 * (quickjsModule.ts); Cloudflare Workers, which cannot compile WASM from bytes at run time, import
 * the .wasm file as a module (src/edge/). No `node:` import here: this file runs on both.
 * @example const engine = quickJsFromModule(await WebAssembly.compile(bytes), '0.32.0');
 */
export function quickJsFromModule(wasmModule: unknown, version: string): QuickJsEngine {
  // (tsconfig has no DOM lib, so WebAssembly is typed here by hand)
  const wasm = (
    globalThis as unknown as {
      WebAssembly: {
        Memory: new (d: { initial: number; maximum: number }) => WasmMemory & { grow(pages: number): number };
      };
    }
  ).WebAssembly;
  // the package's typings describe its CommonJS entry; Node loads its ESM entry, whose default is the variant
  const base = variant as unknown as QuickJSSyncVariant;
  const quiet = { print: () => undefined, printErr: () => undefined };
  return {
    version,
    async instantiate(maxBytes, initialBytes = 0) {
      // The cap QuickJS cannot overshoot: its own malloc accounting misses strings and buffers in
      // this build, but no allocation can grow the instance's memory past its maximum.
      const initial = Math.max(INITIAL_PAGES, Math.ceil(initialBytes / PAGE));
      const maximum = Math.min(MAX_PAGES, Math.max(initial, Math.ceil(maxBytes / PAGE)));
      const memory = new wasm.Memory({ initial, maximum });
      // emscripten's resize_heap calls memory.grow from JS and swallows a refusal (malloc then
      // returns NULL): remember it, so a trap that follows is read as the limit it is
      const grow = memory.grow;
      memory.grow = function (pages: number) {
        try {
          return grow.call(memory, pages);
        } catch (e) {
          refused.add(memory);
          throw e;
        }
      };
      const customized = newVariant(base, {
        wasmModule: wasmModule as never,
        wasmMemory: memory as never,
        emscriptenModule: quiet as never,
      });
      return { module: await newQuickJSWASMModuleFromVariant(customized), memory };
    },
  };
}
