import type { AnyNode } from './patternNames.js';
import { bodyReads, isPlainRead } from './rowReads.js';

/** Array methods a chain may call on the rows, and where the row sits among each callback's parameters. */
const ROW_PARAM: Record<string, number> = {
  filter: 0,
  map: 0,
  forEach: 0,
  some: 0,
  every: 0,
  findIndex: 0,
  reduce: 1,
};

/** A chain on `<expr>.objects()` whose rows are never seen: its links and the fields its callbacks read. */
export interface RowChain {
  /**
   * The links in order: filters, then one method or `length`, or filters only (the last answers the
   * rows that passed: prelude/data/rowChain.ts). A last `map(r => r.F)` is `pluck`, F the last read.
   */
  ops: string[];
  /** Every field a callback reads. */
  reads: string[];
}

/**
 * The chain that starts at `call` (`<expr>.objects()`, no arguments, no `?.`) when every row it makes
 * is provably invisible, else undefined. Each link is `.filter(cb)` (its kept rows go on to the next
 * link), and the last is `.length` read for its value or one of `.map(cb)`, `.forEach(cb)`,
 * `.some(cb)`, `.every(cb)`, `.findIndex(cb)`, `.reduce(cb, init)` (these answer values, never rows;
 * reduce only with its initial value: without it the first row is the accumulator). Every `cb` is an
 * arrow function written in place, not async, whose parameters are plain names and never the array
 * (at most `(row, index)`, `(acc, row, index)`), whose row is only read field by field as in a row
 * loop's body (rowReads.ts `bodyReads`). A chain may also end at a filter whose rows are then seen
 * (held, sliced, returned: anything but a link above): that filter answers the real rows that passed.
 * `up` maps each node to its parent and the key it sits under.
 * @example
 * rowChain(objectsCallOf("t.objects().filter(r => r.x > 1).reduce((s, r) => s + r.y, 0)"), up)
 * // { ops: ['filter', 'reduce'], reads: ['x', 'y'] }
 */
export function rowChain(call: AnyNode, up: Map<AnyNode, [AnyNode, string]>): RowChain | undefined {
  return isBareObjectsCall(call) ? rowChainFrom(call, up) : undefined;
}

/** The chain (as rowChain's) that starts at `call`, whatever expression stands for the rows there (rowArrays.ts: a name). */
export function rowChainFrom(call: AnyNode, up: Map<AnyNode, [AnyNode, string]>): RowChain | undefined {
  const ops: string[] = [];
  const reads = new Set<string>();
  let rows = call;
  // after a filter, a link this path does not run ends the chain there: the filter answers real rows
  const end = () => (ops.length > 0 ? { ops, reads: [...reads] } : undefined);
  for (;;) {
    const [member, key] = up.get(rows) ?? [null, ''];
    if (!member || member.type !== 'MemberExpression' || key !== 'object') return end();
    if (member.computed || member.optional || member.property.type !== 'Identifier') return end();
    const name = member.property.name as string;
    if (name === 'length') {
      if (!isPlainRead(member, up)) return end();
      ops.push(name);
      break;
    }
    const at = ROW_PARAM[name];
    const [use, useKey] = up.get(member) ?? [null, ''];
    if (at === undefined || !use || use.type !== 'CallExpression' || useKey !== 'callee' || use.optional) return end();
    const args = use.arguments as AnyNode[];
    if (args.length !== (name === 'reduce' ? 2 : 1) || args.some((a) => a.type === 'SpreadElement')) return end();
    const fieldReads = callbackReads(args[0]!, at);
    if (!fieldReads) return end();
    for (const f of fieldReads) reads.add(f);
    const field = name === 'map' ? pluckedField(args[0]!) : undefined;
    if (field !== undefined) {
      // the plucked field last among the reads: the guest copies that field's values (prelude/data/rowChain.ts)
      reads.delete(field);
      reads.add(field);
      ops.push('pluck');
      break;
    }
    ops.push(name);
    if (name !== 'filter') break;
    rows = use;
  }
  return { ops, reads: [...reads] };
}

/**
 * The field `fn` answers as it stands when `fn` is `r => r.F` or `r => r['F']` (an arrow of one plain
 * parameter, expression body, no `?.`; not `__proto__`): a map with it gives the field's values in order.
 */
export function pluckedField(fn: AnyNode): string | undefined {
  if (fn.type !== 'ArrowFunctionExpression' || fn.async || fn.params.length !== 1) return undefined;
  const [p] = fn.params as AnyNode[];
  const body = fn.body as AnyNode;
  if (p!.type !== 'Identifier' || body.type !== 'MemberExpression' || body.optional) return undefined;
  if (body.object.type !== 'Identifier' || body.object.name !== p!.name) return undefined;
  const key = body.property as AnyNode;
  const name = body.computed
    ? key.type === 'Literal' && typeof key.value === 'string'
      ? key.value
      : undefined
    : key.type === 'Identifier'
      ? (key.name as string)
      : undefined;
  return name === '__proto__' ? undefined : name;
}

/** `<expr>.objects()` (or another of `methods`): no arguments, no `?.`, not computed. */
export function isBareObjectsCall(call: AnyNode, methods: readonly string[] = ['objects']): boolean {
  if (call.type !== 'CallExpression' || call.optional || call.arguments.length !== 0) return false;
  const callee = call.callee;
  if (callee.type !== 'MemberExpression' || callee.computed || callee.optional) return false;
  return callee.property.type === 'Identifier' && methods.includes(callee.property.name);
}

/** The fields callback `fn` reads of its row (parameter `at`), or undefined when it could see a row or the array. */
function callbackReads(fn: AnyNode, at: number): string[] | undefined {
  if (fn.type !== 'ArrowFunctionExpression' || fn.async) return undefined;
  const params = fn.params as AnyNode[];
  // the parameter after the index is the array of rows
  if (params.length > at + 2 || params.some((p) => p.type !== 'Identifier')) return undefined;
  if (params.length <= at) return [];
  return bodyReads(fn.body, params[at]!.name);
}
