// Prototype and builtin pollution a run can do before a loop or a prelude call (session 14, the
// `proto` suite: test/security/polluted-builtins-rewrites.test.ts, test/unit/prelude/pollutedBuiltins.test.ts).
// Each is one statement list, idempotent (a session may run it before every program), written
// without `.prototype`/`.constructor` (the policy refuses those names; Object.getPrototypeOf is how
// a run reaches a prototype).

/** Names the pollutions write through: the prototypes of a plain object, array, Map, Set, string, date, function. */
export const PROTOS =
  'var OP = Object.getPrototypeOf({}), AP = Object.getPrototypeOf([]), MP = Object.getPrototypeOf(new Map()), ' +
  "SetP = Object.getPrototypeOf(new Set()), SP = Object.getPrototypeOf(''), DP = Object.getPrototypeOf(new Date(0)), " +
  'FP = Object.getPrototypeOf(function () {});\n';

const accessor = (on: string, key: string, get: string) =>
  `Object.defineProperty(${on}, ${JSON.stringify(key)}, { get() { return ${get} }, set(v) {}, configurable: true });`;

/**
 * Pollution the prelude must not feel: its helpers answer as in a clean session, and a rewritten
 * loop answers what the loop as written does. Before session 14 each of these but Reflect changed
 * an answer or crashed a fast path (docs/security.md, "Builtins a run replaces").
 */
export const PRELUDE_IMMUNE: Record<string, string> = {
  'an element on Object.prototype': "OP[0] = 'z'; OP[3] = 'w';",
  'Map.prototype get, set and has replaced':
    'MP.get = function () { return 1 }; MP.set = function () { return this }; MP.has = function () { return true };',
  'Map iteration replaced':
    'MP[Symbol.iterator] = function* () {}; MP.entries = MP[Symbol.iterator]; MP.keys = MP[Symbol.iterator]; MP.values = MP[Symbol.iterator]; MP.forEach = function () {};',
  'JSON.stringify and JSON.parse replaced':
    'JSON.stringify = function () { return \'"x"\' }; JSON.parse = function () { return 1 };',
  'Reflect.apply and ownKeys replaced':
    'Reflect.apply = function () { return 0 }; Reflect.ownKeys = function () { return [] };',
  'global constructors reassigned (Map, Set, WeakMap, typed arrays)':
    'Map = function () { return {} }; Set = Map; WeakMap = Map; Float64Array = function () { return [] }; Uint32Array = Float64Array; Int32Array = Float64Array; Uint8Array = Float64Array;',
};

/**
 * Pollution that plain JavaScript feels too, or that the prelude's table code still feels (listed
 * in docs/security.md): a rewritten loop must answer what the loop as written does, whatever that is.
 * Set.prototype methods are here: the prelude's own lookup tables have their own (SafeSet), Arquero's
 * sets and the Series' distinct counts use the session's Set (a subclass made nunique 2x slower).
 * Replaced Math functions and isNaN/Number/String are here: the prelude leaves them unbound (V8
 * inlines the global builtins in hot loops), so describe or median feel them; before session 14
 * Math.max replaced made keyed and date loops overflow the stack where the loops as written answered.
 * Left out: Array.prototype methods the table code calls (map, join, push, slice: objects() as
 * written then answers garbage while the rewritten loop answers right), Array.prototype.sort,
 * includes and indexOf (some of the prelude's runs then loop until their deadline), typed array methods (QuickJS: the row reader's Latin-1
 * decode then spreads a whole column).
 */
export const PLAIN_JS_FEELS: Record<string, string> = {
  'Set.prototype add and has replaced':
    'SetP.add = function () { return this }; SetP.has = function () { return false };',
  'Math.max and Math.min replaced': 'Math.max = function () { return 0 }; Math.min = function () { return 0 };',
  'Math.floor, round, abs, sqrt, log, pow, trunc, ceil replaced':
    'Math.floor = Math.round = Math.abs = Math.sqrt = Math.log = Math.pow = Math.trunc = Math.ceil = function () { return 1 };',
  'global functions reassigned (isNaN, isFinite, parseFloat, String, Number, Symbol)':
    "isNaN = function () { return true }; isFinite = function () { return false }; parseFloat = function () { return 1 }; String = function () { return 'S' }; Number = function () { return 7 }; Symbol = function () {};",
  'an accessor element on Object.prototype': accessor('OP', '0', "'g'"),
  'data keys named like the column values': "OP['Phase II'] = 5; OP['Phase I'] = [9, 9]; OP['2021'] = 4;",
  'an accessor named like a column value': accessor('OP', 'Phase I', '7'),
  'accessors for names the prelude reads': [
    'n',
    'sum',
    'count',
    'key',
    'value',
    'values',
    'index',
    'name',
    'type',
    'size',
    'data',
    'columns',
    'kind',
    'first',
  ]
    .map((k) => accessor('OP', k, 'undefined'))
    .join(' '),
  'Object.prototype.toJSON, toString and valueOf':
    "OP.toJSON = function () { return 'J' }; OP.toString = function () { return 'T' }; OP.valueOf = function () { return 7 };",
  'elements on Array.prototype': "AP[0] = 'h'; AP[1] = 'h1';",
  'Array.prototype[Symbol.iterator] replaced': 'AP[Symbol.iterator] = function* () { yield 1 };',
  'Array.prototype reduce and forEach replaced': 'AP.reduce = function () { return 0 }; AP.forEach = function () {};',
  'Array[Symbol.species] replaced':
    'class A2 extends Array {}; Object.defineProperty(Array, Symbol.species, { get() { return A2 }, configurable: true });',
  'Array, Object and Number statics replaced':
    'Array.isArray = function () { return false }; Array.from = function () { return [] }; Object.keys = function () { return [] }; Object.entries = function () { return [] }; Number.isFinite = function () { return false }; Number.isInteger = function () { return false };',
  'String.prototype methods replaced':
    "SP.toLowerCase = function () { return 'x' }; SP.includes = function () { return true }; SP.indexOf = function () { return 0 }; SP.slice = function () { return 's' }; SP.split = function () { return [] };",
  'Date.prototype methods replaced':
    'DP.getUTCFullYear = function () { return 1 }; DP.getTime = function () { return 1 }; DP.getUTCMonth = function () { return 1 }; DP.valueOf = function () { return 1 };',
  'Date reassigned': 'Date = function () { return 1 }; Date.UTC = function () { return 1 };',
  'Function.prototype call, apply and bind replaced':
    'FP.call = function () { return 0 }; FP.apply = function () { return 0 }; FP.bind = function () { return function () { return 0 } };',
};
