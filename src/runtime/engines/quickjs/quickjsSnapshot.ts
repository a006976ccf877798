import { Lifetime, QuickJSRuntime, type QuickJSContext } from 'quickjs-emscripten-core';
import type { QuickJsEngine, WasmMemory } from './quickjsModule.js';
import { preludeSource } from '../preludeScript.js';

/**
 * The WASM memory of a QuickJS instance right after the prelude was evaluated, and where its
 * runtime and context live in it. QuickJS keeps all of its state in the instance's linear memory,
 * so a copy of these bytes into a fresh instance of the same compiled module IS a booted engine:
 * parsing and evaluating the 350 KB prelude (0.2-1.5 s in the interpreter) becomes a ~16 MB copy.
 */
interface PreludeImage {
  bytes: Uint8Array;
  rt: number;
  ctx: number;
}

const images = new WeakMap<QuickJsEngine, Promise<PreludeImage>>();

/**
 * A fresh instance of `engine` holding a runtime and context with the prelude evaluated, restored
 * from the process's prelude image (made on first use by evaluating the prelude once). Nothing of
 * the image's own instance is shared: each session gets its own instance and its own memory, of
 * at most `maxBytes`. Undefined when the image does not fit under `maxBytes` (the caller boots
 * the slow way). The caller must reseed randomness: the restored context carries the image's
 * Math.random state (see reseedScript).
 * @throws when the image cannot be made (a broken prelude build).
 */
export async function restorePrelude(
  engine: QuickJsEngine,
  maxBytes: number,
): Promise<{ vm: QuickJSContext; memory: WasmMemory } | undefined> {
  let pending = images.get(engine);
  if (!pending) {
    pending = makeImage(engine);
    images.set(engine, pending);
    pending.catch(() => images.delete(engine));
  }
  const image = await pending;
  if (image.bytes.byteLength > maxBytes) return undefined;
  const { module, memory } = await engine.instantiate(maxBytes, image.bytes.byteLength);
  const heap = new Uint8Array(memory.buffer);
  if (heap.byteLength !== image.bytes.byteLength) return undefined;
  heap.set(image.bytes);
  // The wrappers quickjs-emscripten builds in newRuntime()/newContext(), around the restored
  // pointers (its public classes; `contextPointer` is its own option for an existing context).
  const { ffi, callbacks, module: em } = module as unknown as ModuleInternals;
  const rt = new Lifetime(image.rt, undefined, (ptr: number) => {
    ffi.QTS_FreeRuntime(ptr);
    callbacks.deleteRuntime(ptr);
  });
  const runtime = new QuickJSRuntime({ module: em, callbacks, ffi, rt } as never);
  const vm = runtime.newContext({ contextPointer: image.ctx } as never);
  // as after module.newRuntime().newContext(): the caller disposes the context, then the runtime
  return { vm, memory };
}

/** The parts of QuickJSWASMModule that newRuntime() passes to QuickJSRuntime. */
interface ModuleInternals {
  ffi: { QTS_FreeRuntime(ptr: number): void };
  callbacks: { deleteRuntime(ptr: number): void };
  module: unknown;
}

async function makeImage(engine: QuickJsEngine): Promise<PreludeImage> {
  // no limits on the image's own runtime: each session sets its own after the restore
  const { module, memory } = await engine.instantiate(2 ** 31);
  const rt = module.newRuntime();
  const vm = rt.newContext();
  vm.evalCode(preludeSource(), 'sbirtools-prelude.js', { type: 'global' }).unwrap().dispose();
  // nothing of the image's instance is used again: its JS wrappers are dropped, not freed
  return {
    bytes: new Uint8Array(memory.buffer).slice(),
    rt: (rt as unknown as { rt: { value: number } }).rt.value,
    ctx: (vm as unknown as { ctx: { value: number } }).ctx.value,
  };
}

/**
 * Guest code that gives a restored context its own Math.random (xoshiro128** seeded with four
 * host-random words): every restored context starts with the image's random state, so without it
 * each session would draw the same numbers. The deterministic mode still swaps it for a seeded
 * generator during a run and puts this one back after.
 */
export function reseedScript(seed: Uint32Array): string {
  const [a, b, c, d] = [...seed].map((x) => x >>> 0);
  return `(() => {
  let a = ${a || 1}, b = ${b}, c = ${c}, d = ${d};
  const rotl = (x, k) => (x << k) | (x >>> (32 - k));
  const random = function random() {
    const r = Math.imul(rotl(Math.imul(b, 5), 7), 9) >>> 0;
    const t = b << 9;
    c ^= a; d ^= b; b ^= c; a ^= d; c ^= t; d = rotl(d, 11);
    return r / 4294967296;
  };
  Object.defineProperty(Math, 'random', { value: random, writable: true, configurable: true, enumerable: false });
})();`;
}
