/**
 * Order of the two sides of `A && B` in a compiled filter (fast/predicate.ts): when A searches text
 * (`op.includes(d.Abstract, 'prototype')`) and B does not (`op.length(d.Abstract) > 1500`), and
 * neither side can throw or have an effect, B is evaluated first and A only on the rows B keeps.
 * The rows kept are A ∧ B either way; only the work differs (a search over fewer abstracts). A side
 * qualifies when it is built only of host columns, string/number/boolean/null literals, comparison,
 * arithmetic and logical operators, `!`, `-`, `+`, `typeof`, and the null-safe Arquero functions
 * below with literal arguments (a regex literal for `match`): on the values of host columns
 * (strings, numbers, booleans, Dates, null) none of them throws. (Were one to throw, the fast path
 * would hand over to Arquero's own filter, which gives the original answer: the list keeps that
 * double work away, the answer does not depend on it.)
 */
import type { ColumnTable } from 'arquero';
import { LazyColumn } from '../data/lazyColumn.js';
import type { Node } from './node.js';

/** Null-safe Arquero functions: true for the ones that scan a string (the costly side). */
const SAFE_CALLS: Record<string, boolean> = {
  length: false,
  startswith: false,
  endswith: false,
  includes: true,
  indexof: true,
  lastindexof: true,
  lower: true,
  upper: true,
  match: true,
};
const SAFE_BINARY = new Set(['==', '!=', '===', '!==', '<', '<=', '>', '>=', '+', '-', '*', '/', '%']);
const SAFE_UNARY = new Set(['!', '-', '+', 'typeof']);

/** True when `right` should be evaluated before `left` (see the file comment). */
export function cheapFirst(t: ColumnTable, left: Node, right: Node): boolean {
  const a = cost(t, left);
  if (a !== 'search') return false;
  return cost(t, right) === 'cheap';
}

/** 'search' or 'cheap' for a side that cannot throw, else undefined. */
function cost(t: ColumnTable, node: Node): 'search' | 'cheap' | undefined {
  let search = false;
  const ok = (n: Node): boolean => {
    switch (n.type) {
      case 'Column':
        return t.column(n.name as string) instanceof LazyColumn;
      case 'Literal':
        return n.value === null || ['string', 'number', 'boolean'].includes(typeof n.value);
      case 'BinaryExpression':
        return SAFE_BINARY.has(n.operator as string) && ok(n.left as Node) && ok(n.right as Node);
      case 'LogicalExpression':
        return ok(n.left as Node) && ok(n.right as Node);
      case 'UnaryExpression':
        return SAFE_UNARY.has(n.operator as string) && ok(n.argument as Node);
      case 'CallExpression': {
        const callee = n.callee as Node;
        const args = n.arguments as Node[];
        if (callee.type !== 'Function' || !Object.hasOwn(SAFE_CALLS, callee.name as string)) return false;
        const name = callee.name as string;
        if (SAFE_CALLS[name]) search = true;
        if (!args.length || !ok(args[0])) return false;
        // the other arguments: literals (a regex literal only as match's pattern: a string
        // pattern compiles per call and may be invalid, a regex given to includes throws)
        return args
          .slice(1)
          .every((x) =>
            name === 'match' && x === args[1]
              ? x.type === 'Literal' && x.regex != null
              : x.type === 'Literal' && x.regex == null && (typeof x.value === 'string' || typeof x.value === 'number'),
          );
      }
      default:
        return false;
    }
  };
  return ok(node) ? (search ? 'search' : 'cheap') : undefined;
}
