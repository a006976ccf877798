import { PRESET_NAMES, type PresetName } from '../../schema/limits.js';
import { HINTS } from './hints.js';
import type { Rule } from './types.js';

const ALL: readonly PresetName[] = PRESET_NAMES;
const STRICT: readonly PresetName[] = ['strict'];

/**
 * The denylist, as data: one row per rule (docs/security.md has the same table with the
 * reasoning). Every row is enforced before the code reaches the isolate; the isolate is the
 * security boundary, this check is a second layer that also turns mistakes into clear errors.
 * Loosening a row is a code change with a test, never an option.
 * @example
 * RULES.find((r) => r.id === 'no-dynamic-code')?.hint
 */
export const RULES: readonly Rule[] = [
  {
    id: 'no-import',
    what: '`{name}` is not available',
    match: [
      {
        on: 'node',
        types: [
          'ImportDeclaration',
          'ImportExpression',
          'ExportNamedDeclaration',
          'ExportDefaultDeclaration',
          'ExportAllDeclaration',
          'MetaProperty',
        ],
      },
    ],
    reason: 'There is no module loader in the isolate; import/export and import.meta only fail or probe the host.',
    hint: HINTS.loaded,
    presets: ALL,
  },
  {
    id: 'no-module-globals',
    what: '`{name}` is not available',
    match: [{ on: 'identifier', names: ['require', 'module', 'exports', '__dirname', '__filename'] }],
    reason:
      'CommonJS handles are the classic route from sandboxed code to Node; they must never exist, and naming them is a mistake.',
    hint: HINTS.loaded,
    presets: ALL,
  },
  {
    id: 'no-host-globals',
    what: '`{name}` is not available',
    match: [
      { on: 'identifier', names: ['process', 'global', 'globalThis', 'self', 'window', 'Deno', 'Bun'] },
      { on: 'this', scope: 'top' },
    ],
    reason:
      'Host objects and the global object: code that looks for them is probing for an escape. Top-level `this` is the global object too.',
    hint: 'Refer to award_data, aq and the prelude helpers directly; there is no process, window or global object to use.',
    presets: ALL,
  },
  {
    id: 'no-dynamic-code',
    what: '`{name}` is not available',
    match: [
      { on: 'identifier', names: ['eval', 'Function', 'AsyncFunction', 'GeneratorFunction', 'AsyncGeneratorFunction'] },
      { on: 'timer-string', names: ['setTimeout', 'setInterval', 'setImmediate'] },
    ],
    reason:
      'Code built from strings is invisible to this check; eval-by-another-name is how every static filter is bypassed.',
    hint: 'Write the code directly; to pick a column by a computed name use `d[name]` or `aq.escape(d => ...)`.',
    presets: ALL,
  },
  {
    id: 'no-prototype-access',
    what: 'Access to `.{name}` is not allowed',
    match: [
      {
        on: 'property',
        access: 'any',
        names: [
          'constructor',
          '__proto__',
          'prototype',
          '__defineGetter__',
          '__defineSetter__',
          '__lookupGetter__',
          '__lookupSetter__',
        ],
      },
    ],
    reason:
      '`x.constructor.constructor` is the Function constructor; prototype writes persist in the session and can subvert the prelude that shapes results.',
    hint: 'Use `typeof x`, `Array.isArray(x)`, `Object.hasOwn(o, k)` or `Array.from(x)` instead of constructors and prototypes.',
    presets: ALL,
  },
  {
    id: 'no-caller-callee',
    what: 'Access to `.{name}` is not allowed',
    match: [{ on: 'property', access: 'any', names: ['caller', 'callee', 'arguments'] }],
    reason: 'Sloppy-mode function introspection can hand a callback the prelude function that called it.',
    hint: 'Pass what you need as parameters; use rest parameters (`...args`) instead of `arguments`.',
    presets: ALL,
  },
  {
    id: 'no-with',
    what: '`with` statements are not allowed',
    match: [{ on: 'node', types: ['WithStatement'] }],
    reason: '`with` makes every name inside it dynamic, so no static check can tell what a name refers to.',
    hint: 'Name the object explicitly: `const t = award_data; t.numRows()`.',
    presets: ALL,
  },
  {
    id: 'no-debugger',
    what: '`debugger` statements are not allowed',
    match: [{ on: 'node', types: ['DebuggerStatement'] }],
    reason:
      'No debugger is attached, so it does nothing today; if an inspector were ever attached it would pause the isolate mid-run. No analysis needs it.',
    hint: 'Remove it and use `print(...)` to inspect values.',
    presets: ALL,
  },
  {
    id: 'no-wasm-threads',
    what: '`{name}` is not available',
    match: [{ on: 'identifier', names: ['WebAssembly', 'SharedArrayBuffer', 'Atomics', 'Worker'] }],
    reason:
      'Wasm and shared memory allocate outside the V8 heap limit, add JIT attack surface, and Atomics.wait blocks the thread.',
    hint: 'Use plain JavaScript, typed arrays and the Arquero verbs on award_data.',
    presets: ALL,
  },
  {
    id: 'no-stack-trace-hooks',
    what: 'The stack-trace hook `{name}` is not available',
    match: [
      { on: 'property', access: 'any', objectKeys: true, names: ['prepareStackTrace'] },
      { on: 'property', access: 'write', objectKeys: true, names: ['captureStackTrace', 'stackTraceLimit'] },
    ],
    reason:
      'V8 calls Error.prepareStackTrace while formatting any error, including errors the runtime formats: a classic escape hook.',
    hint: 'Read `err.message` or `err.stack` instead; throw `new Error(...)` with a clear message.',
    presets: ALL,
  },
  {
    id: 'no-io',
    what: '`{name}` is not available',
    match: [
      {
        on: 'identifier',
        names: [
          'fetch',
          'XMLHttpRequest',
          'WebSocket',
          'EventSource',
          'importScripts',
          'navigator',
          'localStorage',
          'sessionStorage',
          'indexedDB',
          'fs',
          'http',
          'https',
          'child_process',
          'axios',
        ],
      },
    ],
    reason: 'None of these exist in the isolate; naming one means the code expects files or network it will not get.',
    hint: HINTS.noIo,
    presets: ALL,
  },
  {
    id: 'nesting-too-deep',
    what: 'The code is nested too deeply to check',
    match: [],
    reason: 'The parser ran out of stack: code that cannot be checked is rejected, never passed through.',
    hint: 'Split deeply nested expressions into several statements with intermediate `const` values.',
    presets: ALL,
  },
  {
    id: 'no-reflection',
    what: '`{name}` is not allowed in the strict preset',
    match: [
      { on: 'identifier', names: ['Reflect', 'Proxy'] },
      {
        on: 'property',
        access: 'any',
        names: [
          'getPrototypeOf',
          'setPrototypeOf',
          'getOwnPropertyDescriptor',
          'getOwnPropertyDescriptors',
          'defineProperty',
          'defineProperties',
        ],
      },
    ],
    reason:
      'Reflection reaches prototypes and accessors with keys computed at run time, which no static check can follow. Allowed in other presets: analysis code uses it rarely but legitimately, and the isolate holds.',
    hint: 'Work with plain objects and arrays (`Object.keys`, `Object.entries`, spread) and the Arquero verbs.',
    presets: STRICT,
  },
  {
    id: 'no-arguments-object',
    what: '`{name}` is not allowed in the strict preset',
    match: [{ on: 'identifier', names: ['arguments'] }],
    reason:
      'Sloppy-mode `arguments` aliases parameters; rest parameters say the same thing plainly. Harmless inside the isolate, so strict only.',
    hint: 'Use rest parameters: `function f(...args) { ... }`.',
    presets: STRICT,
  },
  {
    id: 'no-loose-this',
    what: '`this` outside a class or method is not allowed in the strict preset',
    match: [{ on: 'this', scope: 'loose' }],
    reason:
      'In a sloppy-mode function called without a receiver, `this` is the global object. The global holds nothing the code cannot name anyway, so strict only.',
    hint: 'Pass the value as a parameter, or use an arrow function and name the object you mean.',
    presets: STRICT,
  },
  {
    id: 'no-internals',
    what: '`{name}` is internal to sbirtools and not available',
    match: [{ on: 'prefix', prefix: '__sbirtools_' }],
    reason:
      'The runtime rewrites some loops into calls on `__sbirtools_*` objects that hand out values the session keeps between runs; code that calls them by hand could write into those values and make later answers of its own session wrong.',
    hint: 'Use award_data, aq and the prelude helpers; loops over `t.array(col)` and `t.objects()` are already fast as written.',
    presets: ALL,
  },
];
