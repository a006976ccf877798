import { INSERTED_CLOSE, INSERTED_OPEN, ROW_LOOP_GLOBAL } from '../../../schema/rowLoop.js';
import type { RowArray } from './rowArrays.js';
import { declaratorOf } from './dateLoops.js';
import { FUNCTION_NODES, type AnyNode } from './patternNames.js';
import type { LocalEdit } from './localize.js';

type Up = Map<AnyNode, [AnyNode, string]>;

/**
 * Column arrays bound to a name that the run only reads element by element in bounds (docs/
 * architecture.md, "Column arrays read in place"): a declaration of arrayDeclarations (dateLoops.ts,
 * `const|let NAME = <expr>.array('col')`) whose every other mention of NAME, after the declaration and
 * none inside a function, arrow or class, is
 *   - `NAME.length` read as a value, or
 *   - `NAME[i]` read as a value inside `for (let i = 0; i < NAME.length; i++)` (keyedLoops.ts
 *     `indexLoop`), whose body neither assigns nor declares `i`: `i` is then an index of NAME's own
 *     elements, so the read never reaches a prototype (no getter of the run's sees the array).
 * At least one such indexed read is needed. array() then answers the column's values the session keeps
 * (`open([col], ['shared'])`, prelude/data/columnArrays.ts) instead of a copy of them: nothing the run
 * does can write into it or hand it on. The write-back at the end of the run (localize.ts, `release`)
 * ends that: the global gets a copy of its own, made at its first read (prelude/data/pendingRows.ts).
 * Applied, as rowArrays.ts's, only when NAME runs as a true local.
 * @example
 * sharedArrays(arrayDeclarations(parse("const a = t.array('A');\nlet s = 0;\nfor (let i = 0; i < a.length; i++) s += a[i] || 0;")), ...)
 * // [{ name: 'a', edits: [ an insert of `, __sbirtools_rowLoop.open(["A"], ["shared"])` ] }]
 */
export function sharedArrays(
  program: AnyNode,
  declarations: Map<string, AnyNode>,
  up: Up,
  mentions: AnyNode[],
  source: string,
  indexLoop: (loop: AnyNode) => { index: string; bound: string } | undefined,
  answered: ReadonlyMap<AnyNode, string[]> = new Map(),
): RowArray[] {
  const out: RowArray[] = [];
  // `eval` or `with` may write the index or reach the name where no mention shows it
  if (mentions.some((m) => m.name === 'eval') || /\bwith\b/.test(source)) return out;
  // whether a loop's body writes, declares or binds its index (any mention in it but a read), once per loop
  const seen = new Map<AnyNode, boolean>();
  const touched = (body: AnyNode, index: string): boolean => {
    let t = seen.get(body);
    if (t === undefined) {
      t = mentions.some((m) => m.name === index && m.start >= body.start && m.end <= body.end && !isRead(m, up));
      seen.set(body, t);
    }
    return t;
  };
  for (const [name, decl] of declarations) {
    const d = declaratorOf(decl, name);
    let indexed = 0;
    let iterated = false;
    let ok = true;
    const needs: string[] = [];
    const reads: LocalEdit[] = [];
    for (const m of mentions) {
      if (m === d.id || m.name !== name) continue;
      ok = m.start >= decl.end && !inFunction(m, up);
      const [member, key] = up.get(m) ?? [null, ''];
      if (ok && member?.type === 'ForOfStatement' && key === 'right') {
        // `for (const v of NAME)`: the array's own iterator reads it, when nothing can replace that
        // iterator between the call and the loop (array() checks it is the session's)
        ok = !iterated && firstLoopAfter(member, decl, d, program);
        iterated = true;
        indexed++;
        if (!ok) break;
        continue;
      }
      if (!ok || !member || key !== 'object' || member.type !== 'MemberExpression' || member.optional) ok = false;
      else if (!readAsValue(member, up)) ok = false;
      else if (!member.computed) ok = member.property.type === 'Identifier' && member.property.name === 'length';
      else {
        const at = inBounds(member, name, up, indexLoop, touched, answered);
        const key = at === undefined ? keyRead(member, source) : undefined;
        if (key !== undefined) {
          // `NAME[k]` anywhere else (the index a loop kept, a literal): read through `at` (see keyRead)
          if (key.local !== undefined && !needs.includes(key.local)) needs.push(key.local);
          const open = `${INSERTED_OPEN}(${name} = ${ROW_LOOP_GLOBAL}.at(${name}, ${key.text}), ${INSERTED_CLOSE}`;
          reads.push({ start: m.start, end: m.start, text: open });
          reads.push({ start: m.end, end: m.end, text: `${INSERTED_OPEN})${INSERTED_CLOSE}` });
        } else if (at === undefined) ok = false;
        else {
          indexed++;
          if (at !== true) for (const n of at) if (!needs.includes(n)) needs.push(n);
        }
      }
      if (!ok) break;
    }
    if (!ok || indexed === 0) continue;
    const { column, at, lead } = tokenPlace(d.init);
    const token = `${ROW_LOOP_GLOBAL}.open(${JSON.stringify([column])}, [${iterated ? '"sharedIter"' : '"shared"'}])`;
    const edits = [{ start: at, end: at, text: `${INSERTED_OPEN}${lead}${token}${INSERTED_CLOSE}` }, ...reads];
    out.push(needs.length ? { name, edits, needs } : { name, edits });
  }
  return out;
}

/**
 * `NAME[k]` read for its value outside a loop that bounds `k` by NAME's length (the index an argmax
 * loop kept, `a[k]` after it; `a[0]`): `k` a name (which must run as a true local, so reading it
 * twice runs no code: `local`) or a number literal. It becomes `(NAME = __sbirtools_rowLoop.at(NAME,
 * k), NAME)[k]`: `at` hands NAME back when it is not the kept values or `k` is an index of their own
 * elements (a number, an integer from 0 below the length: the read reaches no prototype), else a
 * copy of its own (prelude/data/rowLoop.ts `own`), which NAME holds from then on, as the code as
 * written held a copy from the start. Undefined for any other key.
 */
function keyRead(member: AnyNode, source: string): { text: string; local?: string } | undefined {
  const prop = member.property as AnyNode;
  if (prop.type === 'Identifier') return { text: prop.name as string, local: prop.name as string };
  if (prop.type === 'Literal' && typeof prop.value === 'number') return { text: source.slice(prop.start, prop.end) };
  return undefined;
}

/**
 * The Series lists bound to a name (session 20): `const|let NAME = <expr>['col'].tolist()` (or
 * `<expr>.col.tolist()`, `to_list()`, no arguments, no `?.`), which a column of a host table answers
 * with `t.array('col')` (prelude/series/Series.ts `toArray`): sharedArrays takes them as it takes
 * arrayDeclarations' (dateLoops.ts), the token then passed to `tolist(token)`, which hands it to
 * array() only when it is a token of the run's preparation.
 */
export function listDeclarations(program: AnyNode): Map<string, AnyNode> {
  const out = new Map<string, AnyNode>();
  for (const s of program.body as AnyNode[]) {
    if (s.type !== 'VariableDeclaration' || s.kind === 'var') continue;
    for (const d of s.declarations as AnyNode[])
      if (d.id.type === 'Identifier' && d.id.name !== 'result' && listColumn(d.init) !== undefined)
        out.set(d.id.name, s);
  }
  return out;
}

/** The column of `<expr>['col'].tolist()` / `<expr>.col.to_list()` (no arguments, no `?.`), else undefined. */
function listColumn(call: AnyNode | null): string | undefined {
  if (!call || call.type !== 'CallExpression' || call.optional || call.arguments.length !== 0) return undefined;
  const callee = call.callee as AnyNode;
  if (callee.type !== 'MemberExpression' || callee.computed || callee.optional) return undefined;
  if (callee.property.type !== 'Identifier' || !['tolist', 'to_list'].includes(callee.property.name)) return undefined;
  const series = callee.object as AnyNode;
  if (series.type !== 'MemberExpression' || series.optional) return undefined;
  const p = series.property as AnyNode;
  if (!series.computed) return p.type === 'Identifier' ? (p.name as string) : undefined;
  return p.type === 'Literal' && typeof p.value === 'string' ? p.value : undefined;
}

/**
 * Where the token goes in a declaration's call and the column it names: after the argument of
 * `t.array('col')` (`, token`), or as the one argument of `t['col'].tolist()`.
 */
function tokenPlace(call: AnyNode): { column: string; at: number; lead: string } {
  const list = listColumn(call);
  if (list !== undefined) return { column: list, at: call.end - 1, lead: '' };
  const arg = call.arguments[0] as AnyNode;
  return { column: arg.value as string, at: arg.end, lead: ', ' };
}

/**
 * Whether `loop` (`for (const|let v of NAME)`, not `for await`) is a statement of the program's top
 * level that runs right after NAME's declaration `decl`, NAME's declarator `d` being its last: only
 * declarations whose values are literals may stand between (`let y = 0;`), so no code of the run's
 * runs between the array() call, which checks the array iterator is the session's, and the loop,
 * which takes it.
 */
function firstLoopAfter(loop: AnyNode, decl: AnyNode, d: AnyNode, program: AnyNode): boolean {
  if (loop.await || decl.declarations[decl.declarations.length - 1] !== d) return false;
  const body = program.body as AnyNode[];
  const from = body.indexOf(decl);
  const to = body.indexOf(loop);
  if (from < 0 || to <= from) return false;
  for (let k = from + 1; k < to; k++) {
    const s = body[k];
    if (s.type !== 'VariableDeclaration' || s.kind === 'var') return false;
    for (const x of s.declarations as AnyNode[]) if (x.id.type !== 'Identifier' || !quiet(x.init)) return false;
  }
  return true;
}

/** No value, a literal (no regex), `-` of a number literal, or an empty array or object literal: making it runs no code. */
function quiet(init: AnyNode | null): boolean {
  if (init === null) return true;
  let e: AnyNode = init;
  if (e.type === 'UnaryExpression' && e.operator === '-') e = e.argument;
  if (e.type === 'Literal') return !e.regex;
  return (e.type === 'ArrayExpression' || e.type === 'ObjectExpression') && (e.elements ?? e.properties).length === 0;
}

/** Whether `node` sits inside a function, arrow or class. */
function inFunction(node: AnyNode, up: Up): boolean {
  for (let at = up.get(node); at; at = up.get(at[0]))
    if (FUNCTION_NODES.has(at[0].type) || at[0].type === 'ClassBody') return true;
  return false;
}

/** Parents under which a member expression is written, deleted, called (its object the `this`) or destructured into. */
const WRITTEN = new Set([
  'UpdateExpression',
  'ArrayPattern',
  'ObjectPattern',
  'RestElement',
  'AssignmentPattern',
  'ForInStatement',
  'ForOfStatement',
  'Property',
  'TaggedTemplateExpression',
]);

/** Whether `member` is only read for its value (not assigned, updated, deleted, called or a pattern's target). */
function readAsValue(member: AnyNode, up: Up): boolean {
  const [p, key] = up.get(member) ?? [null, ''];
  if (!p) return false;
  if (p.type === 'AssignmentExpression') return key === 'right';
  if (p.type === 'CallExpression' || p.type === 'NewExpression') return key === 'arguments';
  if (p.type === 'UnaryExpression') return p.operator !== 'delete';
  if (p.type === 'ChainExpression') return false;
  if (WRITTEN.has(p.type))
    return p.type === 'Property' ? key === 'value' && up.get(p)?.[0].type === 'ObjectExpression' : false;
  return true;
}

/**
 * Whether `member` (`NAME[<identifier>]`) sits in `for (let i = 0; i < NAME.length; i++)` over that
 * identifier, in its body, and the loop's body never assigns, updates or declares the index (`touched`):
 * true. Or (session 19) in the body of such a loop over another array that the columns answer
 * (`answered`: keyedLoops.ts's and scalarLoops.ts's index loops, by their names): that loop's names,
 * whose rewrite must apply too, since its guard hands the loop as written a copy of NAME
 * (`__sbirtools_rowLoop.own`) when it declines: NAME's index may then pass its length. Else undefined.
 */
function inBounds(
  member: AnyNode,
  name: string,
  up: Up,
  indexLoop: (loop: AnyNode) => { index: string; bound: string } | undefined,
  touched: (body: AnyNode, index: string) => boolean,
  answered: ReadonlyMap<AnyNode, string[]>,
): true | string[] | undefined {
  const prop = member.property as AnyNode;
  if (prop.type !== 'Identifier') return undefined;
  let child = member;
  for (let at = up.get(member); at; child = at[0], at = up.get(at[0])) {
    const [node, key] = at;
    if (node.type !== 'ForStatement') continue;
    const head = indexLoop(node);
    if (!head || head.index !== prop.name) continue;
    // the loop that declares the index: its body, not its init or update
    if (key !== 'body' || child !== node.body || touched(node.body, head.index)) return undefined;
    if (head.bound === name) return true;
    return answered.get(node)?.includes(name) ? answered.get(node) : undefined;
  }
  return undefined;
}

/** Whether `id` (a mention of a name) is only read there: not written, declared, a parameter... */
function isRead(id: AnyNode, up: Up): boolean {
  const [p, key] = up.get(id) ?? [null, ''];
  return (
    p !== null &&
    (p.type === 'MemberExpression' ||
      p.type === 'BinaryExpression' ||
      p.type === 'LogicalExpression' ||
      (p.type === 'CallExpression' && key === 'arguments') ||
      p.type === 'ConditionalExpression' ||
      (p.type === 'AssignmentExpression' && key === 'right') ||
      (p.type === 'VariableDeclarator' && key === 'init') ||
      (p.type === 'UnaryExpression' && p.operator !== 'delete') ||
      p.type === 'ExpressionStatement' ||
      p.type === 'ArrayExpression' ||
      p.type === 'TemplateLiteral' ||
      p.type === 'ReturnStatement')
  );
}
