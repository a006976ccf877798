/**
 * query()'s comparisons of one column with a constant, answered on the column's typed arrays
 * (fast/source.ts) instead of a call per row: a dictionary column tests each distinct string once
 * and maps its codes; a number column reads its Float64Array (a missing value tested as null, what
 * the column's `at` gives). The test is compile.ts's own (constantValueTest), so the bytes are the
 * ones the compiled row function gives.
 */
import type { ColumnTable } from 'arquero';
import { sourceOf } from '../fast/source.js';
import { constantValueTest } from './compile.js';
import type { Node } from './parse.js';

/**
 * The truth value of `node` per visible row (`idx` maps positions to rows; null: position i is
 * row i), or undefined when it is not a comparison of a host column with a constant.
 */
export function typedLeafMask(
  src: string,
  node: Node,
  t: ColumnTable,
  vars: (name: string, at: number) => unknown,
  idx: Uint32Array | null,
  n: number,
): Uint8Array | undefined {
  if (node.type !== 'cmp' || node.left.type !== 'col') return undefined;
  const source = sourceOf(t, node.left.name);
  if (!source || (source.kind === 'num' && source.type === 'date')) return undefined;
  const test = constantValueTest(src, node, t, vars);
  if (!test) return undefined;
  const bits = new Uint8Array(n);
  const missing = test(null) ? 1 : 0;
  if (source.kind === 'dict') {
    const { codes, dict } = source;
    const hit = new Uint8Array(dict.length);
    for (let k = 0; k < dict.length; k++) hit[k] = test(dict[k]) ? 1 : 0;
    for (let i = 0; i < n; i++) {
      const c = codes[idx ? idx[i]! : i]!;
      bits[i] = c < 0 ? missing : hit[c]!;
    }
    return bits;
  }
  const { values, valid } = source;
  const { op, right } = node;
  if (right.type === 'lit' && typeof right.value === 'number' && ORDERING.has(op)) {
    // an ordering against a number is false for a missing value (test(null)), else the comparison
    orderingBits(bits, values, valid, idx, n, op, right.value);
    return bits;
  }
  for (let i = 0; i < n; i++) {
    const r = idx ? idx[i]! : i;
    bits[i] = valid[r] !== 0 ? (test(values[r]) ? 1 : 0) : missing;
  }
  return bits;
}

const ORDERING = new Set(['<', '<=', '>', '>=']);

// one loop per operator: no call per row, and each loop keeps its own type feedback
function orderingBits(
  bits: Uint8Array,
  values: Float64Array,
  valid: Uint8Array,
  idx: Uint32Array | null,
  n: number,
  op: string,
  x: number,
): void {
  switch (op) {
    case '<':
      for (let i = 0; i < n; i++) {
        const r = idx ? idx[i]! : i;
        bits[i] = +(valid[r] !== 0) & +(values[r]! < x);
      }
      return;
    case '<=':
      for (let i = 0; i < n; i++) {
        const r = idx ? idx[i]! : i;
        bits[i] = +(valid[r] !== 0) & +(values[r]! <= x);
      }
      return;
    case '>':
      for (let i = 0; i < n; i++) {
        const r = idx ? idx[i]! : i;
        bits[i] = +(valid[r] !== 0) & +(values[r]! > x);
      }
      return;
    default:
      for (let i = 0; i < n; i++) {
        const r = idx ? idx[i]! : i;
        bits[i] = +(valid[r] !== 0) & +(values[r]! >= x);
      }
  }
}
