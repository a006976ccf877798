/**
 * Builtins captured when the bundle is evaluated, before any user code runs. User code shares the
 * realm and may later replace `JSON.stringify`, `Object.keys` or prototype methods; the output path
 * (serializer, outcome, error reporting) uses only these captured references, so a polluted realm
 * can break the tenant's own helpers but not the shape of what execute() returns.
 */
const G = globalThis;
export const JSONStringify = G.JSON.stringify;
export const JSONParse = G.JSON.parse;
export const ObjectKeys = G.Object.keys;
export const ObjectGetOwnPropertyNames = G.Object.getOwnPropertyNames;
export const ObjectCreate = G.Object.create;
export const ObjectDefineProperty = G.Object.defineProperty;
export const ObjectGetOwnPropertyDescriptor = G.Object.getOwnPropertyDescriptor;
export const ObjectGetPrototypeOf = G.Object.getPrototypeOf;
export const ObjectPrototype = G.Object.prototype;
export const ObjectPrototypeToString = G.Object.prototype.toString;
export const NativeArray = G.Array;
/** String and Number as the prelude loaded (the bundle leaves them unbound: V8 inlines the global ones in hot loops); for the run's own bookkeeping. */
export const NativeString = G.String;
export const NativeNumber = G.Number;
export const ArrayIsArray = G.Array.isArray;
export const ArrayBufferIsView = G.ArrayBuffer.isView;
export const ReflectApply = G.Reflect.apply;
export const FunctionPrototypeToString = G.Function.prototype.toString;
/** The Function constructor as the prelude loaded (compiled row builders and kernels: a run that replaces `Function` never reaches them). */
export const NewFunction = G.Function;
export const NativePromise = G.Promise;
export const PromisePrototypeThen = G.Promise.prototype.then;
export const NativeDate = G.Date;
export const DatePrototypeGetTime = G.Date.prototype.getTime;
export const DatePrototypeToISOString = G.Date.prototype.toISOString;
export const MathRandom = G.Math.random;
/** For page and window arithmetic (not hot loops: a captured Math function is not inlined, the global one is). */
export const MathMin = G.Math.min;
export const MathMax = G.Math.max;
export const NativeMap = G.Map;
export const NativeSet = G.Set;
export const NativeWeakMap = G.WeakMap;

/**
 * A subclass of `Base` whose (frozen) prototype holds every method of `Base.prototype` as the
 * prelude loaded: a run that replaces `Map.prototype.get` or `Set.prototype.add` changes its own
 * collections, not the prelude's. Same brand (`isMap` holds, `instanceof Map` too), same speed.
 */
function ownMethods<C extends abstract new (...args: never[]) => object>(Base: C): C {
  const Own = class extends (Base as unknown as new () => object) {};
  const from = Base.prototype as object;
  for (const k of G.Reflect.ownKeys(from))
    if (k !== 'constructor') ObjectDefineProperty(Own.prototype, k, ObjectGetOwnPropertyDescriptor(from, k)!);
  ObjectDefineProperty(Own, 'name', { value: Base.name });
  G.Object.freeze(Own.prototype);
  return Own as unknown as C;
}
/** The prelude's own Map, Set and WeakMap (ownMethods); `NativeMap`... stay the session's constructors, for identity checks. */
export const SafeMap = ownMethods(G.Map);
export const SafeSet = ownMethods(G.Set);
export const SafeWeakMap = ownMethods(G.WeakMap);
export const ArrayPrototypeSlice = G.Array.prototype.slice;
export const StringPrototypeSlice = G.String.prototype.slice;
export const StringFromCharCode = G.String.fromCharCode;
/** Undefined in an engine without WeakRef: the text cache then drops pages instead of keeping them weakly. */
export const NativeWeakRef = G.WeakRef as typeof WeakRef | undefined;
export const WeakRefPrototypeDeref = G.WeakRef?.prototype.deref;
export const NumberIsFinite = G.Number.isFinite;
export const NumberIsSafeInteger = G.Number.isSafeInteger;
export const MapPrototypeEntries = G.Map.prototype.entries;
export const SetPrototypeValues = G.Set.prototype.values;
export const MapSizeGetter = ObjectGetOwnPropertyDescriptor(G.Map.prototype, 'size')!.get!;
export const SetSizeGetter = ObjectGetOwnPropertyDescriptor(G.Set.prototype, 'size')!.get!;
export const TypedArrayPrototype = ObjectGetPrototypeOf(G.Uint8Array.prototype);
export const TypedArrayToStringTag = ObjectGetOwnPropertyDescriptor(TypedArrayPrototype, Symbol.toStringTag)!.get!;
/** TypedArray.prototype.set as the prelude loaded: copies of kept arrays go through it, never a run's replacement. */
export const TypedArraySet = (TypedArrayPrototype as { set: (a: ArrayLike<number>) => void }).set;
/** TypedArray.prototype.indexOf as the prelude loaded (a scan of a column's presence bytes). */
export const TypedArrayIndexOf = (TypedArrayPrototype as { indexOf: (v: number, from?: number) => number }).indexOf;

/**
 * An array of `n` undefineds with no holes, for a cache filled on first read (`a[k] ?? fill(k)`):
 * a hole reads through to Array.prototype and Object.prototype, where a run may have put an
 * element (`Object.prototype[0] = 'x'` made entry 0 of every such cache read 'x').
 */
export function undefinedArray<T>(n: number): (T | undefined)[] {
  const a = new NativeArray<T | undefined>(n);
  for (let k = 0; k < n; k++) a[k] = undefined;
  return a;
}

/** `Object.prototype.toString.call(v)` through the captured builtin. */
export function tagOf(v: unknown): string {
  return ReflectApply(ObjectPrototypeToString, v, []) as string;
}

// Brand checks: the cheap tag test first (throwing is slow), then the real brand check, so a
// spoofed Symbol.toStringTag cannot pass for a Date/Map/Set.

/** True for a real Date. */
export function isDate(v: unknown): v is Date {
  if (typeof v !== 'object' || v === null || tagOf(v) !== '[object Date]') return false;
  try {
    ReflectApply(DatePrototypeGetTime, v, []);
    return true;
  } catch {
    return false;
  }
}

/** Time value of a real Date (NaN for an invalid date). */
export function timeOf(d: Date): number {
  return ReflectApply(DatePrototypeGetTime, d, []) as number;
}

/** True for a real Map (brand check through the captured `size` getter). */
export function isMap(v: unknown): v is Map<unknown, unknown> {
  if (typeof v !== 'object' || v === null || tagOf(v) !== '[object Map]') return false;
  try {
    ReflectApply(MapSizeGetter, v, []);
    return true;
  } catch {
    return false;
  }
}

/** True for a real Set. */
export function isSet(v: unknown): v is Set<unknown> {
  if (typeof v !== 'object' || v === null || tagOf(v) !== '[object Set]') return false;
  try {
    ReflectApply(SetSizeGetter, v, []);
    return true;
  } catch {
    return false;
  }
}

/** The `[Symbol.toStringTag]` of a real typed array ('Float64Array', ...), or undefined. */
export function typedArrayName(v: unknown): string | undefined {
  if (typeof v !== 'object' || v === null) return undefined;
  return ReflectApply(TypedArrayToStringTag, v, []) as string | undefined;
}

const arrayValues = G.Array.prototype[Symbol.iterator];
const arrayIteratorProto = ObjectGetPrototypeOf(arrayValues.call([])) as object;
const arrayIteratorNext = ObjectGetOwnPropertyDescriptor(arrayIteratorProto, 'next')?.value;

/**
 * Whether a for-of over (or a spread of) a plain array would still run the session's own array
 * iterator (read as descriptors: no getter of the run's runs). A for-of takes the iterator and its
 * `next` right after its iterable is made, so the check at the objects() or tolist() call is the loop's.
 */
export function arrayIterationIntact(): boolean {
  return (
    ObjectGetOwnPropertyDescriptor(G.Array.prototype, Symbol.iterator)?.value === arrayValues &&
    ObjectGetOwnPropertyDescriptor(arrayIteratorProto, 'next')?.value === arrayIteratorNext
  );
}
