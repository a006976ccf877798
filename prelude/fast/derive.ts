/**
 * derive on typed arrays: `t.derive({ m: d => d['Award Amount'] / 1e6 })`, `op.year(d.Date)`,
 * `op.length(d.Abstract)`, `d.a / d.b`, comparisons, `Math.*`, conditionals: each expression is
 * evaluated a column at a time from Arquero's own parse tree (fast/deriveEval.ts), and the new
 * column is a host-style column (a LazyColumn over a Float64Array or booleans), so the verbs after
 * it (filter, groupby, rollup, orderby, objects, array) take their typed fast paths on it as on
 * any award_data column. Same values as Arquero's derive at every visible row of a filtered,
 * ordered or grouped table; anything outside that class (aggregate or window ops, strings or dates
 * out, a column that is not a host column, options other than before/after) returns undefined and
 * Arquero's derive runs.
 */
import { parse, type ColumnTable } from 'arquero';
import { columnSet } from 'arquero/src/table/ColumnSet.js';
import type { ColumnData, ColumnMeta } from '../../schema/columnar.js';
import { LazyColumn } from '../data/lazyColumn.js';
import { ArrayIsArray, ObjectGetOwnPropertyDescriptor, ObjectKeys, SafeMap } from '../intrinsics.js';
import { evalNode } from './deriveEval.js';
import { columnVec, eachRow, giveUp, ones, type Env, type Vec } from './deriveVec.js';
import type { Node } from './node.js';
import { visibleRows } from './source.js';
import { parseKept } from './parseKept.js';
import { textLengthOf } from './textUnits.js';

/** The derived table, or undefined when Arquero's derive must run. */
export function fastDerive(t: ColumnTable, values: unknown, options: unknown): ColumnTable | undefined {
  if (
    !values ||
    typeof values !== 'object' ||
    ArrayIsArray(values) ||
    typeof (values as ColumnTable).columnNames === 'function'
  )
    return undefined;
  // a table without host columns (a rollup's output, a table built from arrays): nothing to read here
  if (!t.columnNames().some((name) => t.column(name) instanceof LazyColumn)) return undefined;
  const opts = (options ?? {}) as Record<string, unknown>;
  if (typeof opts !== 'object' || opts.drop) return undefined;
  const entries = values as Record<string, unknown>;
  const keys = ObjectKeys(entries);
  const plain = (k: string) => {
    const d = ObjectGetOwnPropertyDescriptor(entries, k); // a getter would run once more per read: not here
    return (
      k !== '__proto__' &&
      d !== undefined &&
      'value' in d &&
      (typeof d.value === 'function' || typeof d.value === 'string')
    );
  };
  if (keys.length === 0 || !keys.every(plain)) return undefined;
  let nodes: ReadonlyArray<[string, Node]>;
  try {
    // the trees Arquero's parse rewrites (kept per source text: fast/parseKept.ts; read, never changed)
    nodes = parseKept(entries, t, 'derive', () => {
      const made: Array<[string, Node]> = [];
      parse(
        entries as never,
        {
          table: t,
          value: (name: string, node: Node) => {
            made.push([name, node]);
          },
        } as never,
      );
      return made;
    });
  } catch {
    return undefined; // Arquero's path reports the error, or runs the closure fallback
  }
  if (nodes.length !== keys.length || nodes.some(([, node]) => hasOp(node))) return undefined;
  const env: Env = { t, n: t.totalRows(), rows: visibleRows(t, false) };
  if ((env.rows ? env.rows.length : env.n) === 0) return undefined;
  const params = (t.params() ?? {}) as Record<string, unknown>;
  const out: Array<[string, unknown]> = [];
  try {
    for (const [name, node] of nodes) out.push([name, keptOutput(env, name, node, params)]);
  } catch {
    return undefined; // a give-up (GIVE_UP), or anything unexpected: Arquero's path answers or throws
  }
  const cols = columnSet(t);
  for (const [name, col] of out) cols.add(name, col as unknown[]);
  const dt = cols.derive(t);
  if (opts.before == null && opts.after == null) return dt;
  return dt.relocate(
    keys.filter((name) => !t.column(name)),
    opts as never,
  );
}

/** True when the tree holds an aggregate or window op (Arquero computes those over groups). */
function hasOp(node: Node): boolean {
  if (node.type === 'Op' || (node as { escape?: unknown }).escape) return true;
  for (const [key, v] of Object.entries(node)) {
    if (key === 'type') continue;
    for (const c of ArrayIsArray(v) ? v : [v])
      if (c && typeof c === 'object' && typeof (c as Node).type === 'string' && hasOp(c as Node)) return true;
  }
  return false;
}

/** A derived column kept for the session: its name, the table's row count and the columns it was computed from. */
interface KeptColumn {
  name: string;
  n: number;
  inputs: unknown[];
  column: unknown;
}

/** The last few derived columns, by the kept parse tree they were computed from (fast/parseKept.ts). */
const keptColumns = new SafeMap<Node, KeptColumn>();
const KEEP_COLUMNS = 4;

/**
 * outputColumn's answer, kept for the session (session 19) when it is a pure function of the parse
 * tree and the columns it reads: every row of the table visible (the hidden rows' validity depends on
 * the view), no params, and a tree of column reads, literals, constants and operators only (no call:
 * a function's meaning is the registry's; but the length of a long text column, `op.length(d.X)`
 * while Arquero's `length` is installed or `d.X.length`, fast/textUnits.ts `textLengthOf`) whose every column is a LazyColumn (a host column, or one
 * kept here: neither ever changes; an array column a guest holds is not) and not a date column. The same program run again
 * (kept trees are the same objects) then gets the same column, computed once, and every fast path
 * that keeps answers by column (a filter's rows, a reduction) reads it as it reads award_data's.
 */
function keptOutput(env: Env, name: string, node: Node, params: Record<string, unknown>): unknown {
  const inputs = env.rows === null && ObjectKeys(params).length === 0 ? pureInputs(env.t, node, []) : null;
  if (inputs !== null) {
    const k = keptColumns.get(node);
    if (k !== undefined && k.name === name && k.n === env.n && sameList(k.inputs, inputs)) return k.column;
  }
  const column = outputColumn(env, name, node, params);
  // a column read as it is (`d => d.x`) is the table's own already
  if (inputs !== null && node.type !== 'Column') {
    if (keptColumns.size >= KEEP_COLUMNS) keptColumns.clear();
    keptColumns.set(node, { name, n: env.n, inputs, column });
  }
  return column;
}

/** The columns `node` reads, in tree order, when it is only column reads, literals, constants and operators; else null. */
function pureInputs(t: ColumnTable, node: Node, out: unknown[]): unknown[] | null {
  switch (node.type) {
    case 'Column': {
      if (node.table !== 0 && node.table !== undefined) return null;
      const col = t.column(node.name as string) as unknown;
      // a date column's values are Dates, whose `valueOf` a run may replace (fast/filterKept.ts)
      if (!(col instanceof LazyColumn) || col.type === 'date') return null;
      out[out.length] = col;
      return out;
    }
    case 'Literal':
    case 'Constant':
      return out;
    case 'BinaryExpression':
    case 'LogicalExpression':
      return pureInputs(t, node.left as Node, out) && pureInputs(t, node.right as Node, out);
    case 'UnaryExpression':
      return pureInputs(t, node.argument as Node, out);
    case 'ConditionalExpression':
      return (
        pureInputs(t, node.test as Node, out) &&
        pureInputs(t, node.consequent as Node, out) &&
        pureInputs(t, node.alternate as Node, out)
      );
    default: {
      // the UTF-16 length of a long text column's rows (`op.length(d.X)`, `d.X.length`): its text never changes
      const text = textLengthOf(t, node);
      if (text === null) return null;
      out[out.length] = text;
      return out;
    }
  }
}

function sameList(a: unknown[], b: unknown[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** The output column of one expression: a host column read as is, or a new LazyColumn over typed arrays. */
function outputColumn(env: Env, name: string, node: Node, params: Record<string, unknown>): unknown {
  if (node.type === 'Column' && (node.table === 0 || node.table === undefined)) {
    // `d => d.x` of a dictionary column: the column itself (same strings; a column of only nulls
    // is `object` on Arquero's path). Numbers are copied below (their type is inferred again);
    // a date column gives a fresh Date per read where Arquero's array keeps one: left to Arquero
    const vec = columnVec(env.t, node.name as string);
    if (vec.k === 'codes' && vec.values.every((x) => x === null || typeof x === 'string')) {
      const codes = vec.codes;
      let present = false;
      eachRow(env, (i) => {
        if (codes[i]! >= 0) present = true;
      });
      if (present) return env.t.column(node.name as string);
      giveUp();
    }
    if (vec.k !== 'num') giveUp();
  }
  const data = columnData(env, evalNode(env, node, params));
  const meta: ColumnMeta = { name, type: data.type, kind: data.kind };
  return new LazyColumn(meta, env.n, () => data);
}

/** The Vec as column data: numbers (`integer` when every value is one) or booleans, with nulls. */
function columnData(env: Env, vec: Vec): ColumnData {
  const n = env.n;
  if (vec.k === 'const') {
    const x = vec.value;
    if (typeof x === 'number') return floats(env, new Float64Array(n).fill(x), null);
    if (typeof x === 'boolean') return bools(env, new Uint8Array(n).fill(x ? 1 : 0), null);
    return giveUp();
  }
  if (vec.k === 'num') return floats(env, vec.v, vec.valid);
  if (vec.k === 'bool') return bools(env, vec.v, null);
  if (vec.k !== 'codes') return giveUp();
  const { codes, values } = vec;
  const isNum = values.every((x) => x === null || typeof x === 'number');
  const isBool = values.every((x) => x === null || typeof x === 'boolean');
  if (!isNum && !isBool) giveUp();
  // the entries' values and validity as typed lookups (a boolean stores as 1/0), then one typed loop
  const m = values.length;
  const lutV = new Float64Array(m);
  const lutOk = new Uint8Array(m);
  for (let j = 0; j < m; j++) {
    const x = values[j];
    if (x === null) continue;
    lutV[j] = x as number;
    lutOk[j] = 1;
  }
  const v = isNum ? new Float64Array(n) : new Uint8Array(n);
  const valid = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const c = codes[i]! + 1;
    v[i] = lutV[c]!;
    valid[i] = lutOk[c]!;
  }
  return isNum ? floats(env, v as Float64Array, valid) : bools(env, v as Uint8Array, valid);
}

function floats(env: Env, values: Float64Array, valid: Uint8Array | null): ColumnData {
  const ok = visibleValid(env, valid);
  // the type as the prelude infers it for a plain column (frame/common.ts inferDtype): NaN counts as
  // missing there, so a column of only NaN and null is `object` (Arquero's path keeps that)
  let present = false;
  let integer = true;
  for (let i = 0; i < values.length; i++) {
    const x = values[i]!;
    if (!ok[i] || x !== x) continue;
    present = true;
    if (!Number.isInteger(x)) {
      integer = false;
      break;
    }
  }
  if (!present) giveUp();
  return { kind: 'float64', type: integer ? 'integer' : 'number', values, valid: ok };
}

function bools(env: Env, values: Uint8Array, valid: Uint8Array | null): ColumnData {
  const ok = visibleValid(env, valid);
  if (!someVisible(env, ok)) giveUp();
  return { kind: 'bool', type: 'boolean', values, valid: ok };
}

/**
 * The validity of the new column: null at the rows the table hides (Arquero leaves them unset), so
 * its type (`integer` or `number`) is decided by the visible values, as Arquero's inference is.
 */
function visibleValid(env: Env, valid: Uint8Array | null): Uint8Array {
  const rows = env.rows;
  if (!rows) return valid ?? ones(env.n);
  const ok = new Uint8Array(env.n);
  for (let k = 0; k < rows.length; k++) {
    const r = rows[k]!;
    ok[r] = valid ? valid[r]! : 1;
  }
  return ok;
}

function someVisible(env: Env, valid: Uint8Array): boolean {
  const rows = env.rows;
  if (!rows) return valid.indexOf(1) >= 0;
  for (let k = 0; k < rows.length; k++) if (valid[rows[k]!]) return true;
  return false;
}
