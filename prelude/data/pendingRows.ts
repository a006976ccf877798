/**
 * The rows of a bound row array left pending past its run (prelude/data/rowLoop.ts `release`, for a
 * declaration only loops read: src/runtime/prepare/rowArrays.ts `['defer']`): the global that holds
 * the array builds them at its first read, and drops them unbuilt at a write (docs/architecture.md,
 * "Row loops without rows").
 */
import {
  ObjectCreate,
  ObjectDefineProperty,
  ObjectGetOwnPropertyDescriptor,
  ObjectKeys,
  ReflectApply,
} from '../intrinsics.js';

const G = globalThis as unknown as Record<string, unknown>;

/** A global whose deferred rows are pending (holdRows): its accessor's getter, which settles it. */
interface Held {
  name: string;
  get: () => unknown;
}

/**
 * The globals whose deferred rows are still pending, read by settleRows before every run; an entry
 * goes when its rows are built or the name gets another value. A plain array walked by index (no
 * method or iterator a run could have replaced).
 */
const held: Held[] = [];

function isHeld(get: unknown): boolean {
  for (let i = 0; i < held.length; i++) if (held[i]!.get === get) return true;
  return false;
}

function forget(get: () => unknown): void {
  let k = 0;
  for (let i = 0; i < held.length; i++) if (held[i]!.get !== get) held[k++] = held[i]!;
  held.length = k;
}

/** A property descriptor with no prototype: a field a run put on Object.prototype is not read as one of its own. */
function descriptor(fields: PropertyDescriptor): PropertyDescriptor {
  const d = ObjectCreate(null) as PropertyDescriptor;
  const keys = ObjectKeys(fields);
  for (let i = 0; i < keys.length; i++)
    (d as Record<string, unknown>)[keys[i]!] = (fields as Record<string, unknown>)[keys[i]!];
  return d;
}

/**
 * Keeps the deferred rows of `rows`, just written back to the global `name`, pending past the end of
 * its run: the global becomes an accessor (enumerable and configurable, as the `var` it replaces)
 * whose first read builds the rows into the array and turns it back into the plain data property it
 * was, holding the array; a write first (a later run that declares the name again) turns it into a
 * data property holding the new value and drops the rows unbuilt, with the values they would be
 * built from. Every way code can read a global goes through [[Get]] (the name, `globalThis[name]`,
 * a closure of an earlier run, `@name` in a query string, the host reading the global), so the
 * array is never seen without its rows; only the property's descriptor differs while pending, and a
 * run whose code could read descriptors of the global object settles it first (settleRows). The
 * write-back's own assignment of `rows` (right after this) keeps it pending. False (build the rows
 * now) when the global is not a writable, configurable data property.
 */
export function holdRows(rows: unknown[], fill: (out: unknown[]) => void, name: string): boolean {
  const d = ObjectGetOwnPropertyDescriptor(G, name);
  if (!d || d.configurable !== true) return false;
  // a plain `var`, or the rows an earlier run left pending there (now replaced unbuilt)
  if (d.writable !== true && !(d.get && isHeld(d.get))) return false;
  if (d.get) forget(d.get);
  let later: ((out: unknown[]) => void) | null = fill;
  let value: unknown = rows;
  const enumerable = d.enumerable === true;
  const toData = () => {
    forget(get);
    // a global frozen or sealed meanwhile keeps the accessor, which goes on answering `value`
    try {
      ObjectDefineProperty(G, name, descriptor({ value, writable: true, enumerable, configurable: true }));
    } catch {
      /* the accessor answers */
    }
  };
  function get(): unknown {
    if (later) {
      const f = later;
      later = null;
      f(rows);
    }
    toData();
    return value;
  }
  function set(v: unknown): void {
    // the write-back of the run that made the array (no other code holds it before a read built its rows)
    if (v === rows && later) return;
    later = null;
    value = v;
    toData();
  }
  ObjectDefineProperty(G, name, descriptor({ get, set, enumerable, configurable: true }));
  held[held.length] = { name, get };
  return true;
}

/**
 * Code that may read descriptors of the global object: `this` (a sloppy function's is the global
 * object), an escaped name (`globalTh\u0069s`), code built from strings, reflection. Read as text
 * (comments and strings included: a false match only builds the rows sooner).
 */
const REFLECTS =
  /\\u|\b(?:this|globalThis|eval|Function|Reflect|constructor|getOwnPropertyDescriptors?|__lookupGetter__)\b/;
const regExpExec = RegExp.prototype.exec;

/**
 * Called before each run with its code (runtime/execute.ts): forgets the names no longer held (a
 * write, a delete or a redefinition replaced the accessor), and builds every pending row array now
 * when the code may read the global object's descriptors, where a held name would show an accessor
 * instead of its data property (reads of its value need nothing: the accessor builds the rows).
 */
export function settleRows(code: string): void {
  if (held.length === 0) return;
  const all = ReflectApply(regExpExec, REFLECTS, [code]) !== null;
  const now: Held[] = [];
  for (let i = 0; i < held.length; i++) now[i] = held[i]!;
  for (let i = 0; i < now.length; i++) {
    const h = now[i]!;
    if (ObjectGetOwnPropertyDescriptor(G, h.name)?.get !== h.get) forget(h.get);
    else if (all) h.get();
  }
}
