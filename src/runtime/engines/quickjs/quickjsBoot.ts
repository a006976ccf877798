import type { QuickJSContext, QuickJSHandle, QuickJSRuntime } from 'quickjs-emscripten-core';
import type { Limits } from '../../../../schema/limits.js';
import type { DatasetInfo } from '../../../../schema/result.js';
import type { TableProvider } from '../engineSession.js';
import type { QuickJsEngine, WasmMemory } from './quickjsModule.js';
import type { OutputBuffer } from '../outputBuffer.js';
import { preludeSource } from '../preludeScript.js';
import { HARDEN_GLOBALS_SCRIPT } from '../hardenGlobals.js';
import { sliceUtf8 } from '../sliceUtf8.js';
import { guestLoad, guestTake, guestVisibleSource } from '../guestTables.js';
import { QUICKJS_BRIDGE_ADAPTER, columnToGuest } from './quickjsColumns.js';
import { reseedScript, restorePrelude } from './quickjsSnapshot.js';

const BOOT_TIMEOUT_MS = 15_000;
/**
 * QuickJS's own stack limit. WASM frames also use the host thread's native stack, and at 512 KiB
 * V8's own limit (~1 MB) is hit first (a host RangeError mid-WASM); at 256 KiB QuickJS stops
 * first: ~1,500 plain guest frames, ~560 through builtins like map(), then a catchable
 * InternalError "stack overflow".
 */
const MAX_STACK_BYTES = 256 * 1024;
/**
 * Room in the WASM memory beyond the memory limit for the engine itself: the prelude and Arquero
 * after boot (~20 MB) and the allocator's slack. The guest's own data gets `memoryLimitMb`.
 */
const BOOT_HEADROOM_BYTES = 48 * 1048576;

/** The session's WASM memory and the most it may grow to. */
export interface BootedMemory {
  wasm: WasmMemory;
  maxBytes: number;
}

/** What a booted QuickJS session is made of; the caller owns all of it. */
export interface Booted {
  memory: BootedMemory;
  rt: QuickJSRuntime;
  vm: QuickJSContext;
  /** The prelude's execute(code, opts). */
  execute: QuickJSHandle;
}

/**
 * A fresh WASM instance, runtime and context with the prelude evaluated (restored from the
 * process's prelude image: a memory copy instead of a parse), booted with the bridge
 * (columns copied in by host functions, output to `hooks.output()`), and its globals hardened.
 * `hooks.interrupt` becomes the interrupt handler once booted (the boot has its own deadline).
 * @throws when the prelude fails to boot (a broken build) or the boot passes 15 s.
 * @example const { rt, vm, execute } = await bootQuickJs(engine, limits, providers, info, hooks);
 */
export async function bootQuickJs(
  engine: QuickJsEngine,
  limits: Limits,
  tables: TableProvider[],
  dataset: DatasetInfo | undefined,
  hooks: { interrupt: () => boolean; output: () => OutputBuffer | undefined },
): Promise<Booted> {
  const maxBytes = limits.memoryLimitMb * 1048576 + BOOT_HEADROOM_BYTES;
  // the prelude already evaluated, copied in from the process's image (quickjsSnapshot.ts); else the slow way
  const restored = await restorePrelude(engine, maxBytes);
  const { module, memory } = restored
    ? { module: undefined, memory: restored.memory }
    : await engine.instantiate(maxBytes);
  const vm = restored ? restored.vm : module!.newRuntime().newContext();
  const rt = vm.runtime;
  let booted = false;
  const bootDeadline = performance.now() + BOOT_TIMEOUT_MS;
  rt.setMemoryLimit(limits.memoryLimitMb * 1048576);
  rt.setMaxStackSize(MAX_STACK_BYTES);
  rt.setInterruptHandler(() => (booted ? hooks.interrupt() : performance.now() > bootDeadline));
  const owned: QuickJSHandle[] = [];
  try {
    if (restored)
      vm.evalCode(reseedScript(randomWords()), 'sbirtools-random.js', { type: 'global' }).unwrap().dispose();
    else vm.evalCode(preludeSource(), 'sbirtools-prelude.js', { type: 'global' }).unwrap().dispose();
    const byName = new Map(tables.map((t) => [t.meta.name, t]));
    const provider = (table: QuickJSHandle, column: QuickJSHandle): [TableProvider, string, string] => {
      const t = vm.typeof(table) === 'string' ? vm.getString(table) : undefined;
      const c = vm.typeof(column) === 'string' ? vm.getString(column) : undefined;
      const p = t === undefined ? undefined : byName.get(t);
      if (!p || c === undefined) throw new Error(`unknown table or column: ${String(t)}.${String(c)}`);
      return [p, t!, c];
    };
    // Host functions copy what they return into the WASM heap: nothing of the host is reachable.
    const rawFetch = vm.newFunction('fetchColumn', (table, column) =>
      columnToGuest(vm, guestTake(...provider(table, column))),
    );
    const rawRange = vm.newFunction('fetchColumnRange', (table, column, start, end) => {
      const data = guestLoad(...provider(table, column));
      return columnToGuest(vm, sliceUtf8(data, vm.getNumber(start), vm.getNumber(end)));
    });
    const rawWrite = vm.newFunction('write', (stream, text) => {
      const out = hooks.output();
      if (!out) return;
      out.write(
        vm.typeof(stream) === 'string' && vm.getString(stream) === 'stderr' ? 'stderr' : 'stdout',
        vm.typeof(text) === 'string' ? vm.getString(text) : '',
      );
    });
    owned.push(rawFetch, rawRange, rawWrite);
    const bridgeJson = vm.newString(
      JSON.stringify({
        tables: tables.map((t) => t.meta),
        // the guest sees a file's name, never the host's absolute path
        dataset: dataset ? { ...dataset, source: guestVisibleSource(dataset.source) } : null,
        limits,
      }),
    );
    owned.push(bridgeJson);
    const adapter = vm.evalCode(QUICKJS_BRIDGE_ADAPTER, 'sbirtools-bridge.js', { type: 'global' }).unwrap();
    owned.push(adapter);
    const execute = vm.callFunction(adapter, vm.undefined, bridgeJson, rawFetch, rawRange, rawWrite).unwrap();
    vm.evalCode(HARDEN_GLOBALS_SCRIPT, 'sbirtools-harden.js', { type: 'global' }).unwrap().dispose();
    booted = true;
    return { memory: { wasm: memory, maxBytes: Math.min(maxBytes, 2 ** 31) }, rt, vm, execute };
  } catch (err) {
    for (const h of owned) if (h.alive) h.dispose();
    freeQuietly(vm, rt);
    throw err;
  } finally {
    for (const h of owned) if (h.alive) h.dispose();
  }
}

function randomWords(): Uint32Array {
  // Web Crypto (global on Node >= 19 and on the edge), not node:crypto: this file runs on both
  return crypto.getRandomValues(new Uint32Array(4));
}

/**
 * Free a context and its runtime. QuickJS asserts (an emscripten abort) when objects outlive the
 * runtime, which some interrupted promise floods cause; the session's WASM instance is its own and
 * is dropped whole, so nothing else is affected and its memory goes with it.
 */
export function freeQuietly(vm: QuickJSContext, rt: QuickJSRuntime): void {
  try {
    vm.dispose();
    rt.dispose();
  } catch {
    // the instance is unreachable after this; the garbage collector reclaims its memory
  }
}
