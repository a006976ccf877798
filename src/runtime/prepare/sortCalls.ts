import { AT_NAME, HAND_SORT_GLOBAL, namedInsert } from '../../../schema/handSort.js';
import { INSERTED_CLOSE, INSERTED_OPEN } from '../../../schema/rowLoop.js';
import type { LocalEdit } from './localize.js';
import { type AnyNode, twoParamReturn } from './patternNames.js';
import { calleeText } from './v8CalleeText.js';

/** The markers' name: a source that contains it (its text could pose as a marker) is left as written. */
const MARKER = '$sbtRow';

/** How a comparator orders: by the elements (`key` undefined) or by one property of each, descending or not. */
export interface SortShape {
  desc: boolean;
  key?: string;
}

/**
 * The order an inline comparator gives, when it is one the fast sort copies exactly, else undefined:
 * an arrow or function expression (not async, not a generator) of two distinct plain parameters
 * whose body is `a - b` (or `return a - b;` alone), `b - a`, or the same with one fixed property of
 * each, `a.k - b.k`, `a[1] - b[1]`, `a['k'] - b['k']`. Anything else (another variable, different
 * keys, `?.`, a call, a default value) keeps the sort as written.
 * @example
 * comparatorShape(parseExpression('(x, y) => y[1] - x[1]')) // { desc: true, key: '1' }
 */
export function comparatorShape(fn: AnyNode): SortShape | undefined {
  const shape = twoParamReturn(fn);
  if (!shape) return undefined;
  const { p, q, body } = shape;
  if (body.type !== 'BinaryExpression' || body.operator !== '-') return undefined;
  const left = operand(body.left);
  const right = operand(body.right);
  if (!left || !right || left.key !== right.key) return undefined;
  if (left.name === p && right.name === q) return { desc: false, key: left.key };
  if (left.name === q && right.name === p) return { desc: true, key: left.key };
  return undefined;
}

/** `a` or `a.k` / `a[1]` / `a['k']` (no `?.`): the variable and the property key read, if any. */
function operand(e: AnyNode): { name: string; key?: string } | undefined {
  if (e.type === 'Identifier') return { name: e.name };
  if (e.type !== 'MemberExpression' || e.optional || e.object.type !== 'Identifier') return undefined;
  const prop = e.property as AnyNode;
  if (!e.computed) return prop.type === 'Identifier' ? { name: e.object.name, key: prop.name } : undefined;
  if (prop.type === 'Literal' && (typeof prop.value === 'string' || typeof prop.value === 'number'))
    return { name: e.object.name, key: String(prop.value) };
  return undefined;
}

/** Whether `e` (the object of `.sort` or a spread's argument) is not under a `?.` whose short cut the rewrite would break. */
function noOptionalSpine(e: AnyNode): boolean {
  for (let n = e; n.type === 'MemberExpression' || n.type === 'CallExpression'; n = n.object ?? n.callee)
    if (n.optional) return false;
  return true;
}

/** Whether X or an object on its member chain (`f().a.b`, `a[0](x).b`) is a call. */
function chainHasCall(x: AnyNode): boolean {
  for (let n = x; ; n = n.object) {
    if (n.type === 'CallExpression' || n.type === 'TaggedTemplateExpression') return true;
    if (n.type !== 'MemberExpression') return false;
  }
}

const LINE_END = /[\n\r\u2028\u2029]/;

/**
 * Whether a `(` inserted at `at` cannot continue the code before it (`f()\n(0, x)` would call the
 * result of `f()` where the user's line ended a statement by ASI): true when a token other than a
 * comment's end precedes `at` on its line (the user's code continued from it into X, so it ends no
 * expression), or the code before ends with `;` or `{` on a line without a comment or template.
 */
export function parenSafe(source: string, at: number): boolean {
  let p = at - 1;
  while (p >= 0 && (source[p] === ' ' || source[p] === '\t')) p--;
  if (p < 0) return true;
  if (!LINE_END.test(source[p]!)) return source[p] !== '/';
  while (p >= 0 && /\s/.test(source[p]!)) p--;
  if (p < 0) return true;
  if (source[p] !== ';' && source[p] !== '{') return false;
  let start = p;
  while (start > 0 && !LINE_END.test(source[start - 1]!)) start--;
  return !/\/\/|\/\*|`/.test(source.slice(start, p));
}

/**
 * The edits that route hand-written sorts and min/max spreads through the guest's fast paths
 * (prelude/fast/handSort.ts), inserting text only (between markers: every line and column of the
 * user's code holds):
 * - `X.sort(cmp)` with cmp of a shape comparatorShape accepts becomes
 *   `__sbirtools_sort.by(X, desc, key).sort(cmp)` (in `(0, ...)` unless X's chain holds a call or a `(`
 *   there could continue the line before); `by` hands back X itself unless X is a real array
 *   whose `sort` is the native one, so every other receiver (a table, a typed array, a Series, a
 *   string) sees the call as written.
 * - `Math.min(...v)` / `Math.max(...v)` of one variable becomes `Math.min(...__sbirtools_sort.min(v))`,
 *   only when the program never names `Math` but as `Math.x` and never names `eval` (then `Math` is
 *   the global one and nothing runs between reading `Math.min` and the helper).
 * None when the source names the marker or the global (a program cannot pose as a rewrite).
 */
export function planSortCalls(program: AnyNode, source: string): LocalEdit[] {
  const found = sortsAndSpreads(program, source);
  if (found === null) return [];
  const { sorts, spreads } = found;
  const edits: LocalEdit[] = [];
  const insert = (at: number, text: string) =>
    edits.push({ start: at, end: at, text: INSERTED_OPEN + text + INSERTED_CLOSE });
  for (const [x, { shape }] of wrapped(sorts, source)) {
    // V8 places a failed `.sort` read at the dot when X's chain holds a call, else at `sort`: the
    // wrapper keeps that (a call, or `(0, call)`), so the error's column is the one the user gets today
    const seq = !chainHasCall(x) && parenSafe(source, x.start);
    insert(x.start, `${seq ? '(0,' : ''}${HAND_SORT_GLOBAL}.by(`);
    // the name V8 gives X rides along: a "not a function" message names X, not the helper (errorInfo)
    const named = calleeText(x);
    const args = `,${shape.desc ? 1 : 0}${shape.key === undefined ? '' : `,${JSON.stringify(shape.key)}`}`;
    const atName = !seq && !chainHasCall(x) ? AT_NAME : '';
    insert(x.end, `${args}${named === undefined ? '' : namedInsert('by', named)}${atName})${seq ? ')' : ''}`);
  }
  for (const v of spreads) {
    const call = v.call as AnyNode;
    const kind = call.callee.property.name as 'min' | 'max';
    insert(v.node.start, `${HAND_SORT_GLOBAL}.${kind}(`);
    insert(v.node.end, `${namedInsert(kind, v.node.name)})`);
  }
  return edits;
}

/** The receivers X of the `.sort(cmp)` calls planSortCalls wraps, each with its call and its comparator's shape. */
function wrapped(sorts: AnyNode[], source: string): Map<AnyNode, { call: AnyNode; shape: SortShape }> {
  const out = new Map<AnyNode, { call: AnyNode; shape: SortShape }>();
  for (const call of sorts) {
    const x = call.callee.object as AnyNode;
    const shape = comparatorShape(call.arguments[0]);
    if (!shape || x.type === 'Super' || !noOptionalSpine(x)) continue;
    // `(a, b).sort(...)`: acorn's range of X leaves out its parentheses; inserting inside them would change X
    if (!/^\s*\.\s*$/.test(source.slice(x.end, call.callee.property.start))) continue;
    out.set(x, { call, shape });
  }
  return out;
}

/**
 * The receivers X of the `.sort(cmp)` calls planSortCalls routes through the guest's `by`, each with
 * its comparator's shape: a chain's array sorted there straight away may be handed to `by` as the
 * chain itself (arrayChains.ts: `e(<chain>, 2)`), since `by` is then sure to receive it.
 */
export function wrappedSorts(program: AnyNode, source: string): Map<AnyNode, SortShape> {
  const found = sortsAndSpreads(program, source);
  const out = new Map<AnyNode, SortShape>();
  if (found !== null) for (const [x, { shape }] of wrapped(found.sorts, source)) out.set(x, shape);
  return out;
}

/**
 * The variables of `Math.min(...v)` / `Math.max(...v)` that planSortCalls routes through the guest's
 * `min`/`max` (prelude/fast/handSort.ts), as acorn's Identifier nodes: a bound chain's array may be
 * spread there (arrayChains.ts `boundChain`), as the helper reads it without running code of the run's.
 */
export function wrappedSpreads(program: AnyNode, source: string): Set<AnyNode> {
  return new Set((sortsAndSpreads(program, source)?.spreads ?? []).map((s) => s.node));
}

/**
 * The `.sort(cmp)` calls of one argument and the spread variables planSortCalls rewrites, or null when
 * it rewrites nothing (no `sort` or `Math` in the source, or the source names the marker or the global).
 */
function sortsAndSpreads(
  program: AnyNode,
  source: string,
): { sorts: AnyNode[]; spreads: Array<{ node: AnyNode; call: AnyNode }> } | null {
  if (!/\bsort\b|\bMath\b/.test(source)) return null;
  if (source.includes(MARKER) || source.includes(HAND_SORT_GLOBAL)) return null;
  const sorts: AnyNode[] = [];
  const spreads: AnyNode[] = [];
  let mathFree = true;
  // pre-order (a parent before its children): an outer call's insertion at a shared start comes first
  const stack: [AnyNode, AnyNode | null][] = [[program, null]];
  while (stack.length > 0) {
    const [node, parent] = stack.pop()!;
    if (node.type === 'Identifier') {
      // a name written with escapes (`\u0024sbtRow`) is not in the source text
      if (node.name.includes(MARKER) || node.name === HAND_SORT_GLOBAL) return null;
      if (node.name === 'eval') mathFree = false;
      if (node.name === 'Math' && !(parent?.type === 'MemberExpression' && parent.object === node)) mathFree = false;
    }
    if (node.type === 'CallExpression' && !node.optional) {
      const c = node.callee as AnyNode;
      if (c.type === 'MemberExpression' && !c.computed && !c.optional && c.property.type === 'Identifier') {
        if (c.property.name === 'sort' && node.arguments.length === 1) sorts.push(node);
        if ((c.property.name === 'min' || c.property.name === 'max') && c.object.type === 'Identifier')
          if (c.object.name === 'Math' && node.arguments.length === 1) spreads.push(node);
      }
    }
    const children: AnyNode[] = [];
    for (const k in node) {
      if (k === 'type' || k === 'start' || k === 'end' || k === 'loc') continue;
      const v = node[k];
      if (v === null || typeof v !== 'object') continue;
      for (const c of (Array.isArray(v) ? v : [v]) as (AnyNode | null)[])
        if (c && typeof c.type === 'string') children.push(c);
    }
    for (let i = children.length - 1; i >= 0; i--) stack.push([children[i]!, node]);
  }
  const wrapped: Array<{ node: AnyNode; call: AnyNode }> = [];
  if (mathFree)
    for (const call of spreads) {
      const s = call.arguments[0] as AnyNode;
      if (s.type !== 'SpreadElement' || s.argument.type !== 'Identifier') continue;
      const v = s.argument as AnyNode;
      if (!/^\.\.\.\s*$/.test(source.slice(s.start, v.start)) || !/^\s*,?\s*\)$/.test(source.slice(v.end, call.end)))
        continue;
      wrapped.push({ node: v, call });
    }
  return { sorts, spreads: wrapped };
}
