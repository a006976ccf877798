// The isolate's global object against an explicit allow-list: everything else was removed before
// user code ran (hardenGlobals.ts) or was never there. How the test reaches the global object:
// the policy blocks `globalThis`, `self` and top-level `this` by name, so it takes the Function
// constructor through a key computed at run time (`(() => 0)[['constr','uctor'].join('')]`), a known
// static gap, and compiles `return this` with it: Function-constructor code is sloppy mode, where
// `this` is the global object. That is exactly what an attacker would do, so it checks what an
// attacker would see. A second route, a sloppy function's `this` (allowed outside strict), must agree.
// The enumeration runs inside an arrow function so the probe itself declares no globals.
import { describe, expect, it } from 'vitest';
import { run } from '../../src/index.js';
import { PRELUDE_API } from '../../schema/preludeApi.js';
import { REMOVED_GLOBALS } from '../../src/runtime/engines/hardenGlobals.js';
import { ENGINE } from './helpers.js';
import { ROW_LOOP_GLOBAL } from '../../schema/rowLoop.js';
import { HAND_SORT_GLOBAL } from '../../schema/handSort.js';
import { ARRAY_CHAIN_GLOBAL } from '../../schema/arrayChain.js';

/** ECMAScript globals that stay on both engines (no timers, no eval, no shared memory). */
const COMMON = [
  'AggregateError',
  'Array',
  'ArrayBuffer',
  'BigInt',
  'BigInt64Array',
  'BigUint64Array',
  'Boolean',
  'DataView',
  'Date',
  'Error',
  'EvalError',
  'FinalizationRegistry',
  'Float32Array',
  'Float64Array',
  'Function',
  'Infinity',
  'Int16Array',
  'Int32Array',
  'Int8Array',
  'JSON',
  'Map',
  'Math',
  'NaN',
  'Number',
  'Object',
  'Promise',
  'Proxy',
  'RangeError',
  'ReferenceError',
  'Reflect',
  'RegExp',
  'Set',
  'String',
  'Symbol',
  'SyntaxError',
  'TypeError',
  'URIError',
  'Uint16Array',
  'Uint32Array',
  'Uint8Array',
  'Uint8ClampedArray',
  'WeakMap',
  'WeakRef',
  'WeakSet',
  'decodeURI',
  'decodeURIComponent',
  'encodeURI',
  'encodeURIComponent',
  'escape',
  'globalThis',
  'isFinite',
  'isNaN',
  'parseFloat',
  'parseInt',
  'undefined',
  'unescape',
];
/** Per engine: V8 has Intl; QuickJS has no Intl but its InternalError. */
const LANGUAGE = [...COMMON, ...(ENGINE === 'quickjs' ? ['InternalError'] : ['Intl'])];
/**
 * ECMAScript 2025/2026 globals that newer engines add (V8 14 in Node 26: all of them; QuickJS
 * 2025-09: Float16Array and Iterator; V8 of Node 20: none). Language, not host: allowed when present.
 */
const NEWER_LANGUAGE = [
  'AsyncDisposableStack',
  'DisposableStack',
  'Float16Array',
  'Iterator',
  'SuppressedError',
  'Temporal',
];

/** The allow-list for a global object that holds `names`. */
function allowed(names: string[], extra: string[] = []): string[] {
  return [
    ...new Set([...LANGUAGE, ...names.filter((n) => NEWER_LANGUAGE.includes(n)), ...POLYFILLS, ...PRELUDE, ...extra]),
  ].sort();
}
/**
 * Polyfills the prelude adds (prelude/polyfills, prelude/output), `tables` (the session's table
 * list), the entry a rewritten row loop calls (prelude/data/rowLoop.ts: non-writable, it hands
 * out row iterators over the session's own tables, nothing of the host) and the one rewritten sorts
 * and Math.min/max spreads call (prelude/fast/handSort.ts: non-writable, it sorts or scans only the
 * arrays handed to it and returns them or a number).
 */
const POLYFILLS = [
  'TextDecoder',
  'TextEncoder',
  'console',
  'tables',
  ROW_LOOP_GLOBAL,
  HAND_SORT_GLOBAL,
  ARRAY_CHAIN_GLOBAL,
];
const PRELUDE = PRELUDE_API.filter((e) => e.global).map((e) => e.name);

const ENUMERATE = `(() => {
  const F = (() => 0)[['constr', 'uctor'].join('')];
  const viaFunction = F('return this')();
  const viaSloppy = (function () { return this })();
  return [viaFunction === viaSloppy, Object.getOwnPropertyNames(viaFunction).sort(), Object.getOwnPropertySymbols(viaFunction).map(String)];
})()`;

describe('the global object', () => {
  for (const preset of ['permissive', 'standard'] as const) {
    it(`${preset}: holds exactly the language, the polyfills and the prelude`, async () => {
      const r = await run(ENUMERATE, { preset });
      expect(r.error).toBeUndefined();
      const [same, names, symbols] = r.value as [boolean, string[], string[]];
      expect(same).toBe(true);
      expect(names).toEqual(allowed(names));
      expect(symbols).toEqual(['Symbol(Symbol.toStringTag)'].filter((s) => symbols.includes(s)));
      for (const removed of [
        ...REMOVED_GLOBALS,
        '__sbirtools_boot',
        'setTimeout',
        'queueMicrotask',
        'structuredClone',
        'fetch',
      ]) {
        expect(names).not.toContain(removed);
      }
    });
  }

  it('strict (no sloppy this, no Reflect) reaches the same global object through the Function constructor', async () => {
    const r = await run(
      "(() => { const F = (() => 0)[['constr', 'uctor'].join('')]; return Object.getOwnPropertyNames(F('return this')()).sort() })()",
      { preset: 'strict' },
    );
    expect(r.error).toBeUndefined();
    expect(r.value).toEqual(allowed(r.value as string[]));
  });

  it('extra tables appear by their names, and nothing else', async () => {
    const r = await run(ENUMERATE, { awardData: false, tables: { extra: [{ a: 1 }] } });
    const names = (r.value as [boolean, string[]])[1];
    expect(names).toContain('extra');
    expect(names.filter((n) => !allowed(names).includes(n))).toEqual(['extra']);
  });
});
