/**
 * A record of the builtins the warm-up (warmUp.ts) reaches, so it can tell whether user code has
 * changed any of them since. User code shares this realm and may replace `Math.floor`, a prototype
 * method or a global constructor; the warm-up must never call such a function (the user's code
 * would see calls it did not make), so once anything recorded here differs the session is not
 * warmed any further. Read with builtins captured when this module is evaluated.
 */
import { ColumnTable, Table } from 'arquero';
import { NativeArray, ObjectGetOwnPropertyDescriptor, ObjectGetPrototypeOf, ReflectApply } from '../intrinsics.js';
import { Series } from '../series/Series.js';

const ReflectOwnKeys = Reflect.ownKeys;
const G = globalThis as unknown as Record<string, unknown>;

/** Standard globals (the ones hardenGlobals removes are not listed: they are gone before the record). */
const GLOBALS = [
  'Object',
  'Function',
  'Array',
  'Number',
  'Boolean',
  'String',
  'Symbol',
  'BigInt',
  'Date',
  'RegExp',
  'Error',
  'TypeError',
  'RangeError',
  'Promise',
  'Map',
  'Set',
  'WeakMap',
  'WeakSet',
  'WeakRef',
  'ArrayBuffer',
  'DataView',
  'Uint8Array',
  'Int8Array',
  'Uint16Array',
  'Int16Array',
  'Uint32Array',
  'Int32Array',
  'Float32Array',
  'Float64Array',
  'Uint8ClampedArray',
  'Math',
  'JSON',
  'Reflect',
  'Proxy',
  'Intl',
  'parseInt',
  'parseFloat',
  'isNaN',
  'isFinite',
  'TextEncoder',
  'TextDecoder',
];

/** One object's own properties: key -> value, getter and setter, plus its prototype. */
interface Shape {
  target: object;
  proto: object | null;
  keys: PropertyKey[];
  parts: unknown[];
}

function shapeOf(target: object): Shape {
  const keys = ReflectOwnKeys(target);
  const parts: unknown[] = [];
  for (let i = 0; i < keys.length; i++) {
    const d = ObjectGetOwnPropertyDescriptor(target, keys[i]!)!;
    parts.push(d.value, d.get, d.set);
  }
  return { target, proto: ObjectGetPrototypeOf(target) as object | null, keys, parts };
}

function same(s: Shape): boolean {
  if (ObjectGetPrototypeOf(s.target) !== s.proto) return false;
  const keys = ReflectOwnKeys(s.target);
  if (keys.length !== s.keys.length) return false;
  for (let i = 0; i < keys.length; i++) {
    if (keys[i] !== s.keys[i]) return false;
    const d = ObjectGetOwnPropertyDescriptor(s.target, keys[i]!)!;
    if (d.value !== s.parts[3 * i] || d.get !== s.parts[3 * i + 1] || d.set !== s.parts[3 * i + 2]) {
      // a NaN-valued constant (Number.NaN) is unchanged although NaN !== NaN
      if (!(d.value !== d.value && s.parts[3 * i] !== s.parts[3 * i])) return false;
    }
  }
  return true;
}

function isObject(v: unknown): v is object {
  return (typeof v === 'object' && v !== null) || typeof v === 'function';
}

/**
 * Records the standard globals, their own properties and their prototypes' (and the iterator,
 * generator and typed-array prototypes, the table and Series prototypes); returns a check that is
 * true while all of them are as recorded.
 */
export function snapshotRealm(): () => boolean {
  const targets = new Set<object>();
  const add = (v: unknown) => {
    if (!isObject(v) || targets.has(v)) return;
    targets.add(v);
    const proto = (v as { prototype?: unknown }).prototype;
    if (isObject(proto)) targets.add(proto);
  };
  const globals: unknown[] = [];
  for (const name of GLOBALS) {
    const d = ObjectGetOwnPropertyDescriptor(G, name);
    globals.push(d?.value, d?.get);
    add(d?.value);
  }
  const arrayIterator = ObjectGetPrototypeOf(ReflectApply(NativeArray.prototype[Symbol.iterator], [], []));
  add(arrayIterator);
  add(ObjectGetPrototypeOf(arrayIterator));
  add(ObjectGetPrototypeOf(new Map()[Symbol.iterator]()));
  add(ObjectGetPrototypeOf(new Set()[Symbol.iterator]()));
  add(ObjectGetPrototypeOf(''[Symbol.iterator]()));
  add(ObjectGetPrototypeOf(Uint8Array));
  add(ObjectGetPrototypeOf(function* () {}));
  add(ObjectGetPrototypeOf(ObjectGetPrototypeOf((function* () {})())));
  add(ColumnTable);
  add(Table);
  add(Series);
  const shapes = [...targets].map(shapeOf);
  return () => {
    for (let i = 0; i < GLOBALS.length; i++) {
      const d = ObjectGetOwnPropertyDescriptor(G, GLOBALS[i]!);
      if (d?.value !== globals[2 * i] || d?.get !== globals[2 * i + 1]) return false;
    }
    for (let i = 0; i < shapes.length; i++) if (!same(shapes[i]!)) return false;
    return true;
  };
}
