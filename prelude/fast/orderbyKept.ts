/**
 * Arquero's `orderby` with its comparator's parse kept per session: `t.orderby('Award Year')` and
 * `t.orderby(aq.desc('Award Amount'))` parse each key (acorn over the field, Arquero's rewrite),
 * generate the comparator's source and compile it on every call; a re-run question makes the same
 * call on a new table, and that parse was a quarter of a warm `orderby(aq.desc(c)).slice(0, 1)` and
 * a sixth of a warm `groupby(c).count().orderby(c)` (docs/benchmarks.md, session 19).
 *
 * Only plain keys are kept: column names (strings) and `aq.desc(name)` as Arquero made it. The
 * code below is Arquero 8.0.3's `orderby` (verbs/orderby.js `parseValues`) and `compare`
 * (expression/compare.js) split in two: the parse and the generated source (a function of the
 * keys, the table's column names, which the parse checks, whether each key's column is an array,
 * which the code reads by index, and whether the table is grouped), kept;
 * and the comparator made from it for this table (its data and group keys), every call, as
 * Arquero makes it. A key with an escaped function, a collation or an aggregate is never kept (the
 * caller runs Arquero's own `orderby`), and neither is a parse that throws.
 */
import { desc, type ColumnTable } from 'arquero';
import { parse } from 'arquero/src/expression/parse.js';
import { codegen } from 'arquero/src/expression/codegen.js';
import { field } from 'arquero/src/helpers/field.js';
import { isArrayType } from 'arquero/src/util/is-array-type.js';
import {
  ArrayIsArray,
  JSONStringify,
  ObjectGetOwnPropertyDescriptor,
  ObjectGetPrototypeOf,
  ObjectKeys,
  ObjectPrototype,
  SafeMap,
} from '../intrinsics.js';

/** A comparator's factory, as Arquero's `compare` compiles it: `(op, keys, fn, data) => (a, b) => number`. */
type Factory = (op: unknown, keys: unknown, fn: unknown[], data: unknown) => (a: number, b: number) => number;

const KEEP = 64;
const kept = new SafeMap<string, Factory>();
/** The prototype of Arquero's key wrappers (helpers/wrap.js `Wrapper`, not exported): what `aq.desc` returns. */
const WRAPPER = ObjectGetPrototypeOf(desc('x')) as object;
const StringPrototype = ObjectGetPrototypeOf('') as object;
/** What parseValues and the parse read from a key or its wrapper: inherited, any of them changes the parse. */
const READ = ['expr', 'desc', 'field', 'table', 'escape', 'collate', 'func', 'window'];

// Arquero 8.0.3 expression/compare.js: the code that compares one field
const compareCode = (u: string, v: string, lt: number, gt: number) =>
  `((u = ${u}) < (v = ${v}) || u == null) && v != null ? ${lt} : (u > v || v == null) && u != null ? ${gt} : ((v = v instanceof Date ? +v : v), (u = u instanceof Date ? +u : u)) !== u && v === v ? ${lt} : v !== v && u === u ? ${gt} : `;

/** `t.orderby(...args)` with the parse kept, or undefined when a key is not a plain one (Arquero's orderby runs). */
export function keptOrderby(t: ColumnTable, args: unknown[]): ColumnTable | undefined {
  if (!unchanged()) return undefined;
  const params = args.flat();
  const key: unknown[] = ['orderby', t.columnNames(), t.isGrouped()];
  for (const p of params) {
    const name = plainKey(p);
    if (name === undefined) return undefined;
    // the generated code reads an array column by index and any other by `at()` (Arquero's rewrite)
    key.push(name, isArrayType(t.column(name.slice(2))));
  }
  const text = JSONStringify(key);
  let factory = kept.get(text);
  if (factory === undefined) {
    factory = compile(t, params);
    if (factory === undefined) return undefined;
    if (kept.size >= KEEP) kept.clear();
    kept.set(text, factory);
  }
  // what compare() does with its parse: the comparator for this table (no aggregates: `op` unused)
  const keys = t.isGrouped() ? (t.groups() as unknown as { keys: unknown }).keys : null;
  const comparator = factory(undefined, keys, [], t.data());
  return t.create({ order: comparator as never });
}

/** No key wrapper, string or object inherits a property the parse reads (a run could add one). */
function unchanged(): boolean {
  if (ObjectGetPrototypeOf(WRAPPER) !== ObjectPrototype || ObjectGetPrototypeOf(StringPrototype) !== ObjectPrototype)
    return false;
  for (const name of READ) {
    if (ObjectGetOwnPropertyDescriptor(WRAPPER, name) !== undefined) return false;
    if (ObjectGetOwnPropertyDescriptor(StringPrototype, name) !== undefined) return false;
    if (ObjectGetOwnPropertyDescriptor(ObjectPrototype, name) !== undefined) return false;
  }
  return true;
}

/**
 * The key's part of the cache key: `s:name` for a column name, `d:name` for `aq.desc(name)` (own data
 * properties `expr` and `desc` only, so no guest code runs when Arquero copies it); undefined otherwise.
 */
function plainKey(p: unknown): string | undefined {
  if (typeof p === 'string') return `s:${p}`;
  if (p === null || typeof p !== 'object' || ArrayIsArray(p) || ObjectGetPrototypeOf(p) !== WRAPPER) return undefined;
  const names = ObjectKeys(p);
  if (names.length !== 2 || !names.includes('expr') || !names.includes('desc')) return undefined;
  const expr = ObjectGetOwnPropertyDescriptor(p, 'expr');
  const down = ObjectGetOwnPropertyDescriptor(p, 'desc');
  if (!expr || !down || !('value' in expr) || !('value' in down)) return undefined;
  if (typeof expr.value !== 'string' || expr.value === '' || down.value !== true) return undefined;
  return `d:${expr.value}`;
}

/** Arquero's parseValues + compare up to the compiled factory; undefined when the parse needs more than plain fields. */
function compile(t: ColumnTable, params: unknown[]): Factory | undefined {
  let index = -1;
  // a Map as Arquero's own (entries() reads it as a Map only when it is one of the bundle's)
  const fields = new Map<string, { desc?: boolean; collate?: unknown }>();
  // verbs/orderby.js parseValues: a string is field(param); a desc wrapper is field(param) too
  for (const p of params) fields.set(`${++index}`, field(p) as { desc?: boolean });
  const names: string[] = [];
  const exprs: Array<[string, string]> = [];
  let escaped = false;
  const [opA, opB] = t.isGrouped() ? ['ka', 'kb'] : ['0', '0'];
  let ops: unknown[];
  try {
    ({ ops } = parse(fields, {
      table: t,
      value: (name: string, node: { escape?: unknown }) => {
        names.push(name);
        if (node.escape) escaped = true;
        else exprs.push([codegen(node, { index: 'a', op: opA }), codegen(node, { index: 'b', op: opB })]);
      },
      window: false,
    }));
  } catch {
    return undefined; // Arquero's own orderby throws its own error
  }
  if (escaped || ops.length > 0) return undefined;
  let code = `return (a, b) => {${t.isGrouped() ? 'const ka = keys[a], kb = keys[b];' : ''}let u, v; return `;
  for (let i = 0; i < names.length; ++i) {
    const f = fields.get(names[i]!)!;
    if (f.collate) return undefined;
    const o = f.desc ? -1 : 1;
    const [u, v] = exprs[i]!;
    code += compareCode(u, v, -o, o);
  }
  code += '0;};';
  return Function('op', 'keys', 'fn', 'data', code) as Factory;
}
