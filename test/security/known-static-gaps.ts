import type { PresetName } from '../../schema/limits.js';

/** An attack the AST check cannot see, and why the isolate still holds against it. */
export interface StaticGap {
  id: string;
  /** A program that passes checkCode in `missedIn` (the runtime's tests run it in a real isolate). */
  code: string;
  /** Presets whose rules let it through; any other preset must catch it. */
  missedIn: readonly PresetName[];
  /** Why no static check can catch it. */
  why: string;
  /** What stops it anyway. */
  isolateHolds: string;
}

const ALL: readonly PresetName[] = ['permissive', 'standard', 'strict'];
const NOT_STRICT: readonly PresetName[] = ['permissive', 'standard'];

const OWN_REALM =
  'whatever it reaches is an intrinsic of the isolate’s own context: a Function built there compiles code into the same context, which holds no require, process or host object (the runtime deletes those globals after boot), runs under the isolate heap limit and the host deadline, and hands the host nothing but a JSON string that zod validates';

/**
 * Known static gaps of the policy layer (docs/security.md lists the same). The lead's runtime
 * tests run each `code` in a real isolate and assert it gains nothing.
 */
export const KNOWN_STATIC_GAPS: readonly StaticGap[] = [
  {
    id: 'runtime-computed-key',
    code: "const k = ['constr', 'uctor'].join(''); const F = (() => 0)[k][k]; F('return typeof process')()",
    missedIn: ALL,
    why: 'the key is computed at run time (a join, a variable, data); only literal keys and `+` of literals are folded',
    isolateHolds: OWN_REALM,
  },
  {
    id: 'char-code-key',
    code: 'const k = String.fromCharCode(99, 111, 110, 115, 116, 114, 117, 99, 116, 111, 114); [][k]',
    missedIn: ALL,
    why: 'the key is built by a function call at run time',
    isolateHolds: OWN_REALM,
  },
  {
    id: 'to-string-coercion-key',
    code: "const key = { toString: () => 'constructor' }; [][key]",
    missedIn: ALL,
    why: 'an object key is converted by its own toString at run time',
    isolateHolds: OWN_REALM,
  },
  {
    id: 'tagged-template-key',
    code: '[][String.raw`constructor`]',
    missedIn: ALL,
    why: 'a tagged template is a function call; its result is not folded',
    isolateHolds: OWN_REALM,
  },
  {
    id: 'runtime-stack-trace-hook',
    code: "const name = 'prepare' + 'StackTrace'.slice(0); const hooks = {}; hooks[name] = (e, s) => s; Object.assign(Error, hooks)",
    missedIn: ALL,
    why: 'the hook name is computed at run time and copied in with Object.assign',
    isolateHolds:
      'V8 calls Error.prepareStackTrace inside the isolate; the runtime formats guest errors inside the isolate under the run deadline and only a string reaches the host',
  },
  {
    id: 'runtime-expression-string',
    code: "const k = 'constr' + 'uctor'.slice(0); award_data.derive({ y: 'd => d.Agency.' + k })",
    missedIn: ALL,
    why: 'Arquero expression strings are checked only when written as one literal; a string built at run time is code the check never sees',
    isolateHolds:
      'Arquero compiles it inside the isolate, with the same reach as the other gaps (own realm, no host objects)',
  },
  {
    id: 'runtime-timer-string',
    code: "const src = 'pri' + 'nt(1)'; typeof setTimeout === 'function' && setTimeout(src, 0)",
    missedIn: ALL,
    why: 'only literal strings passed to timers are caught; a variable can hold code',
    isolateHolds:
      'the prelude’s timers, if any, must accept functions only; a string would still be evaluated inside the isolate',
  },
  {
    id: 'reflect-with-runtime-key',
    code: "const k = ['__pro', 'to__'].join(''); Reflect.get([], k)",
    missedIn: NOT_STRICT,
    why: 'Reflect is allowed outside strict and the key is computed at run time (strict bans Reflect by name)',
    isolateHolds: OWN_REALM,
  },
  {
    id: 'getter-on-prototype',
    code: "Object.defineProperty(Object.getPrototypeOf([]), 'first', { get() { return this[0] }, configurable: true }); [1].first",
    missedIn: NOT_STRICT,
    why: 'a prototype reached through getPrototypeOf is not named in the code; strict bans getPrototypeOf and defineProperty',
    isolateHolds:
      'the prototype belongs to the session’s own context: it changes what the guest and the prelude see in that session only, and the prelude’s output still crosses as a validated JSON string',
  },
  {
    id: 'descriptor-probe',
    code: 'const d = Object.getOwnPropertyDescriptors(Object.getPrototypeOf(async () => {})); Object.keys(d)',
    missedIn: NOT_STRICT,
    why: 'descriptors are read from an object the code never names; strict bans the reflective calls',
    isolateHolds: OWN_REALM,
  },
  {
    id: 'proxy-traps',
    code: 'const p = new Proxy({}, { get: (_t, key) => key }); p.anything',
    missedIn: NOT_STRICT,
    why: 'a Proxy runs guest code on every property access; which keys it serves is decided at run time (strict bans Proxy by name)',
    isolateHolds:
      'traps run inside the isolate under its limits; a Proxy handed to the prelude can only feed it values, and results cross as a validated JSON string',
  },
  {
    id: 'sloppy-function-this',
    code: 'const g = (function () { return this })(); typeof g.award_data',
    missedIn: NOT_STRICT,
    why: 'in a sloppy-mode function called bare, `this` is the global object; strict bans `this` outside methods',
    isolateHolds:
      'the isolate’s global object holds only award_data, aq and the prelude helpers; the runtime deletes everything else after boot',
  },
  {
    id: 'arguments-computed-index',
    code: "const k = 'cal' + 'lee'.slice(0); (function () { return arguments[k] })()",
    missedIn: NOT_STRICT,
    why: 'a runtime key on `arguments`; strict bans `arguments` by name',
    isolateHolds: 'callee is the guest’s own function; nothing outside the guest’s code is reachable through it',
  },
  {
    id: 'internals-by-runtime-key',
    code:
      "const g = (function () { return this })(); const L = g[['__sbirtools', 'rowLoop'].join('_')];\n" +
      "const xs = award_data.array('Award Amount', L.open(['Award Amount'], ['shared'])); xs[0] = -12345; typeof L",
    missedIn: NOT_STRICT,
    why: 'the `__sbirtools_` name is built at run time and read off the global object a sloppy function hands out; strict bans `this` outside methods',
    isolateHolds:
      'the internals live in the session’s own context: at worst the code writes into the column values its own session keeps; the host keeps its own copy and every other session has its own isolate',
  },
];
