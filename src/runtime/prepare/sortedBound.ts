import { INSERTED_CLOSE, INSERTED_OPEN, ROW_LOOP_GLOBAL } from '../../../schema/rowLoop.js';
import type { LocalEdit } from './localize.js';
import { FUNCTION_NODES, type AnyNode } from './patternNames.js';

/** Operators of two numbers that give a number and call nothing (no `in`, `instanceof`, comparison). */
const NUMBER_OPS = new Set(['+', '-', '*', '/', '%', '**', '<<', '>>', '>>>', '|', '&', '^']);

/**
 * `const NAME = <chain>.sort(cmp)`, a declarator of the program's top level whose chain's array is
 * sorted at once by a number comparator with no key (`e(<chain>, 2)` handed to the guest's `by`:
 * arrayChains.ts), whose every other mention of NAME, after the declaration and none inside a
 * function, arrow or class, is `NAME.length` read for its value or `NAME[k]` read for its value with
 * `k` a number expression of number literals, `NAME.length` and names of the program's own top-level
 * `const`s that nothing else in it binds (evaluating it twice runs nothing and gives the same value:
 * `(a.length - 1) / 2`, `a.length >> 1`, `mid - 1`; those names must run as true locals too, `needs`,
 * so that no getter of the global object stands behind them), in a program that names neither `eval`
 * nor `with`. The median's shapes:
 *   const a = t.array('A').filter(v => v != null).sort((x, y) => x - y);
 *   a.length % 2 ? a[(a.length - 1) / 2] : (a[a.length / 2 - 1] + a[a.length / 2]) / 2
 *   const mid = Math.floor(a.length / 2);
 *   a.length % 2 ? a[mid] : (a[mid - 1] + a[mid]) / 2
 * The edits: `e` gets `, 4` before its `, 2` (`e(<chain>, 4, 2)`), by which the guest's `by` may hand
 * NAME the sorted array the session keeps for the chain itself, not a copy of it (prelude/fast/
 * handSort.ts `chainSorter`); each `NAME[k]` becomes `(NAME = __sbirtools_rowLoop.at(NAME, (k)))[k]`
 * (as sharedArrays.ts's key reads), which gives NAME a copy of its own before a read that is not of one
 * of its own elements could reach a getter of the run's on a prototype with the kept array as `this`.
 * NAME must run as a true local (transform.ts), so nothing else can reach the array during the run;
 * the write-back gives the global a copy of its own, made at its first read (prelude/data/rowLoop.ts
 * `release`).
 */
export function boundSorted(
  chainEnd: AnyNode,
  parents: Map<AnyNode, AnyNode>,
  identifiers: AnyNode[],
  program: AnyNode,
  source: string,
): BoundSort | undefined {
  const sortMember = parents.get(chainEnd);
  if (!sortMember || sortMember.type !== 'MemberExpression' || sortMember.object !== chainEnd) return undefined;
  const call = parents.get(sortMember);
  if (!call || call.type !== 'CallExpression' || call.callee !== sortMember) return undefined;
  const d = parents.get(call);
  const decl = d && parents.get(d);
  if (!d || d.type !== 'VariableDeclarator' || d.init !== call || d.id.type !== 'Identifier') return undefined;
  if (!decl || decl.kind !== 'const' || !(program.body as AnyNode[]).includes(decl)) return undefined;
  const reads = elementReads(d.id.name as string, [d.id], decl.end, parents, identifiers, program, source);
  if (!reads) return undefined;
  reads.edits.unshift({ start: chainEnd.end, end: chainEnd.end, text: `${INSERTED_OPEN}, 4${INSERTED_CLOSE}` });
  return reads;
}

/** A name lent a kept sort: the edits that lend it, to apply only when it and `needs` run as true locals. */
export interface BoundSort {
  name: string;
  edits: LocalEdit[];
  needs: string[];
}

/**
 * The same for a chain's array sorted in place by the statement right after its declaration:
 *   const a = t.array('A').filter(v => v != null);
 *   a.sort((x, y) => x - y);
 *   const mid = Math.floor(a.length / 2);
 *   a.length % 2 ? a[mid] : (a[mid - 1] + a[mid]) / 2
 * The declaration is the only declarator of a top-level `const`; the next statement is `NAME.sort(cmp)`
 * alone, a sort planSortCalls wraps (`sorts`: a number comparator with no key); a later statement is
 * an expression statement (the program's value is never the sorted array); NAME's other mentions are
 * boundSorted's. Nothing runs between the two statements, so sorting the chain's array at once is
 * sorting it there: `e(<chain>, 4, 2)` hands NAME the chain, which the sort statement, now
 * `NAME = by(NAME, d).sort(cmp)`, turns into the sorted array (the session's kept sort, lent) and
 * gives NAME, as `const NAME = <chain>.sort(cmp)` would.
 */
export function sortedInPlace(
  chainEnd: AnyNode,
  parents: Map<AnyNode, AnyNode>,
  identifiers: AnyNode[],
  program: AnyNode,
  source: string,
  sorts: ReadonlyMap<AnyNode, { key?: string }>,
): BoundSort | undefined {
  const d = parents.get(chainEnd);
  const decl = d && parents.get(d);
  if (!d || d.type !== 'VariableDeclarator' || d.init !== chainEnd || d.id.type !== 'Identifier') return undefined;
  if (!decl || decl.kind !== 'const' || decl.declarations.length !== 1) return undefined;
  const body = program.body as AnyNode[];
  const at = body.indexOf(decl);
  const next = at < 0 ? undefined : body[at + 1];
  if (next?.type !== 'ExpressionStatement' || next.expression.type !== 'CallExpression') return undefined;
  const name = d.id.name as string;
  const call = next.expression;
  const callee = call.callee as AnyNode;
  if (call.optional || call.arguments.length !== 1 || callee.type !== 'MemberExpression') return undefined;
  if (callee.computed || callee.optional || callee.property.type !== 'Identifier' || callee.property.name !== 'sort')
    return undefined;
  const receiver = callee.object as AnyNode;
  if (receiver.type !== 'Identifier' || receiver.name !== name) return undefined;
  if (!sorts.has(receiver) || sorts.get(receiver)!.key !== undefined) return undefined;
  if (!body.slice(at + 2).some((st) => st.type === 'ExpressionStatement')) return undefined;
  const reads = elementReads(name, [d.id, receiver], next.end, parents, identifiers, program, source);
  if (!reads) return undefined;
  reads.edits.unshift(
    { start: chainEnd.end, end: chainEnd.end, text: `${INSERTED_OPEN}, 4${INSERTED_CLOSE}` },
    { start: chainEnd.end, end: chainEnd.end, text: `${INSERTED_OPEN}, 2${INSERTED_CLOSE}` },
    { start: call.start, end: call.start, text: `${INSERTED_OPEN}${name} = ${INSERTED_CLOSE}` },
  );
  return reads;
}

/**
 * The edits that read NAME's elements through `at` when every mention of NAME but those of `skip`
 * comes after `from` (none inside a function, arrow or class) and is `NAME.length` or `NAME[k]` read
 * for its value (`numberKey`), in a program that names neither `eval` nor `with`; else undefined.
 */
function elementReads(
  name: string,
  skip: AnyNode[],
  from: number,
  parents: Map<AnyNode, AnyNode>,
  identifiers: AnyNode[],
  program: AnyNode,
  source: string,
): BoundSort | undefined {
  if (/\bwith\b/.test(source) || identifiers.some((m) => m.name === 'eval')) return undefined;
  const needs: string[] = [];
  // each name's bindings counted once (a median reads `mid` three times), not at every mention
  const keyName = (n: string) => {
    if (needs.includes(n)) return true;
    if (n === name || !soleTopConst(n, program, identifiers, parents)) return false;
    needs.push(n);
    return true;
  };
  const edits: LocalEdit[] = [];
  for (const m of identifiers) {
    if (m.name !== name || skip.includes(m)) continue;
    const member = parents.get(m);
    // a property name (`o.NAME`, `{ NAME: 1 }`) is no mention of the variable
    if (member?.type === 'MemberExpression' && member.property === m && !member.computed) continue;
    if (member?.type === 'Property' && member.key === m && !member.computed && !member.shorthand) continue;
    if (m.start < from || !member || member.type !== 'MemberExpression' || member.object !== m) return undefined;
    if (member.optional || !readOnly(member, parents)) return undefined;
    for (let at = parents.get(m); at; at = parents.get(at))
      if (FUNCTION_NODES.has(at.type) || at.type === 'ClassBody' || at.type === 'StaticBlock') return undefined;
    if (!member.computed) {
      if (member.property.type !== 'Identifier' || member.property.name !== 'length') return undefined;
      continue;
    }
    if (!numberKey(member.property, name, keyName)) return undefined;
    const key = source.slice(member.property.start, member.property.end);
    // `(NAME = at(NAME, (k)))[k]`: V8 names the member read `NAME[k]` in a message, as written
    edits.push({
      start: m.start,
      end: m.start,
      text: `${INSERTED_OPEN}(${name} = ${ROW_LOOP_GLOBAL}.at(${INSERTED_CLOSE}`,
    });
    edits.push({ start: m.end, end: m.end, text: `${INSERTED_OPEN}, (${key})))${INSERTED_CLOSE}` });
  }
  return { name, edits, needs };
}

/**
 * A number literal, `name.length`, a name `keyName` accepts, or `+`, `-`, `~` of one or an arithmetic
 * or bitwise operator between two.
 */
function numberKey(e: AnyNode, name: string, keyName: (n: string) => boolean): boolean {
  switch (e.type) {
    case 'Literal':
      return typeof e.value === 'number';
    case 'Identifier':
      return keyName(e.name as string);
    case 'MemberExpression':
      return (
        !e.computed &&
        !e.optional &&
        e.object.type === 'Identifier' &&
        e.object.name === name &&
        e.property.type === 'Identifier' &&
        e.property.name === 'length'
      );
    case 'UnaryExpression':
      return (e.operator === '-' || e.operator === '+' || e.operator === '~') && numberKey(e.argument, name, keyName);
    case 'BinaryExpression':
      return NUMBER_OPS.has(e.operator) && numberKey(e.left, name, keyName) && numberKey(e.right, name, keyName);
    default:
      return false;
  }
}

/** Whether `member` (`NAME.length`, `NAME[k]`) is only read for its value where it stands (not written, called, deleted or destructured into). */
function readOnly(member: AnyNode, parents: Map<AnyNode, AnyNode>): boolean {
  const parent = parents.get(member);
  if (!parent) return false;
  switch (parent.type) {
    case 'AssignmentExpression':
      return parent.right === member;
    case 'CallExpression':
    case 'NewExpression':
      return parent.callee !== member;
    case 'UnaryExpression':
      return parent.operator !== 'delete';
    case 'ForInStatement':
    case 'ForOfStatement':
      return parent.left !== member;
    case 'Property':
      // a value of an object literal, not of a pattern (`({ k: NAME[0] } = o)` writes it)
      return parent.value === member && parents.get(parent)?.type === 'ObjectExpression';
    case 'ChainExpression':
    case 'UpdateExpression':
    case 'TaggedTemplateExpression':
    case 'ArrayPattern':
    case 'ObjectPattern':
    case 'AssignmentPattern':
    case 'RestElement':
      return false;
    default:
      return true;
  }
}

/** Parents under which an identifier is bound (declared, a parameter, a pattern's target), by the key it sits under. */
const BINDS: Record<string, string[]> = {
  VariableDeclarator: ['id'],
  FunctionDeclaration: ['id', 'params'],
  FunctionExpression: ['id', 'params'],
  ArrowFunctionExpression: ['params'],
  ClassDeclaration: ['id'],
  ClassExpression: ['id'],
  CatchClause: ['param'],
  AssignmentPattern: ['left'],
  ArrayPattern: ['elements'],
  RestElement: ['argument'],
};

/**
 * Whether `n` is declared by a `const` of the program's top level and bound nowhere else in it (no
 * other declaration, parameter, catch or pattern of that name, no `{ n }` pattern): every mention
 * of it then reads that one binding, and reading it runs no code.
 */
function soleTopConst(n: string, program: AnyNode, identifiers: AnyNode[], parents: Map<AnyNode, AnyNode>): boolean {
  let declared = 0;
  for (const s of program.body as AnyNode[])
    if (s.type === 'VariableDeclaration' && s.kind === 'const')
      for (const d of s.declarations as AnyNode[]) if (d.id.type === 'Identifier' && d.id.name === n) declared++;
  if (declared !== 1) return false;
  let bindings = 0;
  for (const m of identifiers) {
    if (m.name !== n) continue;
    const p = parents.get(m);
    if (!p) return false;
    // `{ n }` or `{ k: n }` in a pattern binds or writes it; in an object literal it reads it
    if (p.type === 'Property' && p.value === m && parents.get(p)?.type === 'ObjectPattern') return false;
    const keys = BINDS[p.type];
    if (keys && keys.some((k) => (Array.isArray(p[k]) ? p[k].includes(m) : p[k] === m))) bindings++;
  }
  return bindings === 1;
}
