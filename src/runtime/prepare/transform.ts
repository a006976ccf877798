import * as acorn from 'acorn';
import type { FunctionForm } from '../../../schema/functionForm.js';
import { planArrayChains } from './arrayChains.js';
import { functionReads, planLocals } from './localize.js';
import { type AnyNode, collectPatternNames } from './patternNames.js';
import { planRowLoops } from './rowLoops.js';
import { planSortCalls } from './sortCalls.js';

/** How the guest should evaluate a program (see docs/architecture.md, `execute`). */
export interface PreparedCode {
  /** The code to evaluate: the user's code with position-preserving edits. */
  code: string;
  /** True when wrapped in an async IIFE (top-level await or return). */
  async: boolean;
  /** Lines added in front of the user's code (subtract from guest line numbers). */
  lineOffset: number;
  /** True when the run's value is the `result` variable the code assigns at top level. */
  resultName: boolean;
  /** The top-level names this run keeps as true locals (localize.ts), when there are any. */
  locals?: string[];
  /**
   * What the code's functions, arrows and classes may read when a later run calls them, when it has
   * any: the names they mention, or 'all' (localize.ts functionReads). A session keeps them global.
   */
  functionReads?: string[] | 'all';
  /**
   * The code's function form (schema/functionForm.ts), made by the code check (runForm.ts) so that
   * the isolate runs the program without parsing it; absent for async code and code that stays on eval.
   */
  form?: FunctionForm;
}

const PARSE_OPTIONS: acorn.Options = {
  ecmaVersion: 'latest',
  sourceType: 'script',
  allowAwaitOutsideFunction: true,
  allowReturnOutsideFunction: true,
  allowHashBang: true,
};

/**
 * Prepare user code for notebook semantics:
 * - top-level `const`/`let` become `var` (same length, so positions hold) so a session can
 *   re-run a cell that declares the same name, and the binding persists to the next run;
 * - in a synchronous script, those a top-level loop uses run as true locals instead when nothing
 *   else can see them during the run, written back to the globals at its end (localize.ts); names
 *   of `keepGlobal` (what functions of the session's earlier runs may read: `functionReads`, kept by
 *   runtime/holder/sessionHost.ts), or every name for 'all', stay global;
 * - a loop over `t.objects()` or `t.tolist()`, or a chain of array methods on `t.objects()`, reads
 *   its rows one at a time (a reused row when only fields are read) instead of building them all
 *   (rowLoops.ts, rowChains.ts: one argument inserted between markers; no line added); a loop over
 *   `const rows = t.objects()`, when the name runs as a true local and is only read by such loops and
 *   chains, reads the kept values the real array was built from (rowArrays.ts);
 * - a sort with an inline `a - b`-shaped comparator, and `Math.min(...v)` / `Math.max(...v)`, go
 *   through the guest's exact fast paths (sortCalls.ts: text inserted between the same markers);
 * - a chain of `.filter`/`.map` with pure callbacks on `t.array(col)` is evaluated on the column's
 *   typed data (arrayChains.ts: text inserted between the same markers);
 * - code with top-level `await` or `return` is wrapped in an async IIFE on one added line; its
 *   top-level declarations are hoisted to globals and its last expression statement is returned.
 * Assumes the code parses (the policy check runs first). Pass the policy check's program
 * (`inspectCode`) to skip a second parse: one parse serves both.
 */
export function prepareCode(
  source: string,
  parsed?: acorn.Program,
  keepGlobal: ReadonlySet<string> | 'all' = new Set(),
): PreparedCode {
  const program = (parsed ?? acorn.parse(source, PARSE_OPTIONS)) as AnyNode;
  const reads = functionReads(program);
  const withReads = (p: PreparedCode): PreparedCode =>
    reads === 'all' || reads.length ? { ...p, functionReads: reads } : p;
  const body = program.body as AnyNode[];
  // one walk of the top level (functions and class bodies excluded) finds every marker
  const found = scanTopLevel(program);
  const needsAsync = found.asyncMarker;
  const resultName = !found.returns && (found.assignsResult || body.some(declaresResult));
  // chains on t.array(col) (arrayChains.ts): their wrappers sit inside sortCalls' at a shared place
  const chains = planArrayChains(program, source);
  const rowLoops = planRowLoops(program, source, chains.plucks);
  const edits: Edit[] = rowLoops.edits;
  // applied after every other edit: at a shared start, `return (` or a published function goes first
  const sortEdits = [...chains.closes, ...planSortCalls(program, source), ...chains.opens];
  if (!needsAsync) {
    // top-level names a loop uses run as block-scoped locals, written back at the end (localize.ts)
    const plan =
      keepGlobal === 'all'
        ? undefined
        : planLocals(
            program,
            source,
            resultName,
            [
              ...rowLoops.arrays.map((a) => a.name),
              ...chains.bound.flatMap((b) => [b.name, ...(b.needs ?? [])]),
              // a keyed loop's target whose totals may be deferred (keyedTop.ts)
              ...rowLoops.keyed.flatMap((k) => (k.release === undefined ? [] : [k.release])),
            ],
            keepGlobal,
          );
    if (plan) {
      // a row array bound to a name is read through its kept values only when nothing else can reach it
      for (const a of rowLoops.arrays)
        if (plan.locals.includes(a.name) && (a.needs ?? []).every((n) => plan.locals.includes(n)))
          edits.push(...a.edits);
      // a chain's array bound to a name has its sums read from the chain only when no other code can write into it
      for (const b of chains.bound)
        if (plan.locals.includes(b.name) && (b.needs ?? []).every((n) => plan.locals.includes(n)))
          edits.push(...b.edits);
      // a keyed loop is answered from the columns only when its object or Map and arrays are true locals
      const answered: Edit[] = [];
      for (const k of rowLoops.keyed) {
        const local = k.names.every((n) => plan.locals.includes(n));
        edits.push(...(local ? k.edits : k.otherwise));
        if (local) answered.push(...k.edits);
      }
      // a loop the columns answer runs no body: it stays in place (its function would only cost the call)
      const kept = plan.opens.map(
        (o, i) => !answered.some((e) => e.start >= o.start && e.start <= plan.closes[i]!.start),
      );
      const opens = plan.opens.filter((_, i) => kept[i]);
      const closes = plan.closes.filter((_, i) => kept[i]);
      return withReads({
        code: `${plan.prefix}\n${applyEdits(source, [...opens, ...edits, ...plan.edits, ...sortEdits, ...closes])}\n${plan.suffix}`,
        async: false,
        lineOffset: 1,
        resultName,
        locals: plan.locals,
      });
    }
    for (const k of rowLoops.keyed) edits.push(...k.otherwise);
    for (const s of body) if (s.type === 'VariableDeclaration' && s.kind !== 'var') edits.push(keywordToVar(s));
    return withReads({ code: applyEdits(source, [...edits, ...sortEdits]), async: false, lineOffset: 0, resultName });
  }
  for (const k of rowLoops.keyed) edits.push(...k.otherwise);
  const hoisted = new Set<string>();
  for (const s of body) hoistDeclaration(s, edits, hoisted);
  const last = body[body.length - 1];
  if (last && last.type === 'ExpressionStatement') {
    // wrap the whole statement, not acorn's expression range: for `({a: 1})` that range excludes
    // the parentheses, and `return (` before them made `(return ({a: 1}))`
    const end = source[last.end - 1] === ';' ? last.end - 1 : last.end;
    edits.push({ start: last.start, end: last.start, text: 'return (' });
    edits.push({ start: end, end, text: '\n)' });
  }
  const names = [...hoisted];
  const prefix = (names.length ? `var ${names.join(', ')}; ` : '') + '(async () => {';
  const code = `${prefix}\n${applyEdits(source, [...edits, ...sortEdits])}\n})()`;
  return withReads({ code, async: true, lineOffset: 1, resultName });
}

interface Edit {
  start: number;
  end: number;
  text: string;
}

function keywordToVar(decl: AnyNode): Edit {
  // `const` -> `var  `, `let` -> `var`: equal length keeps every line/column of the user's code.
  const len = decl.kind.length;
  return { start: decl.start, end: decl.start + len, text: 'var'.padEnd(len, ' ') };
}

function hoistDeclaration(s: AnyNode, edits: Edit[], hoisted: Set<string>): void {
  if (s.type === 'VariableDeclaration') {
    for (const d of s.declarations) collectPatternNames(d.id, hoisted);
    const len = s.kind.length;
    const needsParens = s.declarations.some((d: AnyNode) => d.id.type !== 'Identifier');
    // `const {a} = o;` -> `      ({a} = o);`, `let x = 1, y;` -> `    x = 1, y = void 0;`
    edits.push({ start: s.start, end: s.start + len, text: needsParens ? ' '.repeat(len - 1) + '(' : ' '.repeat(len) });
    for (const d of s.declarations) if (!d.init) edits.push({ start: d.id.end, end: d.id.end, text: ' = void 0' });
    if (needsParens) {
      const lastDecl = s.declarations[s.declarations.length - 1];
      edits.push({ start: lastDecl.end, end: lastDecl.end, text: ')' });
    }
  } else if (s.type === 'FunctionDeclaration' && s.id) {
    hoisted.add(s.id.name);
    // function declarations hoist inside the IIFE; publish them before any user statement runs.
    edits.push({ start: 0, end: 0, text: `globalThis[${JSON.stringify(s.id.name)}] = ${s.id.name}; ` });
  } else if (s.type === 'ClassDeclaration' && s.id) {
    hoisted.add(s.id.name);
    edits.push({ start: s.start, end: s.start, text: `${s.id.name} = ` });
  }
}

interface TopLevelMarkers {
  /** `await`, `for await` or `return` outside any function: the code needs the async wrapper. */
  asyncMarker: boolean;
  returns: boolean;
  /** `result = ...` outside any function. */
  assignsResult: boolean;
}

/** Walk `program` once, skipping nested functions (class bodies count as functions). */
function scanTopLevel(program: AnyNode): TopLevelMarkers {
  const found: TopLevelMarkers = { asyncMarker: false, returns: false, assignsResult: false };
  // an explicit stack: a deeply nested program must not overflow the walk
  const stack: AnyNode[] = [program];
  while (stack.length > 0) {
    const node = stack.pop()!;
    const type = node.type as string;
    if (type === 'ReturnStatement') found.returns = found.asyncMarker = true;
    else if (type === 'AwaitExpression' || (type === 'ForOfStatement' && node.await === true)) found.asyncMarker = true;
    else if (type === 'AssignmentExpression' && node.left.type === 'Identifier' && node.left.name === 'result')
      found.assignsResult = true;
    if (found.returns && found.asyncMarker && found.assignsResult) break;
    if (
      type === 'FunctionDeclaration' ||
      type === 'FunctionExpression' ||
      type === 'ArrowFunctionExpression' ||
      type === 'ClassBody'
    )
      continue;
    for (const key in node) {
      if (key === 'type' || key === 'start' || key === 'end' || key === 'loc') continue;
      const v = node[key];
      if (v === null || typeof v !== 'object') continue;
      if (Array.isArray(v)) {
        for (let i = v.length - 1; i >= 0; i--) if (v[i] && typeof v[i].type === 'string') stack.push(v[i]);
      } else if (typeof v.type === 'string') {
        stack.push(v);
      }
    }
  }
  return found;
}

function declaresResult(s: AnyNode): boolean {
  if (s.type !== 'VariableDeclaration') return false;
  const names = new Set<string>();
  for (const d of s.declarations) collectPatternNames(d.id, names);
  return names.has('result');
}

function applyEdits(source: string, edits: Edit[]): string {
  // at one position, insertions go before replacements; otherwise keep the order they were made in
  const sorted = edits
    .map((e, i) => ({ ...e, i }))
    .sort((a, b) => a.start - b.start || a.end - a.start - (b.end - b.start) || a.i - b.i);
  let out = '';
  let pos = 0;
  for (const e of sorted) {
    out += source.slice(pos, e.start) + e.text;
    pos = Math.max(pos, e.end);
  }
  return out + source.slice(pos);
}
