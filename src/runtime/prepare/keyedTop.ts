import { INSERTED_CLOSE, INSERTED_OPEN, ROW_LOOP_GLOBAL } from '../../../schema/rowLoop.js';
import type { LocalEdit } from './localize.js';
import type { AnyNode } from './patternNames.js';
import { comparatorShape, parenSafe } from './sortCalls.js';

/** The most entries a top statement may keep (`.slice(0, K)`): the guest keeps them in a buffer it scans. */
export const TOP_MOST = 100;

/**
 * The edits that let the guest answer, from the groups a keyed loop just wrote, the statement right
 * after it when that statement reads the object's or Map's entries sorted by value and cut to the
 * first K (prelude/data/keyedTop.ts):
 *   [...m].sort((a, b) => b[1] - a[1]).slice(0, K)           (m the loop's Map)
 *   Object.entries(o).sort((x, y) => y[1] - x[1]).slice(0, K)  (o the loop's object)
 * ascending (`a[1] - b[1]`) too, K an integer literal from 0 to TOP_MOST, and with a `.map(([k, v]) =>
 * [k, VALUE])` of each entry before the sort (mapShape: an entry loop's statements have one). The expression becomes
 * `(__sbirtools_rowLoop.top(m, [kind, desc, K]) || <as written>)`: the guest hands the K entries the
 * sort and the slice would give, fresh, or null (the statement runs as written). `next` must be the
 * statement right after the loop (nothing of the run's runs between the loop's end and the helper),
 * `bound(name)` whether the program declares `name` anywhere (`Object` must be the global one).
 * None when a `(` at the statement's start could continue the line before (`loop` the loop: its
 * block body ends a statement). `defer` when `after`, the
 * target's mentions after the loop, is the statement's receiver alone: the guest may then leave the
 * target empty until the statement as written or the run's write-back reads it (the write-back passes
 * it through `__sbirtools_rowLoop.release`).
 */
export function topEdits(
  next: AnyNode | undefined,
  target: string,
  kind: string,
  source: string,
  bound: (name: string) => boolean,
  after: AnyNode[],
  loop: AnyNode,
  entry: Entry | null = null,
): { edits: LocalEdit[]; defer: boolean } {
  const none = { edits: [], defer: false };
  if (next?.type !== 'ExpressionStatement') return none;
  const spec = topShape(next.expression as AnyNode, target, kind, entry);
  if (spec === undefined || (kind === 'object' && bound('Object'))) return none;
  const e = next.expression as AnyNode;
  // acorn's range of a parenthesized expression leaves its parentheses out: wrap the statement's
  if (source.slice(next.start, e.start).trim() !== '') return none;
  // a `(` after the loop's block body cannot continue the loop
  const afterBlock = loop.body.type === 'BlockStatement' && source.slice(loop.end, next.start).trim() === '';
  if (!afterBlock && !parenSafe(source, next.start)) return none;
  const ins = (at: number, text: string): LocalEdit => ({
    start: at,
    end: at,
    text: `${INSERTED_OPEN}${text}${INSERTED_CLOSE}`,
  });
  return {
    edits: [ins(next.start, `(${ROW_LOOP_GLOBAL}.top(${target}, ${JSON.stringify(spec)}) || `), ins(e.end, ')')],
    // the statement's receiver the only mention after the loop: the totals may wait until it reads them
    defer: after.length === 1 && after[0]!.start >= e.start && after[0]!.end <= e.end,
  };
}

/** An entry loop's entry (keyedLoops.ts `entryShape`): an array (`'a'`) or object of named number slots. */
export interface Entry {
  shape: 'a' | 'o';
  names: string[];
}

/**
 * `[kind, desc, K]`, or `[kind, desc, K, value]` with a `.map` before the sort, when `e` is one of
 * topEdits' expressions over `target`, else undefined. An entry loop's values are arrays or objects:
 * its statement must map each entry to `[key, value]` first (mapShape).
 */
function topShape(e: AnyNode, target: string, kind: string, entry: Entry | null): unknown[] | undefined {
  const slice = methodCall(e, 'slice');
  if (!slice || slice.call.arguments.length !== 2) return undefined;
  const [from, to] = slice.call.arguments as AnyNode[];
  if (!isNumber(from, 0) || !isNumber(to) || !Number.isInteger(to.value) || to.value > TOP_MOST) return undefined;
  const sort = methodCall(slice.object, 'sort');
  if (!sort || sort.call.arguments.length !== 1) return undefined;
  const shape = comparatorShape(sort.call.arguments[0] as AnyNode);
  if (!shape || shape.key !== '1') return undefined;
  const head = [kind, shape.desc ? 1 : 0, to.value as number];
  const map = methodCall(sort.object, 'map');
  if (!map) return entry === null && entriesOf(sort.object, target, kind) ? head : undefined;
  if (map.call.arguments.length !== 1 || !entriesOf(map.object, target, kind)) return undefined;
  const value = mapShape(map.call.arguments[0] as AnyNode, entry);
  return value && [...head, value];
}

/**
 * The value `([k, v]) => [k, VALUE]` makes of an entry, as a tree over its slots, or undefined. v is
 * a name (a total; an entry read as `v.s`, `v['s']` or `v[0]`) or, for an array entry, a pattern of
 * names `[s, e]` (a slot each, in order); VALUE numbers and slots under `+ - * /` and unary `-`:
 * `['s', slot]`, `['n', number]`, `['b', op, a, b]`, `['-', a]`. The destructuring runs the array
 * iterator, which the guest checks.
 */
function mapShape(fn: AnyNode, entry: Entry | null): unknown[] | undefined {
  if (fn.type !== 'ArrowFunctionExpression' || fn.async || fn.params.length !== 1) return undefined;
  const p = fn.params[0] as AnyNode;
  if (p.type !== 'ArrayPattern' || p.elements.length !== 2 || p.elements[0]?.type !== 'Identifier') return undefined;
  const key = p.elements[0].name as string;
  const v = p.elements[1] as AnyNode | null;
  const slots = new Map<string, number>();
  let whole: string | undefined;
  if (v?.type === 'Identifier') whole = v.name;
  else if (v?.type === 'ArrayPattern' && entry?.shape === 'a' && v.elements.length <= entry.names.length) {
    for (let j = 0; j < v.elements.length; j++) {
      const x = v.elements[j] as AnyNode | null;
      if (x === null) continue;
      if (x.type !== 'Identifier' || slots.has(x.name) || x.name === key) return undefined;
      slots.set(x.name, j);
    }
  } else return undefined;
  if (whole === key) return undefined;
  const body = fn.body as AnyNode;
  if (body.type !== 'ArrayExpression' || body.elements.length !== 2) return undefined;
  const [k, value] = body.elements as (AnyNode | null)[];
  if (k?.type !== 'Identifier' || k.name !== key || !value) return undefined;
  const slotOf = (m: AnyNode): number | undefined => {
    if (m.type !== 'MemberExpression' || m.optional || m.object.type !== 'Identifier' || m.object.name !== whole)
      return undefined;
    if (entry === null) return undefined;
    const prop = m.property as AnyNode;
    const name = !m.computed
      ? prop.type === 'Identifier'
        ? prop.name
        : undefined
      : prop.type === 'Literal'
        ? String(prop.value)
        : undefined;
    const j = name === undefined ? -1 : entry.names.indexOf(name);
    return j < 0 ? undefined : j;
  };
  const tree = (x: AnyNode): unknown[] | undefined => {
    if (x.type === 'Literal') return typeof x.value === 'number' ? ['n', x.value] : undefined;
    if (x.type === 'Identifier') {
      if (slots.has(x.name)) return ['s', slots.get(x.name)];
      return x.name === whole && entry === null ? ['s', 0] : undefined;
    }
    if (x.type === 'MemberExpression') {
      const j = slotOf(x);
      return j === undefined ? undefined : ['s', j];
    }
    if (x.type === 'UnaryExpression' && x.operator === '-') {
      const a = tree(x.argument as AnyNode);
      return a && ['-', a];
    }
    if (x.type === 'BinaryExpression' && ['+', '-', '*', '/'].includes(x.operator as string)) {
      const a = tree(x.left as AnyNode);
      const b = tree(x.right as AnyNode);
      return a && b && ['b', x.operator, a, b];
    }
    return undefined;
  };
  return tree(value);
}

/** `X.name(...)` (no `?.`, not computed): the call and X. */
function methodCall(e: AnyNode, name: string): { call: AnyNode; object: AnyNode } | undefined {
  if (e.type !== 'CallExpression' || e.optional) return undefined;
  const c = e.callee as AnyNode;
  if (c.type !== 'MemberExpression' || c.optional || c.computed || c.property.type !== 'Identifier') return undefined;
  return c.property.name === name ? { call: e, object: c.object as AnyNode } : undefined;
}

/** `[...target]` for a Map, `Object.entries(target)` for an object. */
function entriesOf(x: AnyNode, target: string, kind: string): boolean {
  const isTarget = (n: AnyNode | null | undefined) => n?.type === 'Identifier' && n.name === target;
  if (kind === 'map')
    return (
      x.type === 'ArrayExpression' &&
      x.elements.length === 1 &&
      x.elements[0]?.type === 'SpreadElement' &&
      isTarget(x.elements[0].argument)
    );
  const call = methodCall(x, 'entries');
  return (
    kind === 'object' &&
    call !== undefined &&
    call.object.type === 'Identifier' &&
    call.object.name === 'Object' &&
    call.call.arguments.length === 1 &&
    isTarget(call.call.arguments[0])
  );
}

function isNumber(e: AnyNode, value?: number): boolean {
  return e.type === 'Literal' && typeof e.value === 'number' && (value === undefined || e.value === value);
}
