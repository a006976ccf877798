import { INSERTED_CLOSE, INSERTED_OPEN } from '../../../schema/rowLoop.js';
import { type AnyNode, collectPatternNames, FUNCTION_NODES, LOOP_NODES } from './patternNames.js';

/** An insertion into the user's source (same shape as localize.ts's edits). */
export interface OutlineEdit {
  start: number;
  end: number;
  text: string;
}

/** The insertions that put loops in functions: `opens` go before every other edit at their place, `closes` after. */
export interface OutlinePlan {
  opens: OutlineEdit[];
  closes: OutlineEdit[];
}

/**
 * Puts each top-level loop that uses the run's true locals (localize.ts) in an arrow function called
 * in its place, the locals it reads passed in as parameters of the same names and those it writes
 * copied back after it (and when it throws, unless the throw is QuickJS's out of memory, as
 * localize's own write-back). Why: a run of a kept program (prelude/runtime/functionForm.ts) calls
 * the same function each time; a loop written in its body is compiled by on-stack replacement
 * without type feedback for the code after it, and V8 re-enters that compile on every later run,
 * deoptimizes right after the loop and runs the loop in the interpreter first again. A loop that
 * is a function of its own is optimized whole once, with the feedback of every run, and entered
 * optimized (docs/benchmarks.md "Top-level loops in functions of their own (session 18)"; docs/architecture.md).
 *
 * The loop's text is unchanged and every insertion sits between the markers error columns skip
 * (schema/rowLoop.ts), on the loop's first and last lines: every line and column holds. A loop is
 * left as written when the function scope could change what it does: a `var` or a function
 * declaration in it (they would be scoped to the arrow), or `arguments`. Only loops before the
 * statement that gives the run's value are moved (the completion value of a loop is lost in a call).
 * The locals are block-scoped and only top-level code names them (localize.ts), so nothing else can
 * read or write them while the loop runs: the copies behave as the originals.
 * @param body - the program's statements.
 * @param locals - the names localize.ts keeps as true locals.
 * @param helper - a name no identifier of the program starts with (localize.ts freshName).
 * @param keeps - the expression of a function telling whether a thrown value leaves the values usable.
 * @param before - only statements before this index are moved.
 * @example
 * // `for (let i = 0; i < xs.length; i++) s += xs[i];` becomes, on the same line,
 * // {const H0=[s];try{((xs,s)=>{try{ LOOP }catch(e){...throw e}H0[0]=s;})(xs,H0[0])}catch(e){...}s=H0[0];}
 */
export function outlineLoops(
  body: readonly AnyNode[],
  locals: ReadonlySet<string>,
  helper: string,
  keeps: string,
  before: number,
): OutlinePlan {
  const plan: OutlinePlan = { opens: [], closes: [] };
  for (let i = 0; i < before && i < body.length; i++) {
    const s = body[i]!;
    let loop = s;
    while (loop.type === 'LabeledStatement') loop = loop.body as AnyNode;
    if (!LOOP_NODES.has(loop.type)) continue;
    const uses = localsOf(s, locals);
    if (!uses || uses.read.length === 0) continue;
    const k = plan.opens.length;
    const out = `${helper}o${k}`;
    const err = `${helper}x${k}`;
    const params = uses.read;
    const written = uses.written;
    const store = written.map((w, j) => `${out}[${j}]=${w};`).join('');
    const load = written.map((w, j) => `${w}=${out}[${j}];`).join('');
    const args = params.map((p) => (written.includes(p) ? `${out}[${written.indexOf(p)}]` : p)).join(',');
    let open: string;
    let close: string;
    if (written.length === 0) {
      open = `((${params.join(',')})=>{`;
      close = `})(${args});`;
    } else {
      open = `{const ${out}=[${written.join(',')}];try{((${params.join(',')})=>{try{`;
      close =
        `}catch(${err}){if(${keeps}(${err})){${store}}throw ${err}}${store}})(${args})}` +
        `catch(${err}){if(${keeps}(${err})){${load}}throw ${err}}${load}}`;
    }
    plan.opens.push({ start: s.start, end: s.start, text: `${INSERTED_OPEN}${open}${INSERTED_CLOSE}` });
    plan.closes.push({ start: s.end, end: s.end, text: `${INSERTED_OPEN}${close}${INSERTED_CLOSE}` });
  }
  return plan;
}

/**
 * The locals a loop statement names (in source order of first mention) and those it assigns, or
 * undefined when it cannot move into a function.
 */
function localsOf(statement: AnyNode, locals: ReadonlySet<string>): { read: string[]; written: string[] } | undefined {
  const read = new Set<string>();
  const written = new Set<string>();
  const assigned = new Set<string>();
  // an explicit stack: a deeply nested loop must not overflow the walk
  const stack: AnyNode[] = [statement];
  while (stack.length > 0) {
    const node = stack.pop()!;
    const type = node.type as string;
    // sloppy mode scopes a function declared in a block to the enclosing function too (Annex B)
    if (type === 'FunctionDeclaration') return undefined;
    // a function inside names no local (localize.ts keeps names a function mentions global)
    if (FUNCTION_NODES.has(type)) continue;
    switch (type) {
      case 'VariableDeclaration':
        if (node.kind === 'var') return undefined;
        break;
      case 'Identifier':
        if (node.name === 'arguments') return undefined;
        if (locals.has(node.name)) read.add(node.name);
        continue;
      case 'AssignmentExpression':
        collectPatternNames(node.left, assigned);
        break;
      case 'UpdateExpression':
        collectPatternNames(node.argument, assigned);
        break;
      case 'ForInStatement':
      case 'ForOfStatement':
        if (node.left.type !== 'VariableDeclaration') collectPatternNames(node.left, assigned);
        break;
    }
    const children: AnyNode[] = [];
    for (const key in node) {
      if (key === 'type' || key === 'start' || key === 'end' || key === 'loc' || key === 'label') continue;
      const v = node[key];
      if (v === null || typeof v !== 'object') continue;
      // a property name is not a variable: `r.total`, `{ total: 1 }` (a shorthand's value is one)
      if (key === 'property' && type === 'MemberExpression' && !node.computed) continue;
      if (key === 'key' && type === 'Property' && !node.computed && !node.shorthand) continue;
      if (Array.isArray(v)) {
        for (const c of v) if (c && typeof c.type === 'string') children.push(c);
      } else if (typeof v.type === 'string') {
        children.push(v);
      }
    }
    for (let j = children.length - 1; j >= 0; j--) stack.push(children[j]!);
  }
  for (const n of assigned) if (locals.has(n)) written.add(n);
  return { read: [...read], written: [...written] };
}
