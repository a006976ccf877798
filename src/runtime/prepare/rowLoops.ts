import { INSERTED_CLOSE, INSERTED_OPEN, ROW_LOOP_GLOBAL } from '../../../schema/rowLoop.js';
import type { LocalEdit } from './localize.js';
import type { AnyNode } from './patternNames.js';
import { isBareObjectsCall, rowChain } from './rowChains.js';
import { bodyReads } from './rowReads.js';
import { tableLoopEdits } from './tableLoops.js';
import { arrayDeclarations, dateArrays, dateLoopEdits } from './dateLoops.js';
import { loopHead, textLoopEdits } from './textLoops.js';
import { type RowArray, rowArrays } from './rowArrays.js';
import { type KeyedLoop, arrayCall, indexLoopStop, keyedLoop } from './keyedLoops.js';
import { scalarLoop } from './scalarLoops.js';
import { listDeclarations, sharedArrays } from './sharedArrays.js';

/** The markers' name: a source that contains it (its text could pose as a marker) is left as written. */
const PREFIX = '$sbtRow';
/**
 * The fields a row loop reads, when its row is provably invisible, else undefined. The loop must be
 * `for (const|let r of <expr>.objects())` (no arguments, no `?.`, no `for await`), and its body may use
 * `r` only as `r.name` or `r['literal']` read as a value: not called as a method (`r.f()` passes `r`
 * as `this`), not assigned, updated or deleted, not destructured into, not inside a function, arrow
 * or class (a closure may outlive the iteration), and the body must not declare another `r`, use
 * `with` or name `eval`. Anything else keeps the loop as written.
 * @example
 * rowLoopReads(parse("for (const r of t.objects()) s += r['Award Amount'] || r.x").body[0]) // ['Award Amount', 'x']
 */
export function rowLoopReads(loop: AnyNode): string[] | undefined {
  if (loop.type !== 'ForOfStatement' || loop.await) return undefined;
  const left = loop.left;
  if (left.type !== 'VariableDeclaration' || left.kind === 'var' || left.declarations.length !== 1) return undefined;
  const id = left.declarations[0].id;
  if (!isBareObjectsCall(loop.right)) return undefined;
  if (id.type === 'ObjectPattern') return patternReads(id);
  return id.type === 'Identifier' ? bodyReads(loop.body, id.name) : undefined;
}

/**
 * The fields `for (const { a, 'b c': x, d = 0 } of ...)` reads of its row: each property a plain key
 * (a name or a string) bound to a name, with at most a literal default; no rest (it would copy the
 * row's other fields) and no nested pattern. The row itself is never held, so one reused row gives
 * the pattern the same values. Undefined for any other pattern.
 */
function patternReads(pattern: AnyNode): string[] | undefined {
  const reads: string[] = [];
  for (const p of pattern.properties as AnyNode[]) {
    if (p.type !== 'Property' || p.computed || p.kind !== 'init' || p.method) return undefined;
    const key = p.key.type === 'Identifier' ? p.key.name : p.key.type === 'Literal' ? p.key.value : undefined;
    if (typeof key !== 'string' || key === '__proto__') return undefined;
    const v = p.value;
    const bound =
      v.type === 'Identifier' ||
      (v.type === 'AssignmentPattern' && v.left.type === 'Identifier' && v.right.type === 'Literal');
    if (!bound) return undefined;
    if (!reads.includes(key)) reads.push(key);
  }
  return reads.length ? reads : undefined;
}

/** The calls whose rows a loop may keep and still read one at a time (prelude/data/rowObjects.ts `keptRows`). */
const ROW_LISTS = ['objects', 'tolist', 'to_list'];

/**
 * Whether `loop` iterates the rows of `<expr>.objects()`, `.tolist()` or `.to_list()` (no arguments,
 * no `?.`, no `for await`), whatever it declares and does with them: the rows can then be built one
 * at a time as the loop reaches them, each the one the array would have held, as that array itself
 * is never seen.
 * @example
 * isRowListLoop(parse('for (const [a, b] of t.tolist()) s += a + b').body[0]) // true
 */
export function isRowListLoop(loop: AnyNode): boolean {
  return loop.type === 'ForOfStatement' && !loop.await && isBareObjectsCall(loop.right, ROW_LISTS);
}

/**
 * The edits that rewrite every qualifying row loop and array-method chain on objects() (rowChains.ts)
 * of `program`, or none (see docs/architecture.md).
 */
export function planRowLoops(program: AnyNode, source: string, plucks: ReadonlySet<AnyNode> = new Set()): RowLoopPlan {
  const none: RowLoopPlan = { edits: [], arrays: [], keyed: [] };
  // no walk when no objects() call can be there; none when a name the rewrite uses is taken
  if (
    !source.includes('objects') &&
    !source.includes('to_list') &&
    !source.includes('tolist') &&
    !/\bof\b/.test(source) &&
    !source.includes('length') &&
    !source.includes('.get(')
  )
    return none;
  if (source.includes(PREFIX) || source.includes(ROW_LOOP_GLOBAL)) return none;
  const loops: AnyNode[] = [];
  // index loops of the program's top level (keyedLoops.ts)
  const indexLoops: AnyNode[] = [];
  const calls: AnyNode[] = [];
  // every identifier that may be a variable (rowArrays.ts: the mentions of a bound name)
  const mentions: AnyNode[] = [];
  // each node's parent and the key it sits under (a chain is read from its objects() call upward)
  const up = new Map<AnyNode, [AnyNode, string]>();
  const stack: AnyNode[] = [program];
  while (stack.length > 0) {
    const node = stack.pop()!;
    // a name written with escapes (`\u0024sbtRow0`) is not in the source text
    if (node.type === 'Identifier' && (node.name.startsWith(PREFIX) || node.name === ROW_LOOP_GLOBAL)) return none;
    if (node.type === 'Identifier' && !isName(node, up)) mentions.push(node);
    if (node.type === 'ForOfStatement') loops.push(node);
    else if (node.type === 'ForStatement' && program.body.includes(node)) indexLoops.push(node);
    else if (isBareObjectsCall(node)) calls.push(node);
    for (const k in node) {
      if (k === 'type' || k === 'start' || k === 'end' || k === 'loc') continue;
      const v = node[k];
      if (v === null || typeof v !== 'object') continue;
      const children: unknown[] = Array.isArray(v) ? v : [v];
      for (const c of children as (AnyNode | null)[])
        if (c && typeof c.type === 'string') {
          up.set(c, [node, k]);
          stack.push(c);
        }
    }
  }
  // the one argument of objects(): the call stays where it was, the loop's body or the chain untouched
  const insert = (call: AnyNode, args: string) => ({
    start: call.end - 1,
    end: call.end - 1,
    text: `${INSERTED_OPEN}${ROW_LOOP_GLOBAL}.open(${args})${INSERTED_CLOSE}`,
  });
  const edits: LocalEdit[] = [];
  const keyed: KeyedLoop[] = [];
  let bindsUndefined: boolean | undefined;
  const undefinedUnbound = () => !(bindsUndefined ??= mentions.some((m) => m.name === 'undefined' && binds(m, up)));
  let texts = 0;
  let dates = 0;
  // `const NAME = X.array('col')`: a loop over NAME may be a date loop, and the array deferred (dateLoops.ts)
  const declared = arrayDeclarations(program);
  const arrayNames = new Set(declared.keys());
  const taken = new Set<AnyNode>();
  /** A loop's edits when it is neither a text nor a date loop: a reused row, rows built one at a time, or a table's loop. */
  const loopEdits = (loop: AnyNode): LocalEdit[] => {
    const reads = rowLoopReads(loop);
    if (reads) return [insert(loop.right, JSON.stringify(reads))];
    // the rows may be kept: built one at a time instead of all before the loop
    if (isRowListLoop(loop)) return [insert(loop.right, '[], ["rows"]')];
    // a loop over a column's array: the array's own iterator over the values the session keeps (no copy)
    const head = loopHead(loop);
    if (head && head.column !== undefined) {
      const arg = head.right.arguments[0] as AnyNode;
      const token = `${ROW_LOOP_GLOBAL}.open(${JSON.stringify([head.column])}, ["values"])`;
      return [{ start: arg.end, end: arg.end, text: `${INSERTED_OPEN}, ${token}${INSERTED_CLOSE}` }];
    }
    // a loop over a table itself or a bound row array (the guest decides which: tableLoops.ts)
    return nested(loop, up) ? [] : (tableLoopEdits(loop, source) ?? []);
  };
  for (const loop of loops) {
    // a keyed accumulation answered from the columns when its names run as true locals (keyedLoops.ts);
    // else the edits below (their own: the guest's fallback for the keyed loop is the reused row)
    const byKey = keyedLoop(loop, program, up, mentions, source);
    const scalar = byKey ? undefined : scalarLoop(loop, program, source, keyed.length, arrayNames);
    let k = byKey ?? scalar;
    // a scalar loop over an array's values (session 19) leaves a text or date loop its own path: the
    // host's scans and a date column's numbers answer those, the scalar kernel reads neither
    const overValues =
      !byKey && (arrayCall(loop.right) || (loop.right.type === 'Identifier' && arrayNames.has(loop.right.name)));
    // a loop that reads a long text value only through what the host answers per row (textLoops.ts)
    let stmt = loop;
    for (let at = up.get(stmt); at && at[0].type === 'LabeledStatement'; at = up.get(stmt)) stmt = at[0];
    const text = textLoopEdits(loop, stmt, source, texts, up, undefinedUnbound);
    let own = text;
    if (text) {
      texts++;
      if (overValues) k = undefined;
    } else {
      // a loop that reads a date value only through numbers of the column (dateLoops.ts)
      const date = dateLoopEdits(loop, stmt, source, dates, up, undefinedUnbound, arrayNames);
      if (date) {
        own = date;
        dates++;
        // a latest loop's kernel reads the date column's numbers itself (scalarLoops.ts `latestShape`)
        if (overValues && !scalar?.dated) k = undefined;
        // a keyed loop's edits may replace these: its array is then read as it is
        if (!k && loop.right.type === 'Identifier') taken.add(loop);
      }
    }
    own ??= loopEdits(loop);
    if (k) keyed.push({ ...k, otherwise: own });
    else edits.push(...own);
  }
  // index loops the columns answer, by their names (an array they read may be read in place: sharedArrays.ts)
  const answered = new Map<AnyNode, string[]>();
  for (const loop of indexLoops) {
    // a scalar accumulation's fallback is the loop as written
    const k =
      keyedLoop(loop, program, up, mentions, source) ?? scalarLoop(loop, program, source, keyed.length, arrayNames);
    if (k) {
      keyed.push({ ...k, otherwise: [] });
      answered.set(loop, k.names);
    }
  }
  for (const call of calls) {
    const chain = rowChain(call, up);
    // a pluck that starts a chain on the values (arrayChains.ts wraps it in `a(...)`): `, 1` lets it answer that chain
    const chained = plucks.has(call) && chain?.ops.length === 1 && chain.ops[0] === 'pluck' ? ', 1' : '';
    if (chain) edits.push(insert(call, `${JSON.stringify(chain.reads)}, ${JSON.stringify(chain.ops)}${chained}`));
  }
  const dated = dateArrays(declared, taken, up, mentions);
  const rows = rowArrays(program, up, mentions, source);
  // a Series' tolist() bound to a name is read in place as its column's array() (session 20)
  const columns = new Map([...declared, ...listDeclarations(program)]);
  const arrays = [
    ...rows,
    ...dated,
    // a keyed loop reads its arrays through their origin or as the column's kept values themselves
    // (prelude/data/keyedArrays.ts); a date array only date loops read is deferred instead
    ...sharedArrays(program, columns, up, mentions, source, indexLoopStop, answered).filter(
      (a) => !dated.some((x) => x.name === a.name) && !rows.some((x) => x.name === a.name),
    ),
  ];
  return { edits, arrays, keyed };
}

/**
 * What planRowLoops found: the edits to apply, the row arrays to rewrite if their name runs as a true
 * local, and the keyed loops to rewrite if theirs do (else their `otherwise` edits apply).
 */
export interface RowLoopPlan {
  edits: LocalEdit[];
  arrays: RowArray[];
  keyed: KeyedLoop[];
}

const NESTING = new Set([
  'ForStatement',
  'ForInStatement',
  'ForOfStatement',
  'WhileStatement',
  'DoWhileStatement',
  'FunctionDeclaration',
  'FunctionExpression',
  'ArrowFunctionExpression',
  'ClassBody',
]);

/**
 * Whether `node` sits inside a loop or a function: a loop there may start many times, and the helper of
 * tableLoops.ts costs a call each time while a table is iterated by top-level code.
 */
function nested(node: AnyNode, up: Map<AnyNode, [AnyNode, string]>): boolean {
  for (let at = up.get(node); at; at = up.get(at[0])) if (NESTING.has(at[0].type)) return true;
  return false;
}

/** Parent types under which an identifier is declared or assigned rather than read. */
const BINDING = new Set([
  'VariableDeclarator',
  'FunctionDeclaration',
  'FunctionExpression',
  'ArrowFunctionExpression',
  'CatchClause',
  'ClassDeclaration',
  'ClassExpression',
  'Property',
  'ArrayPattern',
  'ObjectPattern',
  'AssignmentPattern',
  'AssignmentExpression',
  'RestElement',
  'UpdateExpression',
]);

/** Whether identifier `node` may declare or assign its name (`let undefined`, `(undefined) => 0`, `[undefined] = x`). */
function binds(node: AnyNode, up: Map<AnyNode, [AnyNode, string]>): boolean {
  const p = up.get(node)?.[0];
  return p !== undefined && BINDING.has(p.type) && !(p.type === 'AssignmentExpression' && p.right === node);
}

/** Whether identifier `node` is a property name or a label rather than a variable (`o.x`, `{ x: 1 }`, `x:`). */
function isName(node: AnyNode, up: Map<AnyNode, [AnyNode, string]>): boolean {
  const [p, k] = up.get(node) ?? [null, ''];
  if (!p) return false;
  if (k === 'property' && p.type === 'MemberExpression' && !p.computed) return true;
  if (
    k === 'key' &&
    !p.computed &&
    !p.shorthand &&
    ['Property', 'PropertyDefinition', 'MethodDefinition'].includes(p.type)
  )
    return true;
  return k === 'label';
}
