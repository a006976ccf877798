/**
 * A filter part that none of the predicate's own shortcuts covers, evaluated as a derive would be
 * (fast/deriveEval.ts) on the rows the part is asked about: `op.year(d['Proposal Award Date']) ===
 * 2021` calls `year` once per distinct date instead of once per row on a fresh Date,
 * `d.a / d.b > 2` divides two Float64Arrays. The part's truth value per row is JavaScript's
 * (ToBoolean of the value the derive gives). null when the part is outside the derive's class:
 * then Arquero's compiled code runs per row, as before.
 */
import type { ColumnTable } from 'arquero';
import { evalNode } from './deriveEval.js';
import type { Env, Vec } from './deriveVec.js';
import type { Node } from './node.js';

/** The part's truth (1/0) at each row where `sel` is 1, or null to run it per row. */
export function typedLeaf(t: ColumnTable, node: Node, params: unknown, sel: Uint8Array): Uint8Array | null {
  if (node.type === 'Literal' || node.type === 'Column') return null; // nothing to gain
  const n = sel.length;
  // each loop ends its own function: code after a loop in the same function deopted the loop's
  // compiled code on every warm call (docs/architecture.md, "Inside the prelude")
  const rows = selectedRows(sel, n, selectedCount(sel, n));
  const env: Env = { t, n, rows };
  let vec: Vec;
  try {
    vec = evalNode(env, node, (params ?? {}) as Record<string, unknown>);
  } catch {
    return null; // a give-up, or a row where the part throws: Arquero's code throws there itself
  }
  const truth = truthOf(vec, n);
  if (!truth) return null;
  return andBytes(sel, truth, n);
}

function selectedCount(sel: Uint8Array, n: number): number {
  let count = 0;
  for (let i = 0; i < n; i++) count += sel[i]!;
  return count;
}

function selectedRows(sel: Uint8Array, n: number, count: number): Uint32Array {
  const rows = new Uint32Array(count);
  for (let i = 0, k = 0; i < n; i++) if (sel[i]) rows[k++] = i;
  return rows;
}

function andBytes(sel: Uint8Array, truth: Uint8Array, n: number): Uint8Array {
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) out[i] = sel[i]! & truth[i]!;
  return out;
}

function truthOf(vec: Vec, n: number): Uint8Array | null {
  switch (vec.k) {
    case 'bool':
      return vec.v;
    case 'const':
      return new Uint8Array(n).fill(vec.value ? 1 : 0);
    case 'num': {
      const { v, valid } = vec;
      const out = new Uint8Array(n);
      for (let i = 0; i < n; i++) {
        const x = v[i]!;
        out[i] = (valid === null || valid[i]) && x === x && x !== 0 ? 1 : 0;
      }
      return out;
    }
    case 'codes': {
      const lut = Uint8Array.from(vec.values, (x) => (x ? 1 : 0));
      const out = new Uint8Array(n);
      for (let i = 0; i < n; i++) out[i] = lut[vec.codes[i]! + 1]!;
      return out;
    }
    default:
      return null; // a Date or text value as a condition: left to the per-row code
  }
}
