import { INSERTED_CLOSE, INSERTED_OPEN, ROW_LOOP_GLOBAL } from '../../../schema/rowLoop.js';
import {
  VALUED,
  arrayCall,
  arrayReads,
  condition,
  declaredBefore,
  declaredName,
  getReads,
  indexGuard,
  indexLoopStop,
  isContinue,
  type Reads,
  rowIndexLoop,
  rowReads,
  statements,
  termOf,
  valueReads,
} from './keyedLoops.js';
import type { LocalEdit } from './localize.js';
import { type AnyNode, collectPatternNames } from './patternNames.js';
import { isBareObjectsCall } from './rowChains.js';
import { keyedTableEdits } from './tableLoops.js';

type Spec = unknown[];

/** Comparisons a `if (v < lo) lo = v` may use, and each one with its sides swapped. */
const FLIP: Record<string, string> = { '<': '>', '<=': '>=', '>': '<', '>=': '<=' };

/**
 * A scalar accumulation loop the guest may answer from the columns (prelude/data/scalarLoop.ts): its
 * edits, to apply only when every name of `names` (the locals it updates) runs as a true local of the
 * run (localize.ts). `at` numbers the loop's temporary name.
 *
 * The loop is a statement of the program's top level with a statement after it that always has a
 * value (its own completion value is then never seen), `for (const|let r of X) BODY` over
 * `<expr>.objects()` or a name or call (a table, a bound row array: the guest decides), the row also
 * destructured `{ a, 'b c': x }`, or `for (const [a, , b] of <expr>.tolist())`; BODY (a statement or
 * a block) is pickShape's, or any number of
 * `if (C) continue;` and `const v = FIELD` (a value the body reads under a name), then updates, each
 * alone or under `if (C)` (one update or a block of them): `s += TERM`, `s = s + TERM`, `s++`, `++s`,
 * `s = Math.max(s, TERM)` (or min, either order), or `if (v < s) s = v` (any of `<`, `<=`, `>`, `>=`,
 * either side) where v is one value; TERM a number, a value, or `value || number` / `value ?? number`,
 * C as keyedLoops.ts's conditions. Every `s` is declared by a top-level `let` or `var` before the loop.
 * The loop's locals are handed to the guest as the loop starts (after its iterable is evaluated), and
 * written back from what it answers right after the loop; nothing else names a variable in the loop.
 * @example
 * scalarLoop(parse("let s = 0;\nfor (const r of t.objects()) s += r.A || 0;\ns").body[1], ...)
 * // { names: ['s'], edits: [a block around the loop, an inserted open(["A"], ["keyed"], [spec, [s]])] }
 */
export function scalarLoop(
  loop: AnyNode,
  program: AnyNode,
  source: string,
  at: number,
  arrayNames: ReadonlySet<string> = new Set(),
): { names: string[]; edits: LocalEdit[]; dated?: true } | undefined {
  const body = program.body as AnyNode[];
  const place = body.indexOf(loop);
  if (place < 0 || !body.slice(place + 1).some((s) => VALUED.has(s.type))) return undefined;
  // an index loop over arrays, a for-of over `t.array(col)` or over a name bound to one (the array style)
  const overArrays = arrayLoop(loop, body, place, at, arrayNames);
  if (overArrays !== null) return overArrays;
  // a loop over objects() or over a name or call (a table, or a bound row array: the guest decides)
  if (loop.type !== 'ForOfStatement' || loop.await) return undefined;
  const right = loop.right as AnyNode;
  // `for (const [a, b] of X.tolist())`: the values by their column's place (the guest names them)
  const list = isBareObjectsCall(right, ['tolist', 'to_list']);
  const bound = list ? listNames(loop.left) : boundNames(loop.left);
  const table =
    right.type === 'Identifier' || (right.type === 'CallExpression' && !right.optional && !arrayCall(right));
  if (!bound || (!list && !isBareObjectsCall(right) && !table)) return undefined;
  const reads = bound.reads;
  const row = declaredName(loop.left, ['const', 'let']);
  const pushed = pushShape(loop.body, reads, bound.names);
  const shape =
    pushed ??
    (row !== undefined && !list ? pickShape(loop.body, reads, row) : undefined) ??
    (list ? undefined : latestShape(loop.body, reads, bound.names)) ??
    scalarShape(loop.body, reads, bound.names);
  if (!shape) return undefined;
  const { targets, spec } = shape;
  // a push loop's array (an add loop's Set) is never assigned: a `const NAME = []` (`new Set()`) of the
  // top level before the loop
  if (
    pushed
      ? !emptyBefore(targets[0]!, body, place, program, pushed.spec[0] === 'add')
      : !targets.every((t) => assignableBefore(t, body, place))
  )
    return undefined;
  const payload = `[${JSON.stringify(spec)}, [${targets.join(', ')}]]`;
  const wrap = wrapEdits(loop, targets, at, pushed !== undefined);
  if (!list && !isBareObjectsCall(right)) {
    const edits = keyedTableEdits(loop, source, `${JSON.stringify(reads.fields)}, ["keyed"], ${payload}`);
    return edits && { names: targets, edits: [...wrap, ...edits] };
  }
  const open = `${ROW_LOOP_GLOBAL}.open(${JSON.stringify(reads.fields)}, ["keyed"], ${payload})`;
  return { names: targets, edits: [...wrap, ins(right.end - 1, open)] };
}

/** An inserted text between the markers. */
const ins = (pos: number, text: string): LocalEdit => ({
  start: pos,
  end: pos,
  text: `${INSERTED_OPEN}${text}${INSERTED_CLOSE}`,
});

/** The block around a scalar loop whose end writes the locals back from what the guest answered (`took`). */
function wrapEdits(loop: AnyNode, targets: string[], at: number, pushed = false): LocalEdit[] {
  const temp = `$sbtRowK${at}`;
  let writes = '';
  // a push loop pushed into its array: no local to write back (`took(0)`)
  if (!pushed) targets.forEach((t, k) => (writes += `${t}=${temp}[${k}];`));
  const count = pushed ? 0 : targets.length;
  return [
    ins(loop.start, `{let ${temp};`),
    // `;` first: a body without one (`s += v` and a line break) would run on into the `if`
    ins(loop.end, `;if((${temp}=${ROW_LOOP_GLOBAL}.took(${count}))!==null){${writes}}}`),
  ];
}

/**
 * The array style's scalar loops (session 19): `for (let i = 0; i < xs.length; i++)` reading `ys[i]` of
 * arrays named by top-level `const|let` declarations before the loop, `for (const|let v of
 * <expr>.array('col'))`, or `for (const|let v of NAME)` over a NAME of `arrayNames` (a top-level
 * `const|let NAME = <expr>.array('col')`), whose body is scalarShape's over the values. The index loop
 * and the loop over a name go to the guest in front of the loop, `if (!__sbirtools_rowLoop.keyed(spec,
 * [locals], [xs, ys], iter))` (iter 1 for the for-of: the guest then also checks the array iterator the
 * loop would run), the names then true locals too; the loop over the call through array()'s token, as a
 * keyed loop's. Null when the loop is none of these (the row forms may take it); undefined when it is
 * one but not of a scalar shape.
 */
function arrayLoop(
  loop: AnyNode,
  body: AnyNode[],
  place: number,
  at: number,
  arrayNames: ReadonlySet<string>,
): { names: string[]; edits: LocalEdit[]; dated?: true } | undefined | null {
  let reads: Reads;
  let taken: string[];
  let arrays: string[] | undefined;
  let iter = 0;
  let stop: { name: string; op: string; value: number } | undefined;
  if (loop.type === 'ForStatement') {
    const i = indexLoopStop(loop);
    if (!i) return getLoop(loop, body, place, at);
    reads = arrayReads(i.index, i.bound);
    taken = [i.index];
    stop = i.stop;
  } else if (loop.type === 'ForOfStatement' && !loop.await) {
    const right = loop.right as AnyNode;
    const named = right.type === 'Identifier' && arrayNames.has(right.name);
    if (!arrayCall(right) && !named) return null;
    const id = declaredName(loop.left, ['const', 'let']);
    if (!id) return undefined;
    reads = valueReads(id);
    taken = [id];
    if (named) {
      arrays = [right.name as string];
      iter = 1;
    }
  } else return null;
  const shape =
    (loop.type === 'ForStatement' && !stop ? pickAtShape(loop.body, reads, taken[0]!) : undefined) ??
    (loop.type === 'ForOfStatement' && !arrays ? latestShape(loop.body, reads, taken) : undefined) ??
    scalarShape(loop.body, reads, taken);
  if (!shape) return undefined;
  const { targets } = shape;
  let spec = shape.spec;
  if (stop) {
    // the loop stops once a local it updates fails the test (`n < 20`): `[local, op, number]`
    const k = targets.indexOf(stop.name);
    if (k < 0) return undefined;
    spec = [...spec, [k, stop.op, stop.value]];
  }
  if (!targets.every((t) => assignableBefore(t, body, place))) return undefined;
  if (loop.type === 'ForOfStatement' && !arrays) {
    // after the argument: `t.array('A',)` parses
    const payload = `[${JSON.stringify(spec)}, [${targets.join(', ')}]]`;
    const open = `${ROW_LOOP_GLOBAL}.open(${JSON.stringify(reads.fields)}, ["keyed"], ${payload})`;
    const edits = [...wrapEdits(loop, targets, at), ins(loop.right.arguments[0].end, `, ${open}`)];
    // a latest loop over a date column's array is answered before the date loop's path (rowLoops.ts)
    return spec[0] === 'latest' ? { names: targets, edits, dated: true } : { names: targets, edits };
  }
  // the arrays are read twice (the guest's check, the loop): true locals, declared before the loop (a
  // name in its dead zone throws where the loop as written would not)
  arrays ??= reads.fields;
  if (arrays.some((a) => targets.includes(a) || taken.includes(a) || !declaredBefore(a, body, place))) return undefined;
  const keyed = indexGuard(JSON.stringify(spec), `[${targets.join(', ')}]`, arrays, iter);
  return { names: [...targets, ...arrays], edits: [...wrapEdits(loop, targets, at), ins(loop.start, keyed)] };
}

/**
 * A loop of `T.get('col', i)` reads (session 20): `for (let i = 0; i < N; i++)` with N a top-level
 * `const|let` declared before the loop or `T.numRows()`, an optional stop as indexLoopStop's, every
 * value the body reads `T.get('col', i)` of one name T, the body scalarShape's. The guest
 * (prelude/data/keyedGets.ts) is handed T (a top-level `const|let` declared before the loop, or the
 * name of a global when the program declares no `const|let` T: the guest reads the global's data
 * property), N's value (null for the call) and the columns; N and a local T run as true locals.
 */
function getLoop(
  loop: AnyNode,
  body: AnyNode[],
  place: number,
  at: number,
): { names: string[]; edits: LocalEdit[] } | undefined {
  const head = indexLoopStop(loop, rowIndexLoop);
  if (!head) return undefined;
  const tables = new Set<string>();
  const reads = getReads(head.index, tables);
  const shape = scalarShape(loop.body, reads, [head.index]);
  if (!shape || tables.size !== 1) return undefined;
  const { targets } = shape;
  const [table] = tables as unknown as [string];
  if ((head.table !== undefined && head.table !== table) || table === head.index) return undefined;
  const names = [...targets];
  for (const n of [table, head.bound]) if (n && (targets.includes(n) || n === head.index)) return undefined;
  let tableArg = JSON.stringify(table);
  if (declaredBefore(table, body, place)) {
    tableArg = table;
    names.push(table);
  } else if (declaredAnywhere(table, body)) return undefined;
  if (head.bound) {
    if (head.bound === table || !declaredBefore(head.bound, body, place)) return undefined;
    names.push(head.bound);
  }
  let spec = shape.spec;
  if (head.stop) {
    const k = targets.indexOf(head.stop.name);
    if (k < 0) return undefined;
    spec = [...spec, [k, head.stop.op, head.stop.value]];
  }
  if (!targets.every((t) => assignableBefore(t, body, place))) return undefined;
  const guard = `if (!${ROW_LOOP_GLOBAL}.gets(${JSON.stringify(spec)}, [${targets.join(', ')}], ${tableArg}, ${head.bound || 'null'}, ${JSON.stringify(reads.fields)})) `;
  return { names, edits: [...wrapEdits(loop, targets, at), ins(loop.start, guard)] };
}

/** Whether a top-level `const|let` of `body` declares `name` (such a name may run as a true local). */
function declaredAnywhere(name: string, body: AnyNode[]): boolean {
  return declaredBefore(name, body, body.length);
}

/**
 * An index loop that keeps the index of the row it prefers (session 19): `if (C && (k < 0 || a[i] OP
 * a[k])) k = i;` (after any `if (C) continue;`; `k === -1` or `k == -1` for `k < 0`, either side; any
 * order comparison, either side; C optional) over the loop's index `i`, `a` one array read at `i` and
 * at `k` alike. The guest's spec `['pickAt', cond, field, op, test]` (op with the row's value on the
 * left, test '<0' or '-1'): the guest checks the start passes the test, and answers the index the
 * loop keeps, or the start when no row passes (data/scalarLoop.ts).
 */
function pickAtShape(body: AnyNode, reads: Reads, index: string): { targets: string[]; spec: Spec } | undefined {
  const kept = keptWhen(body, reads, index);
  if (!kept) return undefined;
  const { name: k, none } = kept;
  if (k === index || reads.fields.includes(k)) return undefined;
  const isK = (x: AnyNode) => x.type === 'Identifier' && x.name === k;
  const num = (x: AnyNode, v: number) =>
    (x.type === 'Literal' && x.value === v) ||
    (x.type === 'UnaryExpression' && x.operator === '-' && x.argument.type === 'Literal' && x.argument.value === -v);
  let test: string | undefined;
  if (none.type === 'BinaryExpression') {
    const o = none.operator as string;
    if (isK(none.left) && o === '<' && num(none.right, 0)) test = '<0';
    else if (isK(none.right) && o === '>' && num(none.left, 0)) test = '<0';
    else if (
      (o === '===' || o === '==') &&
      ((isK(none.left) && num(none.right, -1)) || (isK(none.right) && num(none.left, -1)))
    )
      test = '-1';
  }
  if (!test) return undefined;
  /** `a[k]` of the array whose `a[i]` is field f. */
  const atK = (x: AnyNode, f: number) =>
    x.type === 'MemberExpression' &&
    x.computed &&
    !x.optional &&
    x.object.type === 'Identifier' &&
    x.object.name === reads.fields[f] &&
    isK(x.property);
  const got = keptComparison(kept, reads, atK);
  return got && { targets: [k], spec: ['pickAt', ...got, test] };
}

/**
 * A list loop's pattern `[a, , b]` of names (no default, rest or nesting): each name the value at its
 * place in the row, read as the field `#place` (data/rowObjects.ts's tolist names it).
 */
function listNames(left: AnyNode): { reads: Reads; names: string[] } | undefined {
  if (left?.type !== 'VariableDeclaration' || left.kind === 'var' || left.declarations.length !== 1) return undefined;
  const pattern = left.declarations[0].id as AnyNode;
  if (pattern.type !== 'ArrayPattern') return undefined;
  const byName = new Map<string, string>();
  (pattern.elements as (AnyNode | null)[]).forEach((e, k) => {
    if (e === null) return;
    byName.set(e.type === 'Identifier' && !byName.has(e.name) ? e.name : '', `#${k}`);
  });
  if (byName.has('') || !byName.size) return undefined;
  const { reads, fields } = namedReads(byName);
  // every place the pattern reads must be there (a row shorter than the pattern gives undefined)
  for (const name of byName.values()) if (!fields.includes(name)) fields.push(name);
  return { reads, names: [...byName.keys()] };
}

/**
 * What the loop declares: one row `r` (its fields read as `r.name`, `r['name']`), or a pattern
 * `{ a, 'b c': x }` of plain keys bound to names (each name its field's value), with the names the
 * body may not update.
 */
function boundNames(left: AnyNode): { reads: Reads; names: string[] } | undefined {
  const id = declaredName(left, ['const', 'let']);
  if (id) return { reads: rowReads(id), names: [id] };
  if (left?.type !== 'VariableDeclaration' || left.kind === 'var' || left.declarations.length !== 1) return undefined;
  const pattern = left.declarations[0].id as AnyNode;
  if (pattern.type !== 'ObjectPattern') return undefined;
  const byName = new Map<string, string>();
  for (const p of pattern.properties as AnyNode[]) {
    if (p.type !== 'Property' || p.computed || p.value.type !== 'Identifier') return undefined;
    const key = p.key.type === 'Identifier' ? p.key.name : typeof p.key.value === 'string' ? p.key.value : undefined;
    // a field named __proto__ would read the row's prototype
    if (typeof key !== 'string' || key === '__proto__' || byName.has(p.value.name)) return undefined;
    byName.set(p.value.name, key);
  }
  const { reads, fields } = namedReads(byName);
  // every field of the pattern is read as the loop starts (a missing one throws no error: undefined)
  for (const name of byName.values()) if (!fields.includes(name)) fields.push(name);
  return byName.size ? { reads, names: [...byName.keys()] } : undefined;
}

/** Whether a top-level `let` or `var` among the first `at` statements of `body` declares `name` (a `const` would throw at the write). */
function assignableBefore(name: string, body: AnyNode[], at: number): boolean {
  for (let k = 0; k < at; k++) {
    const s = body[k];
    if (s.type !== 'VariableDeclaration' || s.kind === 'const') continue;
    if (s.declarations.some((d: AnyNode) => d.id.type === 'Identifier' && d.id.name === name)) return true;
  }
  return false;
}

/**
 * Whether a top-level `const name = []` (`new Set()` with `set`) among the first `at` statements of
 * `body` declares `name`, or such a `let name` that nothing in `program` assigns again: an array the
 * code made, never a Proxy (a Set: the guest checks its prototype and `add`).
 */
function emptyBefore(name: string, body: AnyNode[], at: number, program: AnyNode, set: boolean): boolean {
  for (let k = 0; k < at; k++) {
    const s = body[k];
    if (s.type !== 'VariableDeclaration' || s.kind === 'var') continue;
    for (const d of s.declarations as AnyNode[])
      if (d.id.type === 'Identifier' && d.id.name === name)
        return (
          (set
            ? d.init?.type === 'NewExpression' &&
              d.init.callee.type === 'Identifier' &&
              d.init.callee.name === 'Set' &&
              d.init.arguments.length === 0
            : d.init?.type === 'ArrayExpression' && d.init.elements.length === 0) &&
          (s.kind === 'const' || assignedOnce(program, name))
        );
  }
  return false;
}

/** Whether `name` is bound or assigned exactly once in `program` (its declaration), anywhere, functions included. */
function assignedOnce(program: AnyNode, name: string): boolean {
  let count = 0;
  const stack: AnyNode[] = [program];
  while (stack.length > 0) {
    const node = stack.pop()!;
    const targets: AnyNode[] = [];
    if (node.type === 'VariableDeclarator') targets.push(node.id);
    else if (node.type === 'AssignmentExpression') targets.push(node.left);
    else if (node.type === 'UpdateExpression') targets.push(node.argument);
    else if (
      (node.type === 'ForOfStatement' || node.type === 'ForInStatement') &&
      node.left.type !== 'VariableDeclaration'
    )
      targets.push(node.left);
    else if (FUNCTIONS.has(node.type)) targets.push(...(node.params as AnyNode[]), ...(node.id ? [node.id] : []));
    else if (node.type === 'CatchClause' && node.param) targets.push(node.param);
    else if (node.type === 'ClassDeclaration' && node.id) targets.push(node.id);
    for (const t of targets) {
      const names: string[] = [];
      collectPatternNames(t, names);
      for (const n of names) if (n === name) count++;
    }
    for (const key in node) {
      if (key === 'type' || key === 'start' || key === 'end' || key === 'loc') continue;
      const v = node[key];
      if (v === null || typeof v !== 'object') continue;
      for (const c of (Array.isArray(v) ? v : [v]) as (AnyNode | null)[])
        if (c && typeof c.type === 'string') stack.push(c);
    }
  }
  return count === 1;
}

const FUNCTIONS = new Set(['FunctionDeclaration', 'FunctionExpression', 'ArrowFunctionExpression']);

/**
 * `xs.push(FIELD)` under any number of `if (C) continue;` and at most one `if (C)` (session 19): the
 * values of the rows that pass, pushed in order, as the guest's spec `['push', cond, field]` with the
 * array as the one local (nothing written back: the guest pushes into it); `seen.add(FIELD)` the same
 * as `['add', cond, field]` (session 20, a Set: prelude/data/setAddLoop.ts).
 */
function pushShape(body: AnyNode, reads: Reads, taken: string[]): { targets: string[]; spec: Spec } | undefined {
  const list = statements(body) as AnyNode[];
  const conds = continueConds(list, reads);
  if (!conds) return undefined;
  let last = list[list.length - 1];
  if (last?.type === 'IfStatement' && !last.alternate) {
    const c = condition(last.test, reads);
    const inner = statements(last.consequent) as AnyNode[];
    if (!c || inner.length !== 1) return undefined;
    conds.push(c);
    last = inner[0];
  }
  if (last?.type !== 'ExpressionStatement') return undefined;
  const call = last.expression as AnyNode;
  if (call.type !== 'CallExpression' || call.optional || call.arguments.length !== 1) return undefined;
  const callee = call.callee as AnyNode;
  if (callee.type !== 'MemberExpression' || callee.computed || callee.optional) return undefined;
  const method = callee.property.name as string;
  if ((method !== 'push' && method !== 'add') || callee.object.type !== 'Identifier') return undefined;
  const xs = callee.object.name as string;
  if (taken.includes(xs) || reads.fields.includes(xs)) return undefined;
  const f = reads.field(call.arguments[0] as AnyNode);
  if (f === undefined) return undefined;
  let cond: Spec | null = null;
  for (const c of conds) cond = cond === null ? c : ['L', '&&', cond, c];
  return { targets: [xs], spec: [method, cond, f] };
}

/** Every statement of `list` but the last as `if (C) continue;`: their conditions negated, else undefined. */
function continueConds(list: AnyNode[], reads: Reads): Spec[] | undefined {
  const conds: Spec[] = [];
  for (const s of list.slice(0, -1)) {
    const c =
      s.type === 'IfStatement' && !s.alternate && isContinue(s.consequent) ? condition(s.test, reads) : undefined;
    if (!c) return undefined;
    conds.push(['!', c]);
  }
  return conds;
}

/**
 * The body both picks share: any `if (C) continue;`s, then `if ([C &&] (NONE || CMP)) NAME = from;`
 * alone. The conditions (each continue's negated, then C), NAME, NONE and CMP; undefined when the
 * body is not of that shape.
 */
function keptWhen(
  body: AnyNode,
  reads: Reads,
  from: string,
): { conds: Spec[]; name: string; none: AnyNode; cmp: AnyNode } | undefined {
  const list = statements(body) as AnyNode[];
  const conds = continueConds(list, reads);
  if (!conds) return undefined;
  const last = list[list.length - 1];
  if (!last || last.type !== 'IfStatement' || last.alternate) return undefined;
  const inner = statements(last.consequent) as AnyNode[];
  const set =
    inner.length === 1 && inner[0]!.type === 'ExpressionStatement' ? (inner[0]!.expression as AnyNode) : undefined;
  if (!set || set.type !== 'AssignmentExpression' || set.operator !== '=' || set.left.type !== 'Identifier')
    return undefined;
  if (set.right.type !== 'Identifier' || set.right.name !== from) return undefined;
  let t = last.test as AnyNode;
  if (t.type === 'LogicalExpression' && t.operator === '&&') {
    const c = condition(t.left, reads);
    if (!c) return undefined;
    conds.push(c);
    t = t.right;
  }
  if (t.type !== 'LogicalExpression' || t.operator !== '||') return undefined;
  return { conds, name: set.left.name as string, none: t.left as AnyNode, cmp: t.right as AnyNode };
}

/**
 * A pick's CMP, `F OP other` or `other OP F` (an order comparison, F a field the loop reads at its
 * row), with `other` the kept row's read of F (`keptRead`), and the conditions joined with `&&`:
 * `[cond, field, op]`, op with the row's value on the left; undefined otherwise.
 */
function keptComparison(
  kept: { conds: Spec[]; cmp: AnyNode },
  reads: Reads,
  keptRead: (other: AnyNode, f: number) => boolean,
): [Spec | null, number, string] | undefined {
  const cmp = kept.cmp;
  if (cmp.type !== 'BinaryExpression' || FLIP[cmp.operator as string] === undefined) return undefined;
  let f = reads.field(cmp.left);
  let op = cmp.operator as string;
  let other = cmp.right as AnyNode;
  if (f === undefined) {
    f = reads.field(cmp.right);
    op = FLIP[op]!;
    other = cmp.left;
  }
  if (f === undefined || !keptRead(other, f)) return undefined;
  let cond: Spec | null = null;
  for (const c of kept.conds) cond = cond === null ? c : ['L', '&&', cond, c];
  return [cond, f, op];
}

/**
 * `if (C && (best === null || r.F > best.F)) best = r;` (after any `if (C) continue;`; `best == null`
 * or `!best` for the test of null, any order comparison, either side, C optional): the loop keeps the
 * last row that passes, as the guest's spec `['pick', cond, field, op]` (op with the row's value on
 * the left) with `best`, which must be null as the loop starts (the guest checks), as the one local.
 */
function pickShape(body: AnyNode, reads: Reads, row: string): { targets: string[]; spec: Spec } | undefined {
  const kept = keptWhen(body, reads, row);
  if (!kept) return undefined;
  const { name: best, none } = kept;
  if (best === row) return undefined;
  const isBest = (x: AnyNode) => x.type === 'Identifier' && x.name === best;
  const isNull = (x: AnyNode) => x.type === 'Literal' && x.value === null && x.raw === 'null';
  const nullTest =
    (none.type === 'UnaryExpression' && none.operator === '!' && isBest(none.argument)) ||
    (none.type === 'BinaryExpression' &&
      (none.operator === '===' || none.operator === '==') &&
      ((isBest(none.left) && isNull(none.right)) || (isNull(none.left) && isBest(none.right))));
  if (!nullTest) return undefined;
  /** `best.F` / `best['F']`: F's name. */
  const bestField = (x: AnyNode): string | undefined => {
    if (x.type !== 'MemberExpression' || x.optional || !isBest(x.object)) return undefined;
    if (!x.computed && x.property.type === 'Identifier') return x.property.name as string;
    return x.computed && x.property.type === 'Literal' && typeof x.property.value === 'string'
      ? x.property.value
      : undefined;
  };
  const got = keptComparison(kept, reads, (other, f) => bestField(other) === reads.fields[f]);
  return got && { targets: [best], spec: ['pick', ...got] };
}

/**
 * A loop that keeps the latest (or earliest) value of one field (session 21): `const d = FIELD;` or
 * none, then `if ([d &&] (NONE || d OP latest)) latest = d;` alone, d the field's value (or FIELD
 * itself), `d != null` / `d !== null` for `d`, NONE `!latest`, `latest == null` or `latest === null`
 * (either side), OP an order comparison (either side). The guest's spec `['latest', guard, field, op,
 * none]` (op with the row's value on the left) answers it for a date column only, from its numbers,
 * when `latest` starts null (prelude/data/dateExtremeLoop.ts); the loop runs as written otherwise. Over
 * objects(), a table, a destructured row, or the values of `for (const d of <expr>.array('col'))`
 * (`dated`: answered before the date loop's path, which then is the loop's as written).
 */
function latestShape(body: AnyNode, reads: Reads, taken: string[]): { targets: string[]; spec: Spec } | undefined {
  const list = statements(body) as AnyNode[];
  let named: string | undefined;
  let f: number | undefined;
  if (list.length === 2) {
    const decl = list[0]!;
    named = decl.type === 'VariableDeclaration' ? declaredName(decl, ['const', 'let']) : undefined;
    const init = named === undefined ? null : (decl.declarations[0].init as AnyNode | null);
    f = init ? reads.field(init) : undefined;
    if (named === undefined || f === undefined || taken.includes(named) || reads.fields.includes(named))
      return undefined;
  } else if (list.length !== 1) return undefined;
  const last = list[list.length - 1]!;
  if (last.type !== 'IfStatement' || last.alternate) return undefined;
  const inner = statements(last.consequent) as AnyNode[];
  const set =
    inner.length === 1 && inner[0]!.type === 'ExpressionStatement' ? (inner[0]!.expression as AnyNode) : undefined;
  if (!set || set.type !== 'AssignmentExpression' || set.operator !== '=' || set.left.type !== 'Identifier')
    return undefined;
  const latest = set.left.name as string;
  if (latest === named || taken.includes(latest) || reads.fields.includes(latest)) return undefined;
  // no declaration: the field the assignment reads is the one the test reads
  if (named === undefined) f = reads.field(set.right);
  /** The field's value: `d` of the declaration, or a read of the field itself when there is none. */
  const isValue = (x: AnyNode) =>
    named !== undefined ? x.type === 'Identifier' && x.name === named : reads.field(x) === f;
  if (f === undefined || !isValue(set.right)) return undefined;
  const isLatest = (x: AnyNode) => x.type === 'Identifier' && x.name === latest;
  const isNull = (x: AnyNode) => x.type === 'Literal' && x.value === null && x.raw === 'null';
  let t = last.test as AnyNode;
  let guard = 0;
  if (t.type === 'LogicalExpression' && t.operator === '&&') {
    const g = t.left as AnyNode;
    const nonNull =
      g.type === 'BinaryExpression' &&
      (g.operator === '!=' || g.operator === '!==') &&
      ((isValue(g.left) && isNull(g.right)) || (isNull(g.left) && isValue(g.right)));
    if (!isValue(g) && !nonNull) return undefined;
    guard = 1;
    t = t.right;
  }
  if (t.type !== 'LogicalExpression' || t.operator !== '||') return undefined;
  const none = t.left as AnyNode;
  let test: string | undefined;
  if (none.type === 'UnaryExpression' && none.operator === '!' && isLatest(none.argument)) test = '!';
  else if (
    none.type === 'BinaryExpression' &&
    (none.operator === '==' || none.operator === '===') &&
    ((isLatest(none.left) && isNull(none.right)) || (isNull(none.left) && isLatest(none.right)))
  )
    test = none.operator as string;
  const cmp = t.right as AnyNode;
  if (!test || cmp.type !== 'BinaryExpression' || FLIP[cmp.operator as string] === undefined) return undefined;
  let op: string;
  if (isValue(cmp.left) && isLatest(cmp.right)) op = cmp.operator as string;
  else if (isLatest(cmp.left) && isValue(cmp.right)) op = FLIP[cmp.operator as string]!;
  else return undefined;
  return { targets: [latest], spec: ['latest', guard, f, op, test] };
}

/** The body's updates as the guest's spec `['scalar', locals, cond, updates]` and the locals' names, or undefined. */
function scalarShape(body: AnyNode, reads: Reads, taken: string[]): { targets: string[]; spec: Spec } | undefined {
  const plain = new Map<string, number>();
  const r: Reads = {
    fields: reads.fields,
    field: (e) => (e.type === 'Identifier' && plain.has(e.name) ? plain.get(e.name) : reads.field(e)),
  };
  const targets: string[] = [];
  const conds: Spec[] = [];
  const updates: Spec[] = [];
  const local = (e: AnyNode): number | undefined => {
    if (e.type !== 'Identifier' || taken.includes(e.name) || plain.has(e.name) || reads.fields.includes(e.name))
      return undefined;
    const k = targets.indexOf(e.name);
    return k >= 0 ? k : targets.push(e.name) - 1;
  };
  /** One update statement's `[local, op, term]`, or undefined. */
  const update = (s: AnyNode): [number, string, Spec] | undefined => {
    if (s.type !== 'ExpressionStatement') return undefined;
    const e = s.expression as AnyNode;
    if (e.type === 'UpdateExpression' && e.operator === '++') {
      const k = local(e.argument);
      return k === undefined ? undefined : [k, '+', ['n', 1]];
    }
    if (e.type !== 'AssignmentExpression' || e.left.type !== 'Identifier') return undefined;
    const name = e.left.name as string;
    const same = (x: AnyNode) => x.type === 'Identifier' && x.name === name;
    let op: string;
    let term: Spec | undefined;
    if (e.operator === '+=') {
      op = '+';
      term = termOf(e.right, r);
    } else if (e.operator !== '=') return undefined;
    else if (e.right.type === 'BinaryExpression' && e.right.operator === '+' && same(e.right.left)) {
      op = '+';
      term = termOf(e.right.right, r);
    } else {
      // `s = Math.max(s, TERM)` or `Math.max(TERM, s)` (min alike; the guest checks the run's Math)
      const call = e.right as AnyNode;
      if (call.type !== 'CallExpression' || call.optional || call.arguments.length !== 2) return undefined;
      const callee = call.callee as AnyNode;
      if (callee.type !== 'MemberExpression' || callee.computed || callee.optional) return undefined;
      if (callee.object.type !== 'Identifier' || callee.object.name !== 'Math') return undefined;
      if (callee.property.name !== 'max' && callee.property.name !== 'min') return undefined;
      const [a, b] = call.arguments as AnyNode[];
      const other = same(a) ? b : same(b) ? a : undefined;
      if (!other || other.type === 'SpreadElement') return undefined;
      op = callee.property.name as string;
      term = termOf(other, r);
    }
    const k = local(e.left);
    return term && k !== undefined ? [k, op, term] : undefined;
  };
  /**
   * `if (v < s) s = v` (or `s > v`, any order comparison), or `if (C && v < s) s = v`:
   * `[local, op with v on the left, guard or null, v]`.
   */
  const keepIf = (s: AnyNode): [number, string, Spec | null, Spec] | undefined => {
    if (s.type !== 'IfStatement' || s.alternate) return undefined;
    const inner = statements(s.consequent);
    let t = s.test as AnyNode;
    let guard: Spec | null = null;
    if (t.type === 'LogicalExpression' && t.operator === '&&') {
      guard = condition(t.left, r) ?? null;
      if (!guard) return undefined;
      t = t.right;
    }
    if (inner.length !== 1 || inner[0].type !== 'ExpressionStatement' || t.type !== 'BinaryExpression')
      return undefined;
    const op = FLIP[t.operator as string] === undefined ? undefined : (t.operator as string);
    const set = inner[0].expression as AnyNode;
    if (!op || set.type !== 'AssignmentExpression' || set.operator !== '=' || set.left.type !== 'Identifier')
      return undefined;
    const name = set.left.name as string;
    const f = r.field(set.right);
    if (f === undefined) return undefined;
    const isName = (x: AnyNode) => x.type === 'Identifier' && x.name === name;
    let vOp: string;
    if (isName(t.right) && r.field(t.left) === f) vOp = op;
    else if (isName(t.left) && r.field(t.right) === f) vOp = FLIP[op]!;
    else return undefined;
    const k = local(set.left);
    return k === undefined ? undefined : [k, vOp, guard, ['f', f]];
  };
  for (const s of statements(body) as AnyNode[]) {
    if (s.type === 'IfStatement' && !s.alternate && isContinue(s.consequent) && !updates.length) {
      const c = condition(s.test, r);
      if (!c) return undefined;
      conds.push(['!', c]);
    } else if (s.type === 'VariableDeclaration' && !updates.length) {
      const name = declaredName(s, ['const', 'let']);
      const init = s.declarations[0].init as AnyNode | null;
      const f = init ? r.field(init) : undefined;
      if (!name || f === undefined || taken.includes(name) || plain.has(name) || reads.fields.includes(name))
        return undefined;
      plain.set(name, f);
    } else if (s.type === 'ExpressionStatement') {
      const u = update(s);
      if (!u) return undefined;
      updates.push([u[0], u[1], null, u[2]]);
    } else if (s.type === 'IfStatement' && !s.alternate) {
      const kept = keepIf(s);
      if (kept) {
        updates.push(kept);
        continue;
      }
      const c = condition(s.test, r);
      const inner = statements(s.consequent) as AnyNode[];
      if (!c || !inner.length) return undefined;
      for (const x of inner) {
        const u = update(x);
        if (!u) return undefined;
        updates.push([u[0], u[1], c, u[2]]);
      }
    } else return undefined;
  }
  if (!updates.length || targets.some((t) => plain.has(t))) return undefined;
  let cond: Spec | null = null;
  for (const c of conds) cond = cond === null ? c : ['L', '&&', cond, c];
  return { targets, spec: ['scalar', targets.length, cond, updates] };
}

/** The reads of a loop whose names stand for fields (`byName`: name -> field), fields in first-read order. */
function namedReads(byName: ReadonlyMap<string, string>): { reads: Reads; fields: string[] } {
  const fields: string[] = [];
  const reads: Reads = {
    fields,
    field(e) {
      const name = e.type === 'Identifier' ? byName.get(e.name) : undefined;
      if (name === undefined) return undefined;
      const k = fields.indexOf(name);
      return k >= 0 ? k : fields.push(name) - 1;
    },
  };
  return { reads, fields };
}
