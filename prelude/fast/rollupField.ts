/**
 * A computed aggregate field in a typed rollup (fast/rollup.ts): `op.mean(op.length(d.Abstract))`,
 * `op.sum(d['Award Amount'] / 1e6)`. The field's expression is evaluated a column at a time as a
 * derive would be (fast/deriveEval.ts: the length of long text from the host's counts, arithmetic
 * on Float64Arrays), and its values are aggregated as a number column's. A value Arquero's reducers
 * skip (null, undefined, NaN) is a null here. Undefined when the expression is outside the derive's
 * class or gives anything but numbers: Arquero's rollup runs it per row.
 */
import { parse, type ColumnTable } from 'arquero';
import { codegen } from 'arquero/src/expression/codegen.js';
import { FunctionPrototypeToString, SafeMap, ReflectApply } from '../intrinsics.js';
import { evalNode } from './deriveEval.js';
import type { Env } from './deriveVec.js';
import type { Node } from './node.js';
import { visibleRows, type NumSource } from './source.js';

/** The prefix of every field accessor Arquero compiles (arquero/src/expression/compile.js `expr`). */
const PREFIX = '(row,data,op)=>';

/** The parse trees of the aggregate fields of a rollup's `values`, by their generated code. */
export type FieldNodes = Map<string, Node>;

/** Parses `values` once more, keeping each aggregate field's tree (Arquero hands `field` every one). */
export function fieldNodes(t: ColumnTable, values: unknown): FieldNodes | null {
  const nodes: FieldNodes = new SafeMap();
  try {
    parse(
      values as never,
      {
        table: t,
        aggronly: true,
        window: false,
        field: (node: Node) => {
          nodes.set(codegen(node) as string, node);
          return nodes.size;
        },
      } as never,
    );
  } catch {
    return null;
  }
  return nodes;
}

/** The values of the compiled field `fn` over `t` as a number column, or undefined. */
export function computedSource(t: ColumnTable, nodes: FieldNodes | null, fn: unknown): NumSource | undefined {
  if (!nodes || typeof fn !== 'function') return undefined;
  let src: string;
  try {
    src = ReflectApply(FunctionPrototypeToString, fn, []) as string;
  } catch {
    return undefined;
  }
  if (!src.startsWith(PREFIX)) return undefined;
  const node = nodes.get(src.slice(PREFIX.length));
  if (!node || node.type === 'Column') return undefined;
  const env: Env = { t, n: t.totalRows(), rows: visibleRows(t, false) };
  let vec;
  try {
    vec = evalNode(env, node, (t.params() ?? {}) as Record<string, unknown>);
  } catch {
    return undefined; // a give-up, or a row where the field throws: Arquero's code throws there itself
  }
  if (vec.k !== 'num') return undefined;
  const { v, valid } = vec;
  const ok = new Uint8Array(env.n);
  for (let i = 0; i < ok.length; i++) {
    const x = v[i]!;
    ok[i] = (valid === null || valid[i]) && x === x ? 1 : 0;
  }
  return { kind: 'num', type: 'number', values: v, valid: ok };
}
