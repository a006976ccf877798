import { ROW_LOOP_GLOBAL } from '../../../schema/rowLoop.js';
import { outlineLoops, type OutlineEdit } from './outlineLoops.js';
import { type AnyNode, collectPatternNames, FUNCTION_NODES, LOOP_NODES } from './patternNames.js';

/** An edit of the user's source (same shape as transform.ts's). */
export interface LocalEdit {
  start: number;
  end: number;
  text: string;
}

/** How a synchronous program runs with some top-level `let`/`const` as true locals. */
export interface LocalPlan {
  /** Names kept in block-scoped locals during the run and written back to the session at its end. */
  locals: string[];
  /** Edits inside the user's code: a localized declaration's keyword becomes `;` and spaces. */
  edits: LocalEdit[];
  /** The line put before the user's code (the code starts on the next line: lineOffset 1). */
  prefix: string;
  /** The line put after the user's code. */
  suffix: string;
  /** Insertions that put top-level loops in functions of their own (outlineLoops.ts): before every other edit at their place. */
  opens: OutlineEdit[];
  /** Their ends: after every other edit at their place. */
  closes: OutlineEdit[];
}

/** Names that alias the global object, or read names dynamically: their presence keeps every name global. */
const GLOBAL_ALIASES = new Set(['globalThis', 'self', 'window', 'global', 'eval', 'Function', 'query']);
/** Globals a `var` cannot change (non-writable): a local of that name would behave differently. */
const FIXED_GLOBALS = new Set(['undefined', 'NaN', 'Infinity']);
const LOOP_WORD = /\b(?:for|while|do)\b/;
/** Whether a thrown value leaves the session able to take the write-back (not QuickJS's out of memory). */
const KEEPS_VALUES =
  "(e)=>{try{return !(e&&e.name==='InternalError'&&e.message==='out of memory')}catch(x){return true}}";
/** Statements whose completion is never empty: the program's value is the last one's, whatever came before. */
const VALUED = new Set(['ExpressionStatement', 'IfStatement', 'SwitchStatement', 'TryStatement', ...LOOP_NODES]);

/**
 * Decides which top-level `let`/`const` of a synchronous script can run as true locals (a
 * register in V8, not a property cell of the global object) and writes the wrapper that keeps
 * the session's view unchanged. Before the user's code, each local is declared as a global `var`
 * (as the plain transform does) and copied into a block-scoped `let`; the user's code runs in a
 * `try` inside that block, and every local is written back to its global after it (or in a catch
 * that rethrows), so a later run,
 * the `result` read and a run that throws all see the values they see today. The user's
 * declaration loses its keyword (`let x = 1` -> `;   x = 1`, same length: every line and column
 * holds); its completion value does not matter, as only names declared before the last statement
 * that always has a value (or any, when the run's value is `result`) are localized.
 *
 * A name stays global when anything could read or write it other than the top-level code of this
 * run: a reference inside any function, arrow or class (a closure may be kept and called in a later
 * run, or by the prelude after this one), and every name when the code holds `this`, `with`,
 * `delete name`, a global alias (`globalThis`, `eval`, `Function`...), `.query` or a string with
 * `@` (pandas-style `@name` lookups read globals by name), a directive, a top-level class, or a
 * top-level function that is reassigned. Only names a top-level loop uses are localized (elsewhere
 * a global read costs nothing worth a rewrite), and those of `alsoLocal` (rowArrays.ts: a row array
 * is read through its kept values only as a true local), whose write-back (after the try and in the
 * catch) passes the value through `__sbirtools_rowLoop.release(name)`: the moment the array can be
 * seen by anything but this run's loops. Names of `keepGlobal` stay global too: a function an earlier
 * run of the session kept mentions them (functionReads), and this run may call it. Returns undefined
 * when nothing qualifies.
 * @param resultName - the run's value is the `result` variable, not the completion value.
 * @example
 * planLocals(parse('let s = 0;\nfor (const v of xs) s += v;\ns'), source, false)?.locals // ['s']
 */
export function planLocals(
  program: AnyNode,
  source: string,
  resultName: boolean,
  alsoLocal: readonly string[] = [],
  keepGlobal: ReadonlySet<string> = new Set(),
): LocalPlan | undefined {
  // no walk when no loop can be there (a loop keyword cannot be written with \u escapes)
  if (source.startsWith('#!') || (alsoLocal.length === 0 && !LOOP_WORD.test(source))) return undefined;
  const body = program.body as AnyNode[];
  const scan = scanProgram(program);
  if (!scan) return undefined;
  for (const n of alsoLocal) scan.loopNames.add(n);
  if (scan.loopNames.size === 0) return undefined;
  // the program's value is that of its last always-valued statement: declarations before it may
  // become expression statements (resultName: the completion value is not read at all)
  let lastValued = body.length;
  if (!resultName) {
    lastValued = -1;
    for (let i = body.length - 1; i >= 0; i--) {
      if (VALUED.has(body[i]!.type)) {
        lastValued = i;
        break;
      }
    }
  }
  const functions: string[] = [];
  const locals: string[] = [];
  const fresh = new Set<string>();
  const edits: LocalEdit[] = [];
  for (let i = 0; i < body.length; i++) {
    const s = body[i]!;
    if (s.type === 'FunctionDeclaration') {
      functions.push(s.id.name);
      continue;
    }
    if (s.type !== 'VariableDeclaration' || s.kind === 'var') continue;
    const names: string[] = [];
    for (const d of s.declarations) collectPatternNames(d.id, names);
    const local =
      i < lastValued &&
      s.declarations.every((d: AnyNode) => d.id.type !== 'ObjectPattern') &&
      names.some((n) => scan.loopNames.has(n)) &&
      names.every((n) => !scan.closureNames.has(n) && !keepGlobal.has(n) && !FIXED_GLOBALS.has(n));
    const len = s.kind.length;
    // `;` first: an expression statement after a line without `;` must not continue it
    edits.push({ start: s.start, end: s.start + len, text: local ? ';'.padEnd(len, ' ') : 'var'.padEnd(len, ' ') });
    if (!local) continue;
    locals.push(...names);
    for (const d of s.declarations) if (isFresh(d, scan.at)) fresh.add(d.id.name);
  }
  if (locals.length === 0) return undefined;
  for (const f of functions) if (scan.assigned.has(f) || scan.varNames.has(f)) return undefined;
  if (new Set(functions).size !== functions.length) return undefined;
  const h = freshName(scan.allNames);
  const n = locals.length;
  const params = locals.map((_, i) => `${h}${i}`);
  // a bound row array is released (its rows built if they were deferred) as it is written back
  const back = locals
    .map((l) => (alsoLocal.includes(l) ? `${ROW_LOOP_GLOBAL}.release(${l},${JSON.stringify(l)})` : l))
    .join(',');
  // a fresh name starts as its own slot's placeholder (an object no code sees) and is written back
  // only when its declaration ran: the global is neither read nor written before the run changes it
  const start = locals.map((l) => (fresh.has(l) ? '{}' : l));
  const writeBack = `(${params.join(',')})=>{${locals.map((l, i) => (fresh.has(l) ? `if(${params[i]}!==${h}[${i}])` : '') + `${l}=${params[i]};`).join('')}}`;
  const publish = `(${functions.map((_, i) => `${h}${i}`).join(',')})=>{${functions.map((f, i) => `${f}=${h}${i};`).join('')}}`;
  const prefix =
    `var ${[...locals, ...functions].join(',')};{const ${h}=[${start.join(',')},${writeBack},${publish},${KEEPS_VALUES}];` +
    `{let ${locals.map((l, i) => `${l}=${h}[${i}]`).join(',')};try{` +
    // block-scoped functions (Annex B) reach the global when their statement runs; today's var-scoped
    // ones are there before the first statement: publish them first
    (functions.length ? `${h}[${n + 1}](${functions.join(',')});` : '');
  // written back after the try (a declaration: the completion value stays the try's) and in a catch
  // that rethrows; not `finally`, which would also run code after QuickJS ran out of memory (its
  // WASM heap is then past use; the session resets, as isolated-vm's does at its memory limit)
  const err = `${h}e`;
  const suffix =
    `}catch(${err}){if(${h}[${n + 2}](${err}))${h}[${n}](${back});throw ${err}}` + `const ${h}d=${h}[${n}](${back});}}`;
  const { opens, closes } = outlineLoops(
    body,
    new Set(locals),
    h,
    `${h}[${n + 2}]`,
    resultName ? body.length : lastValued,
  );
  return { locals, edits, prefix, suffix, opens, closes };
}

interface ProgramScan {
  /** Names referenced inside a top-level loop (outside any function). */
  loopNames: Set<string>;
  /** Names referenced inside any function, arrow or class. */
  closureNames: Set<string>;
  /** Names assigned anywhere (`x = `, `x++`, a destructuring or for-in/of target). */
  assigned: Set<string>;
  /** Names declared by `var` at the top scope (blocks included, functions not). */
  varNames: Set<string>;
  /** Every identifier of the program (to pick helper names that cannot collide). */
  allNames: Set<string>;
  /** Where each name is mentioned (the start of every identifier that may be a variable). */
  at: Map<string, number[]>;
}

/**
 * Whether the declarator `d` (`name = init`) is the first mention of its name in the program, and its
 * init does not mention it: run top to bottom (it is a top-level statement and the name is in no
 * function), nothing reads the local before the declaration assigns it.
 */
function isFresh(d: AnyNode, at: Map<string, number[]>): boolean {
  if (d.id.type !== 'Identifier' || !d.init) return false;
  return (at.get(d.id.name) ?? []).every((p) => p === d.id.start || p >= d.end);
}

/** One walk of the whole program; undefined when something rules out every local. */
function scanProgram(program: AnyNode): ProgramScan | undefined {
  const scan: ProgramScan = {
    loopNames: new Set(),
    closureNames: new Set(),
    assigned: new Set(),
    varNames: new Set(),
    allNames: new Set(),
    at: new Map(),
  };
  for (const s of program.body as AnyNode[]) {
    if (s.type === 'ClassDeclaration') return undefined;
    if (s.type === 'ExpressionStatement' && typeof s.directive === 'string') return undefined;
  }
  // an explicit stack: a deeply nested program must not overflow the walk
  const stack: [AnyNode, boolean, boolean][] = [[program, false, false]];
  while (stack.length > 0) {
    const [node, inFn, inLoop] = stack.pop()!;
    const type = node.type as string;
    switch (type) {
      case 'ThisExpression':
      case 'WithStatement':
      case 'ImportExpression':
      case 'MetaProperty':
        return undefined;
      case 'Identifier':
        if (GLOBAL_ALIASES.has(node.name)) return undefined;
        scan.allNames.add(node.name);
        if (scan.at.has(node.name)) scan.at.get(node.name)!.push(node.start);
        else scan.at.set(node.name, [node.start]);
        if (inFn) scan.closureNames.add(node.name);
        else if (inLoop) scan.loopNames.add(node.name);
        continue;
      case 'Literal':
        if (typeof node.value === 'string' && node.value.includes('@')) return undefined;
        continue;
      case 'TemplateElement':
        if (String(node.value?.cooked ?? node.value?.raw ?? '').includes('@')) return undefined;
        continue;
      case 'UnaryExpression':
        if (node.operator === 'delete' && node.argument.type === 'Identifier') return undefined;
        break;
      case 'AssignmentExpression':
        collectPatternNames(node.left, scan.assigned);
        break;
      case 'UpdateExpression':
        collectPatternNames(node.argument, scan.assigned);
        break;
      case 'ForInStatement':
      case 'ForOfStatement':
        if (node.left.type !== 'VariableDeclaration') collectPatternNames(node.left, scan.assigned);
        break;
      case 'VariableDeclaration':
        if (node.kind === 'var' && !inFn) for (const d of node.declarations) collectPatternNames(d.id, scan.varNames);
        break;
    }
    const childInFn = inFn || FUNCTION_NODES.has(type);
    const childInLoop = inLoop || LOOP_NODES.has(type);
    for (const key in node) {
      if (key === 'type' || key === 'start' || key === 'end' || key === 'loc') continue;
      const v = node[key];
      if (v === null || typeof v !== 'object') continue;
      // a property name is not a variable: `r.total`, `{ total: 1 }` (a shorthand's value is one)
      if (key === 'property' && type === 'MemberExpression' && !node.computed && v.type === 'Identifier') {
        if (v.name === 'query') return undefined;
        continue;
      }
      if (key === 'key' && (type === 'Property' || type === 'PropertyDefinition' || type === 'MethodDefinition')) {
        if (!node.computed && v.type === 'Identifier') continue;
      }
      if (key === 'label') continue;
      if (Array.isArray(v)) {
        for (let i = v.length - 1; i >= 0; i--)
          if (v[i] && typeof v[i].type === 'string') stack.push([v[i], childInFn, childInLoop]);
      } else if (typeof v.type === 'string') {
        stack.push([v, childInFn, childInLoop]);
      }
    }
  }
  return scan;
}

/** A helper name no identifier of the program uses (so the user's code cannot reach it). */
function freshName(taken: Set<string>): string {
  let name = '$sbtLocals';
  for (let i = 0; [...taken].some((t) => t.startsWith(name)); i++) name = `$sbtLocals${i}_`;
  return name;
}

/**
 * The names the functions, arrows and classes of a program mention, which one of them may read in
 * any later run it is called in; 'all' when one of them may read any global (`this`, `with`, a
 * global alias or `eval`, `.query`, a string with `@`). A session keeps those of its runs
 * (runtime/holder/sessionHost.ts) and localizes none of them: a function of an earlier run called
 * during a run reads the global, which a local would leave unchanged until the write-back. A name
 * only a function's parameter (or an enclosing function's) binds is no global's: it is left out.
 * @example
 * functionReads(parse('function peek() { return rows.length }')) // ['peek', 'rows']
 */
export function functionReads(program: AnyNode): string[] | 'all' {
  const names = new Set<string>();
  // each node with whether it sits in a function and the parameters of the functions around it: a
  // parameter's name there is never a global's (its own scope, defaults included)
  const stack: [AnyNode, boolean, ReadonlySet<string>][] = [[program, false, new Set()]];
  while (stack.length > 0) {
    const [node, inFn, params] = stack.pop()!;
    const type = node.type as string;
    if (inFn) {
      if (type === 'ThisExpression' || type === 'WithStatement') return 'all';
      if (type === 'Identifier') {
        if (GLOBAL_ALIASES.has(node.name)) return 'all';
        if (!params.has(node.name)) names.add(node.name);
      }
      if (type === 'Literal' && typeof node.value === 'string' && node.value.includes('@')) return 'all';
      if (type === 'TemplateElement' && String(node.value?.cooked ?? node.value?.raw ?? '').includes('@')) return 'all';
    }
    const fn = FUNCTION_NODES.has(type);
    const childInFn = inFn || fn;
    let inner = params;
    if (fn && node.params?.length) {
      const own = new Set(params);
      for (const p of node.params as AnyNode[]) collectPatternNames(p, own);
      // `arguments` and `eval` read names a parameter list cannot hide: such a function keeps them all
      inner = own.has('arguments') || own.has('eval') ? params : own;
    }
    for (const key in node) {
      if (key === 'type' || key === 'start' || key === 'end' || key === 'loc') continue;
      const v = node[key];
      if (v === null || typeof v !== 'object') continue;
      if (key === 'property' && type === 'MemberExpression' && !node.computed && v.type === 'Identifier') {
        if (childInFn && v.name === 'query') return 'all';
        continue;
      }
      if (key === 'key' && (type === 'Property' || type === 'PropertyDefinition' || type === 'MethodDefinition')) {
        if (!node.computed && v.type === 'Identifier') continue;
      }
      if (key === 'label') continue;
      if (Array.isArray(v)) {
        for (let i = v.length - 1; i >= 0; i--)
          if (v[i] && typeof v[i].type === 'string') stack.push([v[i], childInFn, inner]);
      } else if (typeof v.type === 'string') {
        stack.push([v, childInFn, inner]);
      }
    }
  }
  return [...names].sort();
}
