/**
 * Whether code outside the prelude made any object non-extensible (`Object.freeze`, `Object.seal`,
 * `Object.preventExtensions`, `Reflect.preventExtensions`: the only ways JavaScript has). The row
 * cache (rowCache.ts) asks each row `Object.isExtensible` only once that happened: the test is a
 * builtin call per row, about half of the cost of handing cached rows out again. The prelude's own
 * freezes (Arquero freezes every table it makes) use the captured builtin (shims/freeze.ts).
 * Each wrapper calls the original with the same arguments and returns what it returns.
 */
import { ObjectDefineProperty, ReflectApply } from '../intrinsics.js';

let sealed = false;

/** True once code outside the prelude called one of the four functions (it never goes back). */
export function anySealed(): boolean {
  return sealed;
}

function watch(owner: Record<string, unknown>, name: string): void {
  const original = owner[name] as (...args: unknown[]) => unknown;
  if (typeof original !== 'function') return;
  // a method definition: no prototype and not a constructor, like the builtin
  const wrapper = {
    [name](...args: unknown[]) {
      sealed = true;
      return ReflectApply(original, owner, args);
    },
  }[name]!;
  ObjectDefineProperty(wrapper, 'length', { value: original.length });
  ObjectDefineProperty(owner, name, { value: wrapper, writable: true, enumerable: false, configurable: true });
}

/** Wraps the four functions on this realm's Object and Reflect (once, at boot). */
export function installSealWatch(): void {
  const G = globalThis as unknown as { Object: Record<string, unknown>; Reflect: Record<string, unknown> };
  for (const name of ['freeze', 'seal', 'preventExtensions']) watch(G.Object, name);
  watch(G.Reflect, 'preventExtensions');
}
