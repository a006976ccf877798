import { ARRAY_CHAIN_GLOBAL, chainNamed } from '../../../schema/arrayChain.js';
import { INSERTED_CLOSE, INSERTED_OPEN } from '../../../schema/rowLoop.js';
import type { LocalEdit } from './localize.js';
import { type AnyNode, collectPatternNames, twoParamReturn } from './patternNames.js';
import { parenSafe, type SortShape, wrappedSorts, wrappedSpreads } from './sortCalls.js';
import { isBareObjectsCall, pluckedField } from './rowChains.js';
import { boundSorted, sortedInPlace } from './sortedBound.js';
import { calleeText } from './v8CalleeText.js';

/** The markers' name: a source that contains it (its text could pose as a marker) is left as written. */
const MARKER = '$sbtRow';
const CONSTANTS = new Set(['undefined', 'NaN', 'Infinity']);
const UNARY = new Set(['-', '+', '!', '~', 'typeof', 'void']);

/** The inserts of the chains, split so a wrapper of sortCalls.ts at the same place goes around them. */
export interface ChainEdits {
  /** Inserts that open a wrapper: applied after sortCalls' (at a shared start theirs is outside). */
  opens: LocalEdit[];
  /** Inserts that close one: applied before sortCalls' (at a shared end theirs is outside). */
  closes: LocalEdit[];
  /**
   * Chains whose array is bound to a name only read as `NAME.length` and `NAME.reduce((s, v) => s + v,
   * <number>)` (boundChain), or sorted and read at its length and elements (sortedBound.ts): the edits
   * to apply only when the name runs as a true local (nothing else can reach the array), and so do
   * the names of `needs` (an element's index read twice must run no code).
   */
  bound: Array<{ name: string; edits: LocalEdit[]; needs?: string[] }>;
  /**
   * The `<expr>.objects()` calls of the chains that start at `<expr>.objects().map(r => r.F)` and are
   * wrapped in `a(...)`: their pluck token (rowChains.ts) may answer a chain in place of the array.
   */
  plucks: Set<AnyNode>;
}

/**
 * Whether `fn` is an inline arrow or function expression (not async, not a generator) of one plain
 * parameter whose body (an expression, or `{ return expr; }` alone) reads nothing but that parameter,
 * literals (no regex, no BigInt), `undefined`/`NaN`/`Infinity` when the program binds none of them,
 * and the operators on them (no `in`, `instanceof`, `delete`, no member reads or calls): it cannot
 * run user code, throw, or see anything, so when and how often it runs makes no difference. The
 * one exception, a text feature of the parameter (textFeature: `.length`, `.includes(lit)`), is
 * evaluated only from the host's answers for a long text column and otherwise by the methods as
 * written, in order.
 * @example
 * pureCallback(parseExpression('v => v != null && v > 2'), new Set()) // true
 */
export function pureCallback(fn: AnyNode, bound: Set<string>): boolean {
  if (fn.type !== 'ArrowFunctionExpression' && fn.type !== 'FunctionExpression') return false;
  if (fn.async || fn.generator || fn.params.length !== 1 || fn.params[0].type !== 'Identifier') return false;
  const param = fn.params[0].name as string;
  if (fn.id && fn.id.name === param) return false;
  let body = fn.body as AnyNode;
  if (body.type === 'BlockStatement') {
    if (body.body.length !== 1 || body.body[0].type !== 'ReturnStatement' || !body.body[0].argument) return false;
    body = body.body[0].argument;
  }
  const ok = (e: AnyNode): boolean => {
    switch (e.type) {
      case 'Identifier':
        return e.name === param || (CONSTANTS.has(e.name) && !bound.has(e.name));
      case 'Literal':
        return !e.regex && e.bigint === undefined;
      case 'BinaryExpression':
        return e.operator !== 'in' && e.operator !== 'instanceof' && ok(e.left) && ok(e.right);
      case 'LogicalExpression':
        return ok(e.left) && ok(e.right);
      case 'UnaryExpression':
        return UNARY.has(e.operator) && ok(e.argument);
      case 'ConditionalExpression':
        return ok(e.test) && ok(e.consequent) && ok(e.alternate);
      default:
        return textFeature(e, param);
    }
  };
  return ok(body);
}

/**
 * `p.length`, `p.includes('lit')` or `p.toLowerCase().includes('lit')` of the parameter `p`: a read the
 * guest answers from the host's scans of a long text column (prelude/fast/textClasses.ts
 * `featureNode`), and replays as written when it cannot (a null row, a replaced string method).
 */
function textFeature(e: AnyNode, param: string): boolean {
  const member = (m: AnyNode, name: string) =>
    m.type === 'MemberExpression' &&
    !m.computed &&
    !m.optional &&
    m.property.type === 'Identifier' &&
    m.property.name === name;
  const isParam = (m: AnyNode) => m.type === 'Identifier' && m.name === param;
  if (member(e, 'length')) return isParam(e.object);
  if (e.type !== 'CallExpression' || e.optional || e.arguments.length !== 1 || !member(e.callee, 'includes'))
    return false;
  const lit = e.arguments[0] as AnyNode;
  if (lit.type !== 'Literal' || typeof lit.value !== 'string') return false;
  const on = e.callee.object as AnyNode;
  return (
    isParam(on) ||
    (on.type === 'CallExpression' &&
      !on.optional &&
      on.arguments.length === 0 &&
      member(on.callee, 'toLowerCase') &&
      isParam(on.callee.object))
  );
}

/** `(s, v) => s + v` (or `function (s, v) { return s + v; }`): a reducer that only adds, in that order. */
function sumReducer(fn: AnyNode): boolean {
  const shape = twoParamReturn(fn);
  if (!shape) return false;
  const { p: s, q: v, body } = shape;
  return (
    body.type === 'BinaryExpression' &&
    body.operator === '+' &&
    body.left.type === 'Identifier' &&
    body.left.name === s &&
    body.right.type === 'Identifier' &&
    body.right.name === v
  );
}

/** A number literal, or `-` of one: evaluating it runs nothing. */
function numberLiteral(e: AnyNode): boolean {
  if (e.type === 'UnaryExpression' && e.operator === '-') e = e.argument;
  return e.type === 'Literal' && typeof e.value === 'number';
}

/** An identifier or a chain of plain property reads of one (`award_data`, `tables.t`): no call inside. */
function plainReceiver(x: AnyNode): boolean {
  for (let n = x; ; n = n.object) {
    if (n.type === 'Identifier') return true;
    if (n.type !== 'MemberExpression' || n.computed || n.optional) return false;
  }
}

/** `obj.name(...)` as a plain call (no `?.`, no computed key, no spread argument): the method's name. */
function methodCall(call: AnyNode | undefined, obj: AnyNode): string | undefined {
  if (!call || call.type !== 'CallExpression' || call.optional) return undefined;
  const m = call.callee as AnyNode;
  if (m.type !== 'MemberExpression' || m.object !== obj || m.computed || m.optional) return undefined;
  if (m.property.type !== 'Identifier' || call.arguments.some((a: AnyNode) => a.type === 'SpreadElement'))
    return undefined;
  return m.property.name as string;
}

/**
 * The inserts that evaluate chains of array methods on `X.array(col)` on the column's typed data
 * (prelude/fast/arrayChain.ts), inserting text only (between markers: every line and column of the
 * user's code holds). A chain is `X.array(col)` (X a name or plain property reads of one), or
 * `<expr>.objects().map(r => r.F)` (pluckStart), followed by
 * `.filter(f)` / `.map(f)` calls whose callbacks pureCallback accepts, and ends in `.length`, in
 * `.some(f)` / `.every(f)` / `.find(f)` (f accepted too), in `.reduce((s, v) => s + v, <number>)`,
 * or anywhere else (its array is then made whole):
 *   X.array(c).filter(f).length          ->  __sbirtools_chain.a(X.array(c)).filter(f).length
 *   X.array(c).filter(f).sort(cmp)       ->  __sbirtools_chain.e(__sbirtools_chain.a(X.array(c)).filter(f)).sort(cmp)
 * A chain with no filter or map is left alone unless it ends in the reduce or a test. The closing
 * inserts carry how V8 names the wrapped expression, for the rare message that names the helper
 * (errorInfo).
 * None when the source names the marker or the global (a program cannot pose as a rewrite).
 */
export function planArrayChains(program: AnyNode, source: string): ChainEdits {
  const none: ChainEdits = { opens: [], closes: [], bound: [], plucks: new Set() };
  if (!/\b(array|objects)\b/.test(source) || source.includes(MARKER) || source.includes(ARRAY_CHAIN_GLOBAL))
    return none;
  const parents = new Map<AnyNode, AnyNode>();
  const starts: AnyNode[] = [];
  const bound = new Set<string>();
  const identifiers: AnyNode[] = [];
  let spreads: Set<AnyNode> | undefined;
  let sorts: Map<AnyNode, SortShape> | undefined;
  const sortedBy = () => (sorts ??= wrappedSorts(program, source));
  const stack: AnyNode[] = [program];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.type === 'Identifier' && (node.name.includes(MARKER) || node.name === ARRAY_CHAIN_GLOBAL)) return none;
    if (node.type === 'Identifier') identifiers.push(node);
    if (node.type === 'VariableDeclarator') collectPatternNames(node.id, bound);
    if (node.type === 'CatchClause') collectPatternNames(node.param, bound);
    if (/Function|Class/.test(node.type)) {
      if (node.id) bound.add(node.id.name);
      for (const p of node.params ?? []) collectPatternNames(p, bound);
    }
    if (methodCall(node, node.callee?.object) === 'array' && node.arguments.length === 1) starts.push(node);
    else if (pluckStart(node)) starts.push(node);
    for (const k in node) {
      if (k === 'type' || k === 'start' || k === 'end' || k === 'loc') continue;
      const v = node[k];
      if (v === null || typeof v !== 'object') continue;
      for (const c of (Array.isArray(v) ? v : [v]) as (AnyNode | null)[])
        if (c && typeof c.type === 'string') {
          parents.set(c, node);
          stack.push(c);
        }
    }
  }
  const edits: ChainEdits = { opens: [], closes: [], bound: [], plucks: new Set() };
  const insert = (list: LocalEdit[], at: number, text: string) =>
    list.push({ start: at, end: at, text: INSERTED_OPEN + text + INSERTED_CLOSE });
  for (const call of starts) {
    const x = call.callee.object as AnyNode;
    const plucks = pluckStart(call);
    if (!plucks && !plainReceiver(x)) continue;
    let last = call;
    let ops = 0;
    let ends: 'length' | 'reduce' | 'test' | 'array' = 'array';
    for (;;) {
      const member = parents.get(last);
      if (!member || member.type !== 'MemberExpression' || member.object !== last) break;
      // `(X.array(c)).filter`: the inserts would land inside the parentheses around X
      if (!/^\s*\.\s*$/.test(source.slice(last.end, member.property.start))) break;
      const next = parents.get(member);
      const name = methodCall(next, last);
      if (
        (name === 'filter' || name === 'map') &&
        next!.arguments.length === 1 &&
        pureCallback(next!.arguments[0], bound)
      ) {
        ops++;
        last = next!;
        continue;
      }
      const tests = name === 'some' || name === 'every' || name === 'find';
      if (tests && next!.arguments.length === 1 && pureCallback(next!.arguments[0], bound)) ends = 'test';
      else if (
        name === 'reduce' &&
        next!.arguments.length === 2 &&
        sumReducer(next!.arguments[0]) &&
        numberLiteral(next!.arguments[1])
      )
        ends = 'reduce';
      else if (
        !member.computed &&
        !member.optional &&
        member.property.type === 'Identifier' &&
        member.property.name === 'length' &&
        !writes(member, parents.get(member))
      )
        ends = 'length';
      break;
    }
    // `new Set(<chain>).size`: the chain's array only fills a Set whose size is read (setSizeOf)
    const sized = ends === 'array' ? setSizeOf(last, parents, bound, source) : undefined;
    if (ops === 0 && ends !== 'reduce' && ends !== 'test' && !sized) continue;
    const named = calleeText(call);
    const receiverName = calleeText(x);
    insert(edits.opens, call.start, `${ARRAY_CHAIN_GLOBAL}.a(`);
    if (plucks) edits.plucks.add(call.callee.object);
    // `(0, t(X)).array`: V8 reports a failed `.array` read at the name, as for `X.array` (a call's
    // result would be reported at the dot); where a `(` could continue the line before, no `t`
    const receiverWrap = !plucks && parenSafe(source, x.start);
    if (receiverWrap) {
      insert(edits.opens, x.start, `(0,${ARRAY_CHAIN_GLOBAL}.t(`);
      insert(edits.closes, x.end, `${receiverName === undefined ? '' : chainNamed('t', receiverName)}))`);
    }
    insert(edits.closes, call.end, `${named === undefined ? '' : chainNamed('a', named)})`);
    if (ends === 'array') {
      const whole = calleeText(last);
      // opened before `a(` at the same start: applyEdits keeps the order at one position
      edits.opens.splice(edits.opens.length - (receiverWrap ? 2 : 1), 0, {
        start: call.start,
        end: call.start,
        text: `${INSERTED_OPEN}${ARRAY_CHAIN_GLOBAL}.e(${INSERTED_CLOSE}`,
      });
      // `e(<chain>, 2)`: sorted at once by a number comparator through the guest's `by`, which is sure
      // to receive it (sortCalls.ts wraps that sort): the chain itself is handed there, not its array
      if (sortedBy().get(last)?.key === undefined && sortedBy().has(last)) insert(edits.closes, last.end, ', 2');
      // `u(new (k(Set))(e(<chain>, 3)).size)`: the Set's size may come from the chain's evaluation
      if (sized) {
        insert(edits.closes, last.end, ', 3');
        insert(edits.opens, sized.start, `${ARRAY_CHAIN_GLOBAL}.u(`);
        insert(edits.opens, sized.callee.start, `(${ARRAY_CHAIN_GLOBAL}.k(`);
        insert(edits.closes, sized.callee.end, `${chainNamed('k', 'Set')}))`);
        insert(edits.closes, sized.end, ')');
      }
      insert(edits.closes, last.end, `${whole === undefined ? '' : chainNamed('e', whole)})`);
      const held = boundChain(
        last,
        parents,
        identifiers,
        program,
        source,
        () => (spreads ??= wrappedSpreads(program, source)),
      );
      // `e(<chain>, 1)`: the array NAME holds may be the session's kept copy (it is never written)
      if (held) held.edits.push({ start: last.end, end: last.end, text: `${INSERTED_OPEN}, 1${INSERTED_CLOSE}` });
      if (held) edits.bound.push(held);
      // `const NAME = <chain>.sort(cmp)` read only at `.length` and elements: NAME may hold the session's kept sort
      const sortHeld =
        !held && sortedBy().has(last) && sortedBy().get(last)?.key === undefined
          ? boundSorted(last, parents, identifiers, program, source)
          : undefined;
      if (sortHeld) edits.bound.push(sortHeld);
      // `const NAME = <chain>;` sorted in place by the next statement, then only read: the same, folded
      const inPlace =
        !held && !sortedBy().has(last)
          ? sortedInPlace(last, parents, identifiers, program, source, sortedBy())
          : undefined;
      if (inPlace) edits.bound.push(inPlace);
    }
  }
  return edits;
}

/**
 * `const NAME = <chain>` (a declarator of the program's top level) whose every other mention of NAME,
 * after the declaration and none inside a function, arrow or class, is `NAME.length` read for its
 * value, `NAME.reduce((s, v) => s + v, <number>)`, or the spread of `Math.min(...NAME)` /
 * `Math.max(...NAME)` that sortCalls.ts routes through the guest's min/max (`wrappedSpreads`), with at
 * least one reduce or spread, in a program that names neither `eval` nor `with`: each reduce's receiver becomes `__sbirtools_chain.r(NAME)`, the chain
 * itself while NAME holds the array `e` made for it and the reduce NAME would run is the native one
 * (prelude/fast/arrayChain.ts: the sum read from the chain's evaluation instead of one callback per
 * element), and `e` gets a second argument (planArrayChains) by which it may hand NAME the copy the
 * session keeps of the chain's array instead of a fresh one (which the guest's min/max then answer
 * from the chain's evaluation). NAME must run as a true local (transform.ts), so nothing else can
 * write into the array.
 */
function boundChain(
  chainEnd: AnyNode,
  parents: Map<AnyNode, AnyNode>,
  identifiers: AnyNode[],
  program: AnyNode,
  source: string,
  spreads: () => Set<AnyNode>,
): { name: string; edits: LocalEdit[] } | undefined {
  const d = parents.get(chainEnd);
  const decl = d && parents.get(d);
  if (!d || d.type !== 'VariableDeclarator' || d.init !== chainEnd || d.id.type !== 'Identifier') return undefined;
  if (!decl || decl.kind !== 'const' || !(program.body as AnyNode[]).includes(decl)) return undefined;
  if (/\bwith\b/.test(source) || identifiers.some((m) => m.name === 'eval')) return undefined;
  const name = d.id.name as string;
  const edits: LocalEdit[] = [];
  let spread = false;
  for (const m of identifiers) {
    if (m === d.id || m.name !== name) continue;
    const member = parents.get(m);
    // a property name (`o.NAME`, `{ NAME: 1 }`) is no mention of the variable
    if (member?.type === 'MemberExpression' && member.property === m && !member.computed) continue;
    if (member?.type === 'Property' && member.key === m && !member.computed && !member.shorthand) continue;
    if (m.start < decl.end || !member) return undefined;
    for (let at = parents.get(m); at; at = parents.get(at))
      if (/Function|Class/.test(at.type) || at.type === 'StaticBlock') return undefined;
    // `Math.min(...NAME)` / `Math.max(...NAME)` that sortCalls routes through the guest's min/max,
    // which reads the elements without running code of the run's (or gives the array back for good)
    if (member.type === 'SpreadElement' && spreads().has(m)) {
      spread = true;
      continue;
    }
    if (member.type !== 'MemberExpression' || member.object !== m) return undefined;
    if (member.computed || member.optional || member.property.type !== 'Identifier') return undefined;
    const call = parents.get(member);
    if (member.property.name === 'length') {
      if (writes(member, call)) return undefined;
      continue;
    }
    if (
      member.property.name !== 'reduce' ||
      methodCall(call, m) !== 'reduce' ||
      call!.arguments.length !== 2 ||
      !sumReducer(call!.arguments[0]) ||
      !numberLiteral(call!.arguments[1])
    )
      return undefined;
    edits.push({ start: m.start, end: m.start, text: `${INSERTED_OPEN}${ARRAY_CHAIN_GLOBAL}.r(${INSERTED_CLOSE}` });
    edits.push({ start: m.end, end: m.end, text: `${INSERTED_OPEN})${INSERTED_CLOSE}` });
  }
  return edits.length > 0 || spread ? { name, edits } : undefined;
}

/**
 * `new Set(<chain>).size` around the chain ending at `chainEnd`: its only argument, `Set` a name the
 * program binds nowhere (the global, which the guest checks is the session's Set), and `.size` read
 * for its value right after the call's `)`. The NewExpression and the size read (`.end` past `size`),
 * or undefined. The guest (prelude/fast/arrayChain.ts `setOf`) may then answer the size from the
 * chain's evaluation and fill the Set, never read, from an empty array.
 */
function setSizeOf(
  chainEnd: AnyNode,
  parents: Map<AnyNode, AnyNode>,
  bound: Set<string>,
  source: string,
): { start: number; end: number; callee: AnyNode } | undefined {
  const made = parents.get(chainEnd);
  if (!made || made.type !== 'NewExpression' || made.arguments.length !== 1 || made.arguments[0] !== chainEnd)
    return undefined;
  if (made.callee.type !== 'Identifier' || made.callee.name !== 'Set' || bound.has('Set')) return undefined;
  const member = parents.get(made);
  if (!member || member.type !== 'MemberExpression' || member.object !== made || member.computed || member.optional)
    return undefined;
  if (member.property.type !== 'Identifier' || member.property.name !== 'size') return undefined;
  // `(new Set(x)).size`: `u(` would open inside the parentheses and close outside them
  if (!/^\s*\.\s*$/.test(source.slice(made.end, member.property.start))) return undefined;
  if (writes(member, parents.get(member))) return undefined;
  return { start: made.start, end: member.end, callee: made.callee };
}

/**
 * `<expr>.objects().map(r => r.F)`: a start as `X.array(F)` is when the row chain rewrite answers it
 * (rowChains.ts `pluck`: the guest notes the array as F's over an unfiltered, unordered table; `a`
 * checks it still holds the column's values, else the methods run as written).
 */
function pluckStart(node: AnyNode): boolean {
  if (methodCall(node, node.callee?.object) !== 'map' || node.arguments.length !== 1) return false;
  return isBareObjectsCall(node.callee.object) && pluckedField(node.arguments[0]) !== undefined;
}

/** Whether `member` (`chain.length`) is written, called or deleted where it stands, not only read. */
function writes(member: AnyNode, parent: AnyNode | undefined): boolean {
  if (!parent) return false;
  switch (parent.type) {
    case 'AssignmentExpression':
      return parent.left === member;
    case 'CallExpression':
    case 'NewExpression':
      return parent.callee === member;
    case 'ForInStatement':
    case 'ForOfStatement':
      return parent.left === member;
    // a destructuring target (`({ a: x.length } = o)`), or an object literal's value: either way, left alone
    case 'UpdateExpression':
    case 'TaggedTemplateExpression':
    case 'Property':
    case 'ArrayPattern':
    case 'AssignmentPattern':
    case 'RestElement':
      return true;
    case 'UnaryExpression':
      return parent.operator === 'delete';
    default:
      return false;
  }
}
