/**
 * Arquero's parse of a fast verb's values (fast/rollup.ts, fast/filter.ts), kept per source text: a
 * program run again makes new closures and op objects of the same text every run, and the parse
 * (acorn over each value's text, Arquero's rewrite, a `Function` compiled per expression) was a
 * quarter of a warm `t.rollup({ lo: op.min(c), hi: op.max(c) })` once its loops were fast.
 *
 * What Arquero's parse reads, and so what the key holds: each value's text (a string, a closure's
 * source, an op object's own `toString`), the table's column names (a name not in the table is an
 * error, `op.row_object()` lists them) and its params (none: a value whose text holds `$` or a
 * table with params is never kept), the options, and which names the aggregate, window and
 * function registries hold (how a call `op.f(...)` is read; their sizes, as a guest can only add
 * to them). A value whose text Arquero would read through guest code (an own `toString`, an
 * `escape` or `field` property, an op object with non-primitive arguments) is parsed as before, and
 * so is every failure: only successful parses are kept. Callers only read what is kept.
 */
import { Op } from 'arquero/src/op/op-api.js';
import { aggregateFunctions } from 'arquero/src/op/aggregate-functions.js';
import { windowFunctions } from 'arquero/src/op/window-functions.js';
import { functions } from 'arquero/src/op/functions/index.js';
import type { ColumnTable } from 'arquero';
import {
  ArrayIsArray,
  FunctionPrototypeToString,
  JSONStringify,
  ObjectGetOwnPropertyDescriptor,
  ObjectGetPrototypeOf,
  ObjectKeys,
  ObjectPrototype,
  ReflectApply,
  SafeMap,
} from '../intrinsics.js';

const KEEP = 64;
const KEEP_CHARS = 4096;
const kept = new SafeMap<string, unknown>();
const OpToString = Op.prototype.toString;

/**
 * What `produce` computes from Arquero's parse of `values` over `t` (its only inputs), kept for the
 * session when those inputs allow; `tag` names the call site and its options. Throws what
 * `produce` throws (nothing is kept then).
 */
export function parseKept<T>(values: object, t: ColumnTable, tag: string, produce: () => T): T {
  const key = keyOf(values, t, tag);
  if (key !== undefined) {
    const known = kept.get(key);
    if (known !== undefined) return known as T;
  }
  const parsed = produce();
  if (key !== undefined && key.length <= KEEP_CHARS) {
    if (kept.size >= KEEP) kept.clear();
    kept.set(key, parsed);
  }
  return parsed;
}

/** The key of a parse, or undefined when something in it is not a function of its text alone. */
function keyOf(values: object, t: ColumnTable, tag: string): string | undefined {
  if (ObjectGetPrototypeOf(values) !== ObjectPrototype) return undefined;
  const params = t.params() as object | null | undefined;
  if (params != null && ObjectKeys(params).length > 0) return undefined;
  // one JSON array: no two inputs share a key (a name holding a separator cannot pass for two)
  const parts: unknown[] = [
    tag,
    ObjectKeys(aggregateFunctions).length,
    ObjectKeys(windowFunctions).length,
    ObjectKeys(functions).length,
    t.columnNames(),
  ];
  const names = ObjectKeys(values);
  for (let i = 0; i < names.length; i++) {
    // a getter would run once more on a miss (here, then in Arquero's parse): not kept
    const desc = ObjectGetOwnPropertyDescriptor(values, names[i]!);
    if (desc === undefined || desc.get !== undefined || desc.set !== undefined) return undefined;
    const text = textOf(desc.value);
    if (text === undefined || hasDollar(text)) return undefined;
    parts[parts.length] = names[i];
    parts[parts.length] = text;
  }
  return JSONStringify(parts);
}

/** True when the text may read a table param (`$.x`, `$['x']`): those are not kept. */
function hasDollar(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 36) return true;
  return false;
}

/** The text Arquero parses for one value (with its kind), when reading it runs no guest code. */
function textOf(v: unknown): string | undefined {
  if (typeof v === 'string') return `s${v}`;
  if (typeof v === 'function') {
    const f = v as unknown as Record<string | symbol, unknown>;
    if (f.toString !== FunctionPrototypeToString || f[Symbol.toPrimitive] !== undefined) return undefined;
    if (f.escape !== undefined || f.field !== undefined) return undefined;
    return `f${ReflectApply(FunctionPrototypeToString, v, []) as string}`;
  }
  if (v instanceof Op && ObjectGetPrototypeOf(v) === Op.prototype && ObjectKeys(v as object).length === 3) {
    const o = v as unknown as {
      toString: unknown;
      fields: unknown;
      params: unknown;
      escape?: unknown;
      field?: unknown;
    };
    if (o.toString !== OpToString || o.escape !== undefined || o.field !== undefined) return undefined;
    if (!primitives(o.fields) || !primitives(o.params)) return undefined;
    return `o${ReflectApply(OpToString, v, []) as string}`;
  }
  return undefined;
}

function primitives(xs: unknown): boolean {
  if (!ArrayIsArray(xs)) return false;
  for (let i = 0; i < xs.length; i++) {
    const x: unknown = xs[i];
    if (x !== null && typeof x !== 'string' && typeof x !== 'number' && typeof x !== 'boolean') return false;
  }
  return true;
}
