// Catches the isolated-vm isolate a session creates, for the CPU profiler of an inline session:
// isolated-vm's exports are read-only, so the module record the build's loader requires is proxied
// with an Isolate class that remembers its last instance. Call before the build's index is imported.
import { createRequire } from 'node:module';

/**
 * @param {string} loaderPath - the build's engines/isolated-vm/loadIsolatedVm.js (a file path)
 * @returns {() => object | null} the isolate made last, null before one is made
 */
export function catchIsolate(loaderPath) {
  const require = createRequire(loaderPath);
  const name = ['isolated-vm', 'isolated-vm-legacy'].find((n) => {
    try {
      require.resolve(n);
      return true;
    } catch {
      return false;
    }
  });
  const ivm = require(name);
  let isolate = null;
  const Isolate = class extends ivm.Isolate {
    constructor(...a) {
      super(...a);
      // eslint-disable-next-line @typescript-eslint/no-this-alias -- the profiler needs the isolate the sandbox made
      isolate = this;
    }
  };
  require.cache[require.resolve(name)].exports = new Proxy(ivm, { get: (t, k) => (k === 'Isolate' ? Isolate : t[k]) });
  return () => isolate;
}
