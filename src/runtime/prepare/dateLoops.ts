import { DATE_CALLS, DATE_FEATURES } from '../../../schema/dateFeatures.js';
import { INSERTED_CLOSE, INSERTED_OPEN, ROW_LOOP_GLOBAL } from '../../../schema/rowLoop.js';
import type { LocalEdit } from './localize.js';
import type { RowArray } from './rowArrays.js';
import { FUNCTION_NODES, type AnyNode, variableChildren } from './patternNames.js';
import { isPlainRead } from './rowReads.js';
import { fieldOf, loopHead, truthOnly } from './textLoops.js';

/**
 * A number a date value gives: the Date getter that gives it (prelude/fast/dateFeatures.ts
 * `DATE_FEATURES`); `valueOf`, `+d` and a comparison read `getTime`.
 */
type Feature = string;

/** The getters answered from the column's numbers (`valueOf` as `getTime`). */
const FEATURES: ReadonlySet<string> = new Set(DATE_FEATURES);

/**
 * Date methods a row's real Date may be called with (the prelude checks them intact before a loop
 * starts; the call is written on the row's Date in the inserted text, the user's call runs as written
 * otherwise).
 */
const CALLS: ReadonlySet<string> = new Set(DATE_CALLS);

const RELATIONAL = new Set(['<', '>', '<=', '>=', '-']);
const EQUALITY = new Set(['===', '!==', '==', '!=']);

/**
 * What one mention of the value is: 'class' (only whether it is null decides), a feature (the
 * expression from `start` to `end` is the feature's number), 'date' (the expression from `start` to
 * `end` uses the row's real Date), or undefined (any other use: the loop stays as written). `via` is
 * the expression on the row's Date with `%` for it (`%.getUTCFullYear()`, `+%`, `%`).
 */
type Use = { node: AnyNode; kind: 'class' } | Placed;
interface Placed {
  node: AnyNode;
  kind: 'feature' | 'date';
  feature?: Feature;
  start: number;
  end: number;
  via: string;
}

/**
 * The edits that run a loop over a date column on the column's numbers instead of a Date per row
 * (prelude/data/dateLoop.ts), or undefined when the loop does not qualify. The loop is
 * `for (const|let d of X.array('col'))`, or `for (const|let r of X.objects())` whose row is used only
 * as `r.field` read for its value: the date field's value is `r.F` itself or a `const d = r.F`
 * declared at the top of the body. Outside any function, arrow or class, each mention of the value is
 *   - a test of its class: its truth (`if`, `!`, `&&`...), `typeof`, `==`/`===` against `null`,
 *     `undefined` (unbound) or `void 0`;
 *   - a feature: `d.getTime()`, `d.valueOf()`, `+d`, an operand of `<`, `>`, `<=`, `>=`, `-` (its
 *     time), `d.getUTCFullYear()`, `d.getUTCMonth()`, `d.getUTCDate()`, `d.getUTCDay()`;
 *   - or a place where the row's real Date is used and no error message can name the value: the right
 *     of an assignment, an initializer, an argument, an array element, a property value, an operand
 *     of another binary operator (`+`, `===`...), a template's part, or the receiver of a call, with no
 *     arguments, of a Date method of CALLS (`d.toISOString()`).
 * At least one feature must be used. As in textLoops.ts the loop sits in a block declaring its state
 * (`{const $sbtRowD<k>=__sbirtools_rowLoop.date(features); <loop>}`), array() or objects() get the
 * token (`open([col, ...other fields], ['date'], state)`), and each feature becomes
 * `(S.on&&<value>!==null?S.f<k>[S.i]:<as written>)`; each real-Date place `(S.on&&<value>!==null?
 * <the same on S.date()>:<as written>)`, where `S.date()` is the row's one Date (the same object at
 * every place of one iteration, as the array's element would be). With such places a feature reads
 * its number only while `S.k!==S.i` (the row's Date not yet made: after, the code may have changed
 * it, and the feature asks that Date). The text as written is never copied: a null row, or a loop
 * the guest does not take, runs it and gets its errors as they are.
 * @example
 * dateLoopEdits(parse("for (const d of t.array('D')) if (d && d.getUTCFullYear() === 2021) n++").body[0], ...)
 */
export function dateLoopEdits(
  loop: AnyNode,
  stmt: AnyNode,
  source: string,
  k: number,
  up: Map<AnyNode, [AnyNode, string]>,
  undefinedUnbound: () => boolean,
  arrays: ReadonlySet<string> = new Set(),
): LocalEdit[] | undefined {
  const head = loopHead(loop) ?? nameHead(loop, arrays);
  if (!head) return undefined;
  const named = head.right.type === 'Identifier';
  const found = valueUses(loop.body, head.id.name, head.column === undefined && !named, up, undefinedUnbound);
  if (!found || !found.uses.some((u) => u.kind === 'feature')) return undefined;
  // a bound array's Dates are made after the run: a Date the loop kept would not be the array's
  if (named && found.uses.some((u) => u.kind === 'date')) return undefined;
  const S = `$sbtRowD${k}`;
  // the value's text is repeated in each guard: one that spans lines would add a line
  if (found.uses.some((u) => u.kind !== 'class' && /[\n\r\u2028\u2029]/.test(source.slice(u.node.start, u.node.end))))
    return undefined;
  const dates = found.uses.some((u) => u.kind === 'date');
  const features: Feature[] = [];
  const ins = (at: number, text: string): LocalEdit => ({
    start: at,
    end: at,
    text: `${INSERTED_OPEN}${text}${INSERTED_CLOSE}`,
  });
  const edits: LocalEdit[] = [ins(stmt.start, '')];
  const value = (node: AnyNode) => source.slice(node.start, node.end);
  // the expression written on the row's Date itself (never a copy of the user's text: no line added,
  // and an error in the code as written names what it names)
  const onDate = (u: Placed) => u.via.replace('%', `${S}.date()`);
  for (const u of found.uses) {
    if (u.kind === 'class') continue;
    const guard = `${S}.on&&${value(u.node)}!==null`;
    if (u.kind === 'date') edits.push(ins(u.start, `(${guard}?${onDate(u)}:`), ins(u.end, ')'));
    else {
      let f = features.indexOf(u.feature!);
      if (f < 0) f = features.push(u.feature!) - 1;
      // once the row's Date is made the code may have changed it: the feature asks the Date then
      const read = dates ? `(${S}.k!==${S}.i?${S}.f${f}[${S}.i]:${onDate(u)})` : `${S}.f${f}[${S}.i]`;
      edits.push(ins(u.start, `(${guard}?${read}:`), ins(u.end, ')'));
    }
  }
  edits[0] = ins(stmt.start, `{const ${S}=${ROW_LOOP_GLOBAL}.date(${JSON.stringify(features)});`);
  const token = (names: string[]) => `${ROW_LOOP_GLOBAL}.open(${JSON.stringify(names)}, ["date"], ${S})`;
  const right = head.right;
  if (named) edits.push(ins(right.start, `${ROW_LOOP_GLOBAL}.dates(`), ins(right.end, `, ${S})`));
  else if (head.column !== undefined) edits.push(ins(right.arguments[0].end, `, ${token([head.column])}`));
  else edits.push(ins(right.end - 1, token([found.field, ...found.others])));
  edits.push(ins(stmt.end, '}'));
  return edits;
}

/** `for (const|let d of NAME)` with NAME one of `arrays`: its parts as loopHead's (no column: the array's is its declaration's). */
function nameHead(
  loop: AnyNode,
  arrays: ReadonlySet<string>,
): { id: AnyNode; right: AnyNode; column: undefined } | undefined {
  if (loop.type !== 'ForOfStatement' || loop.await || loop.right.type !== 'Identifier') return undefined;
  if (!arrays.has(loop.right.name)) return undefined;
  const left = loop.left;
  if (left.type !== 'VariableDeclaration' || left.kind === 'var' || left.declarations.length !== 1) return undefined;
  const id = left.declarations[0].id;
  return id.type === 'Identifier' ? { id, right: loop.right, column: undefined } : undefined;
}

/**
 * The top-level declarations `const|let NAME = X.array('col')` (one string argument, no `?.`; not
 * `result`; a declarator among several, `const a = t.array('A'), b = t.array('B')`, alike): NAME to
 * its declaration statement (declaratorOf finds its declarator). A loop over NAME may be a date loop
 * (dateLoopEdits, `arrays`), and the array itself deferred when only such loops read it (dateArrays).
 * A mention of NAME in a later declarator of the same statement sits before the statement's end,
 * where every use these take must sit after it.
 */
export function arrayDeclarations(program: AnyNode): Map<string, AnyNode> {
  const out = new Map<string, AnyNode>();
  for (const s of program.body as AnyNode[]) {
    if (s.type !== 'VariableDeclaration' || s.kind === 'var') continue;
    for (const d of s.declarations as AnyNode[]) {
      const call = d.init;
      if (d.id.type !== 'Identifier' || d.id.name === 'result' || !call || call.type !== 'CallExpression') continue;
      if (call.optional || call.arguments.length !== 1) continue;
      const callee = call.callee;
      if (callee.type !== 'MemberExpression' || callee.computed || callee.optional) continue;
      if (callee.property.type !== 'Identifier' || callee.property.name !== 'array') continue;
      const arg = call.arguments[0];
      if (arg.type === 'Literal' && typeof arg.value === 'string') out.set(d.id.name, s);
    }
  }
  return out;
}

/** The declarator of `name` in a declaration statement of arrayDeclarations. */
export function declaratorOf(statement: AnyNode, name: string): AnyNode {
  return (statement.declarations as AnyNode[]).find((d) => d.id.type === 'Identifier' && d.id.name === name)!;
}

/**
 * The date arrays bound to a name whose Dates need not be made in the run (docs/architecture.md,
 * "Loops over a date column"): a declaration of arrayDeclarations whose every other mention of NAME,
 * after the declaration and none inside a function, arrow or class, is the iterable of a loop in
 * `taken` (a date loop over NAME whose edits apply whatever else the plan does: dateLoopEdits, no
 * place where the row's real Date is used). array() then answers an empty array recorded with the
 * column's times (`open([col], ['dates'])`), each loop reads the numbers, and the write-back at the
 * end of the run (localize.ts, `release`) leaves the Dates pending on the global: made at its first
 * read. Applied, as rowArrays.ts's, only when NAME runs as a true local.
 */
export function dateArrays(
  declarations: Map<string, AnyNode>,
  taken: ReadonlySet<AnyNode>,
  up: Map<AnyNode, [AnyNode, string]>,
  mentions: AnyNode[],
): RowArray[] {
  const out: RowArray[] = [];
  for (const [name, decl] of declarations) {
    const d = declaratorOf(decl, name);
    let loops = 0;
    let ok = true;
    for (const m of mentions) {
      if (m === d.id || m.name !== name) continue;
      const [loop, key] = up.get(m) ?? [null, ''];
      ok = m.start >= decl.end && key === 'right' && taken.has(loop!);
      for (let at = up.get(m); ok && at; at = up.get(at[0])) if (FUNCTION_NODES.has(at[0].type)) ok = false;
      if (!ok) break;
      loops++;
    }
    if (!ok || loops === 0) continue;
    const arg = d.init.arguments[0];
    const token = `${ROW_LOOP_GLOBAL}.open(${JSON.stringify([arg.value])}, ["dates"])`;
    out.push({ name, edits: [{ start: arg.end, end: arg.end, text: `${INSERTED_OPEN}, ${token}${INSERTED_CLOSE}` }] });
  }
  return out;
}

/**
 * The uses of the loop's value in `body` (the identifier `name`; with `objects`, the row `name`'s date
 * field, read as `r.F` or through `const d = r.F` at the top of the body), the date field and the
 * other fields read, or undefined when a mention is not in dateLoopEdits' list. For a row the date
 * field is the one whose value has a feature use; every other field is only read.
 */
function valueUses(
  body: AnyNode,
  name: string,
  objects: boolean,
  up: Map<AnyNode, [AnyNode, string]>,
  undefinedUnbound: () => boolean,
): { uses: Use[]; field: string; others: string[] } | undefined {
  // `const d = r.F` at the top of the body: d stands for field F
  const aliases = new Map<string, { field: string; decl: AnyNode }>();
  if (objects && body.type === 'BlockStatement')
    for (const s of body.body as AnyNode[]) {
      if (s.type !== 'VariableDeclaration' || s.kind !== 'const' || s.declarations.length !== 1) continue;
      const d = s.declarations[0];
      if (d.id.type !== 'Identifier' || d.id.name === name || !d.init || d.init.object?.name !== name) continue;
      const f = fieldOf(d.init);
      if (f !== undefined && d.init.object.type === 'Identifier' && !aliases.has(d.id.name))
        aliases.set(d.id.name, { field: f, decl: d });
    }
  const fields = new Map<string, (Use | undefined)[]>();
  const add = (field: string, use: Use | undefined) => {
    const e = fields.get(field);
    if (e) e.push(use);
    else fields.set(field, [use]);
  };
  const stack: [AnyNode, boolean][] = [[body, false]];
  while (stack.length > 0) {
    const [node, inFn] = stack.pop()!;
    const type = node.type as string;
    if (type === 'WithStatement') return undefined;
    if (type === 'Identifier') {
      if (node.name === 'eval') return undefined;
      const alias = aliases.get(node.name);
      if (node.name !== name && !alias) continue;
      const [p, key] = up.get(node) ?? [null, ''];
      if (node.name !== name) {
        // the declaration itself; any other binding of the name (a shadow) keeps the field's loop as written
        if (p !== alias!.decl || key !== 'id')
          add(alias!.field, inFn ? undefined : classify(node, up, undefinedUnbound));
      } else if (inFn) return undefined;
      else if (!objects) add('', classify(node, up, undefinedUnbound));
      else {
        const f = p && key === 'object' ? fieldOf(p) : undefined;
        if (f === undefined || !isPlainRead(p!, up)) return undefined;
        // the initializer of an alias only copies the value: the alias's mentions are its uses
        const [d, dk] = up.get(p!) ?? [null, ''];
        const init = dk === 'init' && aliases.get(d?.id?.name)?.decl === d;
        add(f, init ? { node: p!, kind: 'class' } : classify(p!, up, undefinedUnbound));
      }
      continue;
    }
    const childInFn = inFn || FUNCTION_NODES.has(type);
    for (const c of variableChildren(node)) stack.push([c, childInFn]);
  }
  // the date field: the one with the most feature uses, each of its uses in the list
  let field: string | undefined;
  let most = 0;
  for (const [f, uses] of fields) {
    if (uses.some((u) => u === undefined)) continue;
    const count = uses.filter((u) => u!.kind === 'feature').length;
    if (count > most) [field, most] = [f, count];
  }
  if (field === undefined) return undefined;
  const others = [...fields.keys()].filter((f) => f !== field);
  return { uses: fields.get(field) as Use[], field, others };
}

const isNullish = (e: AnyNode, undefinedUnbound: () => boolean): boolean =>
  (e.type === 'Literal' && e.value === null && !e.regex) ||
  (e.type === 'Identifier' && e.name === 'undefined' && undefinedUnbound()) ||
  (e.type === 'UnaryExpression' && e.operator === 'void' && e.argument.type === 'Literal');

/** Parents under which the row's real Date may stand in for the value: its value is only passed on. */
const PASSED: Record<string, string[]> = {
  AssignmentExpression: ['right'],
  VariableDeclarator: ['init'],
  CallExpression: ['arguments'],
  NewExpression: ['arguments'],
  ArrayExpression: ['elements'],
  BinaryExpression: ['left', 'right'],
  TemplateLiteral: ['expressions'],
};

/** What the mention `v` of the value is (see dateLoopEdits), or undefined for any other use. */
function classify(v: AnyNode, up: Map<AnyNode, [AnyNode, string]>, undefinedUnbound: () => boolean): Use | undefined {
  const [p, key] = up.get(v) ?? [null, ''];
  if (!p) return undefined;
  if (p.type === 'MemberExpression' && key === 'object') {
    if (p.optional) return undefined;
    const [call, ck] = up.get(p) ?? [null, ''];
    const called = call && (call.type === 'CallExpression' || call.type === 'NewExpression') && ck === 'callee';
    // a property read or a call the list lacks: an error further along the chain would name the value
    if (!called || p.computed || p.property.type !== 'Identifier' || call.type !== 'CallExpression' || call.optional)
      return undefined;
    if (call.arguments.length !== 0) return undefined;
    const method = p.property.name as string;
    const feature = method === 'valueOf' ? 'getTime' : FEATURES.has(method) ? method : undefined;
    const via = `%.${method}()`;
    if (feature) return { node: v, kind: 'feature', feature, start: call.start, end: call.end, via };
    return CALLS.has(method) ? { node: v, kind: 'date', start: call.start, end: call.end, via } : undefined;
  }
  if (p.type === 'UnaryExpression') {
    if (p.operator === '+')
      return { node: v, kind: 'feature', feature: 'getTime', start: p.start, end: p.end, via: '+%' };
    return p.operator === '!' || p.operator === 'typeof' ? { node: v, kind: 'class' } : undefined;
  }
  if (p.type === 'BinaryExpression' && RELATIONAL.has(p.operator))
    return { node: v, kind: 'feature', feature: 'getTime', start: v.start, end: v.end, via: '%' };
  if (p.type === 'BinaryExpression' && EQUALITY.has(p.operator)) {
    const other = (key === 'left' ? p.right : p.left) as AnyNode;
    if (isNullish(other, undefinedUnbound)) return { node: v, kind: 'class' };
  }
  if (truthOnly(v, up)) return { node: v, kind: 'class' };
  const passed: Use = { node: v, kind: 'date', start: v.start, end: v.end, via: '%' };
  if (p.type === 'Property' && key === 'value' && !p.shorthand && up.get(p)?.[0].type === 'ObjectExpression')
    return passed;
  if (p.type === 'BinaryExpression' && (p.operator === 'in' || p.operator === 'instanceof')) return undefined;
  return PASSED[p.type]?.includes(key) ? passed : undefined;
}
