/**
 * Converts any guest value to JSON text, inside the isolate, with the documented conversions
 * (docs/prelude.md "Result values"): BigInt -> "123n", Date -> ISO string, Map -> object (or
 * [key, value] pairs when a key is not a string/number), Set -> array, typed arrays -> arrays,
 * NaN/Infinity -> null, -0 -> 0, cycles -> "[Circular]", functions -> "[Function name]",
 * getters -> "[Getter]" (never invoked), symbol keys skipped, tables -> arrays of row objects.
 * toJSON methods are not called. Only captured builtins are used (see intrinsics.ts).
 */
import {
  ArrayIsArray,
  NumberIsFinite,
  ObjectDefineProperty,
  ObjectGetOwnPropertyDescriptor,
  ObjectKeys,
  ReflectApply,
  MapPrototypeEntries,
  SetPrototypeValues,
  JSONStringify,
  isDate,
  isMap,
  isSet,
  timeOf,
  typedArrayName,
  DatePrototypeToISOString,
  FunctionPrototypeToString,
} from '../intrinsics.js';
import { isTable } from '../frame/common.js';
import { isSeries } from '../series/brand.js';
import type { JsonOut } from './jsonOut.js';

/** Serialization options. */
export interface WriteOptions {
  /** Nesting written before "[Object]"/"[Array]". @default 32 */
  maxDepth: number;
  /** Rows written for a table nested in a value. @default 1000 */
  maxRows: number;
}

interface Ctx extends WriteOptions {
  out: JsonOut;
  stack: unknown[];
}

/** Writes `v` as JSON; returns false when nothing could be written (budget exhausted). */
export function writeJson(v: unknown, out: JsonOut, opts: Partial<WriteOptions> = {}): boolean {
  return write(v, { maxDepth: 32, maxRows: 1000, ...opts, out, stack: [] }, 0);
}

function fnLabel(f: Function): string {
  let name = '';
  const d = ObjectGetOwnPropertyDescriptor(f, 'name');
  if (d && typeof d.value === 'string') name = d.value;
  let cls = false;
  try {
    cls = (ReflectApply(FunctionPrototypeToString, f, []) as string).startsWith('class');
  } catch {
    /* proxy */
  }
  return cls ? `[class ${name || '(anonymous)'}]` : name ? `[Function ${name}]` : '[Function (anonymous)]';
}

/** The JSON form of a primitive or simple built-in, or undefined for containers. */
function scalar(v: unknown): string | null | undefined {
  switch (typeof v) {
    case 'number':
      return NumberIsFinite(v) ? (v === 0 ? '0' : '' + v) : 'null';
    case 'boolean':
      return v ? 'true' : 'false';
    case 'bigint':
      return null;
    case 'function':
      return null;
    case 'symbol':
      return null;
  }
  if (v === null) return 'null';
  return undefined;
}

function write(v: unknown, c: Ctx, depth: number): boolean {
  const out = c.out;
  if (typeof v === 'string') return out.string(v);
  if (typeof v === 'bigint') return out.string(`${v}n`);
  if (typeof v === 'function') return out.string(fnLabel(v));
  if (typeof v === 'symbol') return out.string(`Symbol(${v.description ?? ''})`);
  if (v === undefined) return out.pushAscii('null');
  const s = scalar(v);
  if (s !== undefined && s !== null) return out.pushAscii(s);
  const o = v as object;
  if (isDate(o)) {
    const t = timeOf(o);
    return t === t ? out.string(ReflectApply(DatePrototypeToISOString, o, []) as string) : out.push('null');
  }
  if (o instanceof RegExp) return out.string(String(o));
  if (c.stack.includes(o)) return out.string('[Circular]');
  const ta = typedArrayName(o);
  if (depth >= c.maxDepth) {
    out.budget.truncated = true;
    return out.string(ArrayIsArray(o) || ta ? '[Array]' : '[Object]');
  }
  c.stack.push(o);
  try {
    if (isTable(o)) return items(c, depth, '[', ']', tableRows(o, c.maxRows));
    if (isSeries(o)) return items(c, depth, '[', ']', o.head(c.maxRows).toArray());
    if (ArrayIsArray(o) || ta) return arrayItems(c, depth, o as ArrayLike<unknown>);
    if (isSet(o)) return items(c, depth, '[', ']', ReflectApply(SetPrototypeValues, o, []) as Iterable<unknown>);
    if (isMap(o)) return writeMap(o, c, depth);
    if (o instanceof Error)
      return props(c, depth, [
        ['name', safeGet(o, 'name')],
        ['message', safeGet(o, 'message')],
      ]);
    if (o instanceof Promise) return out.string('[Promise]');
    if (o instanceof ArrayBuffer) return out.string(`[ArrayBuffer ${o.byteLength} bytes]`);
    if (o instanceof WeakMap || o instanceof WeakSet)
      return out.string(o instanceof WeakMap ? '[WeakMap]' : '[WeakSet]');
    return props(c, depth, ownEntries(o));
  } finally {
    c.stack.pop();
  }
}

function safeGet(o: object, k: string): unknown {
  try {
    return (o as Record<string, unknown>)[k];
  } catch {
    return undefined;
  }
}

/**
 * The cells of a table result (serialize/tableResult.ts) and the elements of an array: a number, text,
 * boolean, null or undefined written straight away, as `write` writes it, with no context made for it;
 * anything else through writeJson with `opts`.
 */
export function writeCell(v: unknown, out: JsonOut, opts: Partial<WriteOptions>): boolean {
  if (typeof v === 'number') return out.pushAscii(NumberIsFinite(v) ? (v === 0 ? '0' : '' + v) : 'null');
  if (typeof v === 'string') return out.string(v);
  if (v === null || v === undefined) return out.pushAscii('null');
  if (typeof v === 'boolean') return out.pushAscii(v ? 'true' : 'false');
  return writeJson(v, out, opts);
}

/**
 * `items` of an array's elements, read by index as the generator it replaces read them (`length` once,
 * then each element in order): no generator object and no iterator call per element.
 */
function arrayItems(c: Ctx, depth: number, a: ArrayLike<unknown>): boolean {
  const out = c.out;
  if (!out.open('[')) return false;
  const n = a.length;
  for (let i = 0; i < n; i++) {
    const v = a[i];
    const m = out.mark();
    if ((i > 0 && !out.pushAscii(',')) || !write(v === undefined ? null : v, c, depth + 1)) {
      out.rollback(m);
      out.budget.truncated = true;
      break;
    }
  }
  out.close(']');
  return true;
}

function* tableRows(t: import('arquero').ColumnTable, maxRows: number): Iterable<unknown> {
  const names = t.columnNames();
  const idx = t.indices();
  const n = Math.min(idx.length, maxRows);
  for (let i = 0; i < n; i++) {
    const row: Record<string, unknown> = {};
    // defineProperty: a column named `__proto__` is an own key, not the row's prototype
    for (const name of names)
      ObjectDefineProperty(row, name, {
        value: t.column(name)!.at(idx[i]),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    yield row;
  }
}

/** Own enumerable string keys; accessors are labelled, never invoked. */
function* ownEntries(o: object): Iterable<[string, unknown, boolean?]> {
  for (const k of ObjectKeys(o)) {
    const d = ObjectGetOwnPropertyDescriptor(o, k);
    if (!d) continue;
    if ('value' in d) yield [k, d.value];
    else yield [k, d.get && d.set ? '[Getter/Setter]' : d.get ? '[Getter]' : '[Setter]'];
  }
}

function items(c: Ctx, depth: number, open: '[', close: ']', it: Iterable<unknown>): boolean {
  const out = c.out;
  if (!out.open(open)) return false;
  let first = true;
  for (const v of it) {
    const m = out.mark();
    if ((!first && !out.push(',')) || !write(v === undefined ? null : v, c, depth + 1)) {
      out.rollback(m);
      out.budget.truncated = true;
      break;
    }
    first = false;
  }
  out.close(close);
  return true;
}

function props(c: Ctx, depth: number, entries: Iterable<[string, unknown, boolean?]>): boolean {
  const out = c.out;
  if (!out.open('{')) return false;
  let first = true;
  for (const [k, v] of entries) {
    if (v === undefined || typeof v === 'symbol') continue; // like JSON.stringify
    const m = out.mark();
    if (!out.push((first ? '' : ',') + (JSONStringify(k) as string) + ':') || !write(v, c, depth + 1)) {
      out.rollback(m);
      out.budget.truncated = true;
      break;
    }
    first = false;
  }
  out.close('}');
  return true;
}

function writeMap(m: Map<unknown, unknown>, c: Ctx, depth: number): boolean {
  const entries = [...(ReflectApply(MapPrototypeEntries, m, []) as Iterable<[unknown, unknown]>)];
  if (entries.every(([k]) => typeof k === 'string' || typeof k === 'number')) {
    return props(
      c,
      depth,
      entries.map(([k, v]) => [String(k), v] as [string, unknown]),
    );
  }
  return items(c, depth, '[', ']', entries);
}
