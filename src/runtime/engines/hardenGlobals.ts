import type IVM from '#ivm-types';

type Context = IVM.Context;

/**
 * Globals removed from every context after the prelude boots and before user code runs.
 * Each one is a hazard seen on isolated-vm 5.0.4 (docs/threat-model.md): Atomics.waitAsync on a
 * SharedArrayBuffer aborted the host; WebAssembly.Memory and growable/resizable buffers allocate
 * outside the V8 heap, where the isolate's memory limit does not see them.
 */
export const REMOVED_GLOBALS = ['SharedArrayBuffer', 'Atomics', 'WebAssembly', 'eval'] as const;

/** Prototype methods removed for the same reason (memory outside the heap limit). */
export const REMOVED_METHODS = [
  ['ArrayBuffer', 'resize'],
  ['ArrayBuffer', 'transfer'],
  ['ArrayBuffer', 'transferToFixedLength'],
] as const;

/**
 * The hardening script (REMOVED_GLOBALS, REMOVED_METHODS, a non-resizable ArrayBuffer), shared by
 * both engines: isolated-vm evaluates it below, the QuickJS engine in quickjsSession.ts.
 */
export const HARDEN_GLOBALS_SCRIPT = `(() => {
    'use strict';
    for (const name of ${JSON.stringify(REMOVED_GLOBALS)}) {
      delete globalThis[name];
    }
    for (const [ctor, method] of ${JSON.stringify(REMOVED_METHODS)}) {
      const proto = globalThis[ctor] && globalThis[ctor].prototype;
      if (proto && Object.prototype.hasOwnProperty.call(proto, method)) delete proto[method];
    }
    // new ArrayBuffer(n, { maxByteLength }) makes a resizable buffer; without resize() it cannot grow,
    // but refuse the option outright so no code path reserves the maximum.
    const AB = ArrayBuffer;
    const Safe = function ArrayBuffer(length) {
      if (!new.target) throw new TypeError("Constructor ArrayBuffer requires 'new'");
      return Reflect.construct(AB, [length], new.target === Safe ? AB : new.target);
    };
    Safe.prototype = AB.prototype;
    Object.defineProperty(AB.prototype, 'constructor', { value: Safe, writable: true, configurable: true });
    Object.setPrototypeOf(Safe, Object.getPrototypeOf(AB));
    for (const key of Reflect.ownKeys(AB)) {
      if (key !== 'prototype' && key !== 'length' && key !== 'name') Object.defineProperty(Safe, key, Object.getOwnPropertyDescriptor(AB, key));
    }
    Object.defineProperty(globalThis, 'ArrayBuffer', { value: Safe, writable: true, configurable: true, enumerable: false });
  })()`;

export function removeDangerousGlobals(context: Context): void {
  context.evalSync(HARDEN_GLOBALS_SCRIPT, { timeout: 5_000 });
}
