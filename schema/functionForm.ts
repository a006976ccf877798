/**
 * A synchronous program as the body of a function (prelude/runtime/keptRuns.ts compiles it once per
 * text and calls it
 * each run): V8 keeps a function's type feedback and optimized code between calls, where a script
 * evaluated anew each run drops its optimized loop after a GC and re-enters a stale OSR compile that
 * deopts right after the loop (docs/architecture.md "A re-run keeps its compiled code").
 *
 * The function must do what globalize(code) evaluated by indirect eval does, so it is made only when
 * that can be kept exactly, and every column of the code holds:
 * - var-scoped declarations outside functions (top-level `const`/`let` included, as globalize makes
 *   them `var`) become assignments (`var x = 1` -> `;0,x = 1`, same length) and their names are
 *   declared by a separate `var a,b;` evaluated the same way before each call, so they stay globals
 *   the eval would have created; a top-level class is also assigned to globalThis (globalize);
 * - the run's value, the completion value of the last statement that has one, is captured by an
 *   assignment around that expression statement (inserted between the markers error columns skip,
 *   schema/rowLoop.ts) and returned; a program whose value a loop, an `if` or a `switch` gives stays
 *   on eval (resultName runs, whose value is `result`, need no capture);
 * - the function is sloppy and called with globalThis as `this`, as top-level code runs.
 * Anything a function scope would change keeps the eval: a function declaration outside functions
 * (hoisted onto the global and rebound by a later run), `eval` or `arguments` anywhere, `with`, a
 * directive, a hashbang, an Annex B `for (var x = 1 in o)`, code that does not parse, and code that
 * names `$sbtEval` (in a comment: how tests compare the two paths).
 *
 * Both sides make it: the host's code check (src/runtime/prepare/runForm.ts) sends the form with the
 * prepared code, so a fresh isolate's first runs parse nothing (acorn cold in a new isolate was 2-5
 * ms of a first run: docs/benchmarks.md, session 25); the prelude (prelude/runtime/functionForm.ts)
 * makes it when a run comes without one. The parser is the caller's (acorn on both sides): schema/
 * imports no parser.
 */
import { INSERTED_CLOSE, INSERTED_OPEN } from './rowLoop.js';

/** The program as a function, with the declarations evaluated before each call. */
export interface FunctionForm {
  /** `(function(){let <v>;` on a line of its own, the code, then `return <v>})`: one line added in front. */
  text: string;
  /** `var a,b;` for the var-scoped names the code declares outside functions; '' when none. */
  declare: string;
}

/** Parses a script as acorn does with `{ ecmaVersion: 'latest', sourceType: 'script' }`; throws when it does not parse. */
export type ParseScript = (code: string) => unknown;

/** In a comment or anywhere in the code, keeps the run on eval (the differential tests' control arm). */
export const EVAL_ONLY = '$sbtEval';

// acorn's node shape, as far as this walk reads it
interface Node {
  type: string;
  start: number;
  end: number;
  [key: string]: unknown;
}

/** A declared name and where it is written. */
interface Named {
  name: string;
  at: number;
}

interface Edit {
  at: number;
  end: number;
  text: string;
}

/** Statement lists, where a rewritten declaration may start with `;`. */
const LISTS = new Set(['Program', 'BlockStatement', 'SwitchCase', 'StaticBlock']);
const FUNCTIONS = new Set(['FunctionDeclaration', 'FunctionExpression', 'ArrowFunctionExpression', 'ClassBody']);

/**
 * The function form of `code` (a synchronous program, before globalize), or undefined when it must
 * run as evaluated today. `resultName`: the run's value is the `result` global, not a completion value.
 * @example
 * functionForm('let s = 0;\nfor (const v of xs) s += v;\ns', false, (c) => acorn.parse(c, { ecmaVersion: 'latest' }))
 * // { text: '(function(){let $sbtValue;\n;0,s = 0;\nfor (const v of xs) s += v;\n/*$sbtRow<*\/$sbtValue=(/*>$sbtRow*\/s/*$sbtRow<*\/)/*>$sbtRow*\/\nreturn $sbtValue})', declare: 'var s;' }
 */
export function functionForm(code: string, resultName: boolean, parse: ParseScript): FunctionForm | undefined {
  if (code.startsWith('#!') || code.includes(EVAL_ONLY)) return undefined;
  let program: Node;
  try {
    program = parse(code) as Node;
  } catch {
    return undefined;
  }
  const body = program.body as Node[];
  if (body[0]?.type === 'ExpressionStatement' && typeof body[0].directive === 'string') return undefined;
  const edits: Edit[] = [];
  const names: Named[] = [];
  let value = '$sbtValue';
  for (let i = 0; code.includes(value); i++) value = `$sbtValue${i}_`;
  const tail = resultName ? 'empty' : tailOf(body, true);
  if (tail === undefined) return undefined;
  const node = typeof tail === 'string' ? undefined : tail;
  if (!rewriteDeclarations(program, code, edits, names, node, value)) return undefined;
  if (node?.type === 'ExpressionStatement') {
    // the statement's own range: acorn's expression range leaves out the parentheses of `({a: 1})`;
    // outside a text the preparation inserted there (its markers must pair: schema/rowLoop.ts)
    let start = node.start;
    while (start >= INSERTED_OPEN.length && code.startsWith(INSERTED_OPEN, start - INSERTED_OPEN.length))
      start -= INSERTED_OPEN.length;
    let end = code[node.end - 1] === ';' ? node.end - 1 : node.end;
    while (code.startsWith(INSERTED_CLOSE, end)) end += INSERTED_CLOSE.length;
    edits.push({ at: start, end: start, text: `${INSERTED_OPEN}${value}=(${INSERTED_CLOSE}` });
    edits.push({ at: end, end, text: `${INSERTED_OPEN})${INSERTED_CLOSE}` });
  }
  // declared in the order the code names them, as the eval creates them (the global object's key order)
  const unique = [...new Set(names.sort((a, b) => a.at - b.at).map((n) => n.name))];
  return {
    text: `(function(){let ${value};\n${applyEdits(code, edits)}\nreturn ${value}})`,
    declare: unique.length ? `var ${unique.join(',')};` : '',
  };
}

/**
 * Collects the edits of every var-scoped declaration outside functions and the names they declare;
 * false when something keeps the program on eval.
 */
function rewriteDeclarations(
  program: Node,
  code: string,
  edits: Edit[],
  names: Named[],
  tail: Node | undefined,
  value: string,
): boolean {
  // [node, parent type, inside a function]; an explicit stack: a deeply nested program must not overflow
  const stack: [Node, string, boolean][] = [[program, '', false]];
  // the declarations that are a loop's head (`for (var i...`, `for (var k in...`), not its body
  const heads = new Map<Node, 'for' | 'forInOf'>();
  while (stack.length > 0) {
    const [node, parent, inFn] = stack.pop()!;
    const type = node.type;
    if (type === 'Identifier' && (node.name === 'eval' || node.name === 'arguments')) return false;
    if (!inFn) {
      if (type === 'WithStatement' || type === 'FunctionDeclaration') return false;
      if (type === 'ForInStatement' && (node.left as Node).type === 'VariableDeclaration') {
        const d = ((node.left as Node).declarations as Node[])[0]!;
        if (d.init) return false;
      }
      if (type === 'ForStatement' && node.init) heads.set(node.init as Node, 'for');
      if (type === 'ForInStatement' || type === 'ForOfStatement') heads.set(node.left as Node, 'forInOf');
      if (type === 'VariableDeclaration' && (node.kind === 'var' || parent === 'Program')) {
        if (!declaration(node, heads.get(node) ?? parent, code, edits, names)) return false;
      }
      if (type === 'ClassDeclaration' && parent === 'Program') {
        // globalize's edit: the class is also a global property for later runs (an expression
        // statement: the program's value when nothing valued follows; captured between markers)
        const id = (node.id as Node).name as string;
        const captured = node === tail ? `${INSERTED_OPEN}${value}=${INSERTED_CLOSE}` : '';
        edits.push({ at: node.end, end: node.end, text: `;${captured}globalThis[${JSON.stringify(id)}]=${id};` });
      }
    }
    const childInFn = inFn || FUNCTIONS.has(type);
    for (const key in node) {
      if (key === 'type' || key === 'start' || key === 'end') continue;
      const v = node[key] as Node | Node[] | null;
      if (v === null || typeof v !== 'object') continue;
      if (Array.isArray(v)) {
        for (let i = v.length - 1; i >= 0; i--)
          if (v[i] && typeof v[i]!.type === 'string') stack.push([v[i]!, type, childInFn]);
      } else if (typeof v.type === 'string') {
        stack.push([v, type, childInFn]);
      }
    }
  }
  return true;
}

/**
 * `var a = 1, b` -> `;0,a = 1, 0` in a statement list (` 0,` where a statement is a single one, an
 * `if` branch or a loop body; spaces in a `for` head: `parent` is then 'for' or 'forInOf'): the same length, an expression that assigns
 * what the declaration initializes and leaves alone what it does not. False for a keyword that is not
 * where acorn puts it.
 */
function declaration(node: Node, parent: string, code: string, edits: Edit[], names: Named[]): boolean {
  const kind = node.kind as string;
  if (code.slice(node.start, node.start + kind.length) !== kind) return false;
  const lead = parent === 'for' || parent === 'forInOf' ? '' : LISTS.has(parent) ? ';0,' : ' 0,';
  edits.push({ at: node.start, end: node.start + kind.length, text: lead.padEnd(kind.length, ' ') });
  for (const d of node.declarations as Node[]) {
    collectNames(d.id as Node, names);
    // a declarator without a value assigns nothing: a `0` in its place (for-in/of heads keep the name)
    if (!d.init && parent !== 'forInOf') {
      const id = d.id as Node;
      edits.push({ at: id.start, end: id.end, text: '0'.padEnd(id.end - id.start, ' ') });
    }
  }
  return true;
}

/** The names a binding pattern binds. */
function collectNames(p: Node, out: Named[]): void {
  if (p.type === 'Identifier') out.push({ name: p.name as string, at: p.start });
  else if (p.type === 'ObjectPattern')
    for (const prop of p.properties as Node[])
      collectNames((prop.type === 'RestElement' ? prop.argument : prop.value) as Node, out);
  else if (p.type === 'ArrayPattern') {
    for (const e of p.elements as (Node | null)[]) if (e) collectNames(e, out);
  } else if (p.type === 'RestElement') collectNames(p.argument as Node, out);
  else if (p.type === 'AssignmentPattern') collectNames(p.left as Node, out);
}

/**
 * The expression statement whose value is the completion value of `list` (at the top of the program,
 * a class declaration: globalize's assignment after it), 'empty' when no statement
 * of it has one, 'undefined' when it is undefined whatever ran before; undefined when a statement
 * whose value depends on how it ran (a loop, `if`, `switch`, label, a `try` whose catch may not
 * throw or with a `finally`) decides it.
 */
function tailOf(list: Node[], top = false): Node | 'empty' | 'undefined' | undefined {
  for (let i = list.length - 1; i >= 0; i--) {
    const s = list[i]!;
    switch (s.type) {
      case 'ClassDeclaration':
        // at the top, globalize's `;globalThis["K"]=K;` after it gives the program its value
        if (top) return s;
        continue;
      case 'EmptyStatement':
      case 'VariableDeclaration':
      case 'DebuggerStatement':
        continue;
      case 'ExpressionStatement':
        return s;
      case 'ThrowStatement':
        return 'undefined';
      case 'BlockStatement': {
        const inner = tailOf(s.body as Node[]);
        if (inner === 'empty') continue;
        return inner;
      }
      case 'TryStatement': {
        // localize.ts's wrapper: a catch that rethrows; a try's value is undefined when its block has none
        const handler = s.handler as Node | null;
        const caught = handler && ((handler.body as Node).body as Node[]);
        if (s.finalizer || !caught || caught[caught.length - 1]?.type !== 'ThrowStatement') return undefined;
        const inner = tailOf((s.block as Node).body as Node[]);
        return inner === 'empty' ? 'undefined' : inner;
      }
      default:
        return undefined;
    }
  }
  return 'empty';
}

function applyEdits(code: string, edits: Edit[]): string {
  const sorted = edits.map((e, i) => ({ ...e, i })).sort((a, b) => a.at - b.at || a.i - b.i);
  let out = '';
  let pos = 0;
  for (const e of sorted) {
    out += code.slice(pos, e.at) + e.text;
    pos = Math.max(pos, e.end);
  }
  return out + code.slice(pos);
}
