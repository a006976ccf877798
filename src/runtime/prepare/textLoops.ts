import { INSERTED_CLOSE, INSERTED_OPEN, ROW_LOOP_GLOBAL } from '../../../schema/rowLoop.js';
import type { LocalEdit } from './localize.js';
import { FUNCTION_NODES, type AnyNode, variableChildren } from './patternNames.js';
import { isBareObjectsCall } from './rowChains.js';
import { isPlainRead } from './rowReads.js';

/** One feature of the value the guest answers per row (prelude/fast/textFeatures.ts `Feature`). */
type Feature = ['u'] | ['c', string, 'none' | 'lower'] | ['e', string];

/** A use of the value rewritten to read a feature: the expression's range, the feature, and the test. */
interface FeatureUse {
  start: number;
  end: number;
  /** The value's own text (`a`, `r.Abstract`): read again only in the guard. */
  value: string;
  feature: Feature;
  /** How the feature's answer at the row gives the expression: '' (the length), '===1' or '!==1'. */
  test: '' | '===1' | '!==1';
}

const TESTS = new Set(['IfStatement', 'WhileStatement', 'DoWhileStatement', 'ForStatement']);
const EQUALITY = new Set(['===', '!==', '==', '!=']);

/**
 * The edits that run `for (const|let a of X.array('col'))` or `for (const|let r of X.objects())` over the host's answers per row instead of the column's
 * strings (prelude/data/textLoop.ts), or undefined when the loop does not qualify. The body must use
 * the value (`a`, or one field `r.col` of a row `r` used only as `r.field` read for its value: the
 * other fields come with the row) nowhere inside a function, arrow
 * or class, and only
 *   - where its class alone decides: its truth (an `if`/loop/`?:` test, `!`, `&&`/`||`/`??` and `?:`
 *     branches there), `typeof`, `===`/`!==`/`==`/`!=` against `null`, `undefined` (unbound) or `''`;
 *   - through a feature: `.length`, `.includes(lit)`, `.toLowerCase().includes(lit)` (lit lower case),
 *     `.indexOf(lit)` compared as `>= 0`, `> -1`, `!== -1`, `!= -1`, `=== -1`, `== -1`, `< 0`, and
 *     equality with a non-empty string literal.
 * The loop is wrapped in a block that declares its state (`{const $sbtRowT<k>=...; <loop>}`, before
 * any label), a token added to the array() or objects() call (`__sbirtools_rowLoop.open([col],
 * ['text'], state)`: the prelude's methods then answer with an iterator over the host's answers,
 * prelude/data/textLoop.ts), and each feature in
 * `(S.on&&<value>!==null?S.f<k>[S.i]<test>:<the expression as written>)`: with the state off (any loop
 * the guest does not take) every expression runs as written; with it on, a null row still does (the
 * real TypeError), every other reads the host's answer. `stmt` is the loop or the outermost label on
 * it; `up` maps each node to its parent and key; `unbound` says whether `undefined` is never declared.
 * @example
 * textLoopEdits(parse("for (const a of t.array('A')) if (a) n += a.length").body[0], ...) // 5 inserts
 */
export function textLoopEdits(
  loop: AnyNode,
  stmt: AnyNode,
  source: string,
  k: number,
  up: Map<AnyNode, [AnyNode, string]>,
  undefinedUnbound: () => boolean,
): LocalEdit[] | undefined {
  const head = loopHead(loop);
  if (!head) return undefined;
  const { id, right, column } = head;
  const isObjects = column === undefined;
  const uses = valueUses(loop.body, id.name, isObjects, source, up, undefinedUnbound);
  if (!uses) return undefined;
  // the value's text is repeated in each guard: one that spans lines would add a line
  if (uses.features.some((u) => /[\n\r\u2028\u2029]/.test(u.value))) return undefined;
  const S = `$sbtRowT${k}`;
  const features: Feature[] = [];
  const keys: string[] = [];
  const ins = (at: number, text: string): LocalEdit => ({
    start: at,
    end: at,
    text: `${INSERTED_OPEN}${text}${INSERTED_CLOSE}`,
  });
  const edits: LocalEdit[] = [];
  const wraps: LocalEdit[] = [];
  for (const u of uses.features) {
    const key = JSON.stringify(u.feature);
    let f = keys.indexOf(key);
    if (f < 0) {
      f = keys.push(key) - 1;
      features.push(u.feature);
    }
    wraps.push(ins(u.start, `(${S}.on&&${u.value}!==null?${S}.f${f}[${S}.i]${u.test}:`), ins(u.end, ')'));
  }
  edits.push(ins(stmt.start, `{const ${S}=${ROW_LOOP_GLOBAL}.text(${JSON.stringify(features)});`));
  // the token array() or objects() answers with the column's pages (after the argument: `t.array('A',)` parses)
  const token = (names: string[]) => `${ROW_LOOP_GLOBAL}.open(${JSON.stringify(names)}, ["text"], ${S})`;
  if (column !== undefined) edits.push(ins(right.arguments[0].end, `, ${token([column])}`));
  else edits.push(ins(right.end - 1, token([uses.field, ...uses.others])));
  edits.push(...wraps);
  edits.push(ins(stmt.end, '}'));
  return edits;
}

/**
 * The parts of `for (const|let NAME of X.array('col'))` or `for (const|let NAME of X.objects())` (no
 * `for await`, no `?.`): the declared identifier, the iterable, and the column (undefined for
 * objects()); undefined for any other loop. Shared with dateLoops.ts.
 * @example
 * loopHead(parse("for (const a of t.array('A')) n++").body[0]) // { id: <a>, right: <t.array('A')>, column: 'A' }
 */
export function loopHead(loop: AnyNode): { id: AnyNode; right: AnyNode; column: string | undefined } | undefined {
  if (loop.type !== 'ForOfStatement' || loop.await) return undefined;
  const left = loop.left;
  if (left.type !== 'VariableDeclaration' || left.kind === 'var' || left.declarations.length !== 1) return undefined;
  const id = left.declarations[0].id;
  if (id.type !== 'Identifier') return undefined;
  const right = loop.right as AnyNode;
  if (isBareObjectsCall(right)) return { id, right, column: undefined };
  if (right.type !== 'CallExpression' || right.optional || right.arguments.length !== 1) return undefined;
  const callee = right.callee as AnyNode;
  if (callee.type !== 'MemberExpression' || callee.computed || callee.optional) return undefined;
  if (callee.property.type !== 'Identifier' || callee.property.name !== 'array') return undefined;
  const arg = right.arguments[0] as AnyNode;
  if (arg.type !== 'Literal' || typeof arg.value !== 'string') return undefined;
  return { id, right, column: arg.value };
}

/**
 * How `body` uses the loop's value (the identifier `name`; with `objects`, the row `name`'s fields):
 * the features to rewrite, the text field and the other fields read, or undefined when a use is
 * outside the list of textLoopEdits. For a row, `r` must be used only as `r.field` read for its value;
 * the text field is the one whose uses read the most features (with none, the one field read) and
 * every use of it must be in that list, the other fields are only read (their values come with the
 * row as the loop as written reads them). The walk also refuses `with`, `eval`, and any mention inside
 * a function.
 */
function valueUses(
  body: AnyNode,
  name: string,
  objects: boolean,
  source: string,
  up: Map<AnyNode, [AnyNode, string]>,
  undefinedUnbound: () => boolean,
): { features: FeatureUse[]; field: string; others: string[] } | undefined {
  // per field (one entry, '', for an array's value): each use's kind, and whether every use is a read
  const fields = new Map<string, { uses: Array<'class' | FeatureUse | undefined>; read: boolean }>();
  const stack: [AnyNode, boolean][] = [[body, false]];
  while (stack.length > 0) {
    const [node, inFn] = stack.pop()!;
    const type = node.type as string;
    if (type === 'WithStatement') return undefined;
    if (type === 'Identifier') {
      if (node.name === 'eval') return undefined;
      if (node.name !== name) continue;
      if (inFn) return undefined;
      let value = node;
      let field = '';
      if (objects) {
        const [p, key] = up.get(node) ?? [null, ''];
        const f = p && key === 'object' ? fieldOf(p) : undefined;
        if (f === undefined) return undefined;
        field = f;
        value = p!;
      }
      let entry = fields.get(field);
      if (!entry) fields.set(field, (entry = { uses: [], read: true }));
      entry.uses.push(classify(value, source, up, undefinedUnbound));
      if (objects && !isPlainRead(value, up)) entry.read = false;
      continue;
    }
    const childInFn = inFn || FUNCTION_NODES.has(type);
    for (const c of variableChildren(node)) stack.push([c, childInFn]);
  }
  let field: string | undefined;
  let most = -1;
  for (const [f, e] of fields) {
    if (e.uses.some((u) => u === undefined)) continue;
    const count = e.uses.filter((u) => u !== 'class').length;
    if (count > most) [field, most] = [f, count];
  }
  // no feature read: the text loop only for a row's one field (else the row loop reads the fields)
  if (field === undefined || (most === 0 && fields.size > 1)) return undefined;
  const others: string[] = [];
  for (const [f, e] of fields) {
    if (f === field) continue;
    if (!e.read) return undefined;
    others.push(f);
  }
  const features = fields.get(field)!.uses.filter((u): u is FeatureUse => u !== 'class' && u !== undefined);
  return { features, field, others };
}

/** The field `member` reads (`r.name`, `r['literal']`), or undefined. */
export function fieldOf(member: AnyNode): string | undefined {
  if (member.type !== 'MemberExpression' || member.optional) return undefined;
  let field: string | undefined;
  if (!member.computed && member.property.type === 'Identifier') field = member.property.name;
  else if (member.computed && member.property.type === 'Literal' && typeof member.property.value === 'string')
    field = member.property.value;
  return field === '__proto__' ? undefined : field;
}

const isString = (e: AnyNode | undefined): e is AnyNode => e?.type === 'Literal' && typeof e.value === 'string';
const isNumber = (e: AnyNode, n: number): boolean =>
  n < 0
    ? e.type === 'UnaryExpression' && e.operator === '-' && isNumber(e.argument, -n)
    : e.type === 'Literal' && e.value === n;

/**
 * What the use of the value `v` is: 'class' (its class decides: no rewrite), a feature to rewrite, or
 * undefined (any other use).
 */
function classify(
  v: AnyNode,
  source: string,
  up: Map<AnyNode, [AnyNode, string]>,
  undefinedUnbound: () => boolean,
): 'class' | FeatureUse | undefined {
  const [p, key] = up.get(v) ?? [null, ''];
  if (!p) return undefined;
  const value = source.slice(v.start, v.end);
  const use = (node: AnyNode, feature: Feature, test: FeatureUse['test']): FeatureUse => ({
    start: node.start,
    end: node.end,
    value,
    feature,
    test,
  });
  if (p.type === 'MemberExpression' && key === 'object') {
    if (p.computed || p.optional || p.property.type !== 'Identifier') return undefined;
    const method = p.property.name as string;
    const [call, ck] = up.get(p) ?? [null, ''];
    if (method === 'length') return readOnly(p, call, ck) ? use(p, ['u'], '') : undefined;
    if (!call || call.type !== 'CallExpression' || ck !== 'callee' || call.optional) return undefined;
    const arg = call.arguments[0] as AnyNode | undefined;
    if (method === 'includes')
      return call.arguments.length === 1 && isString(arg) && arg.value !== ''
        ? use(call, ['c', arg.value, 'none'], '===1')
        : undefined;
    if (method === 'indexOf') {
      if (call.arguments.length !== 1 || !isString(arg) || arg.value === '') return undefined;
      const [cmp, side] = up.get(call) ?? [null, ''];
      if (!cmp || cmp.type !== 'BinaryExpression' || side !== 'left') return undefined;
      const op = cmp.operator as string;
      const r = cmp.right as AnyNode;
      const holds =
        (op === '>=' && isNumber(r, 0)) ||
        (op === '>' && isNumber(r, -1)) ||
        ((op === '!==' || op === '!=') && isNumber(r, -1));
      const lacks = ((op === '===' || op === '==') && isNumber(r, -1)) || (op === '<' && isNumber(r, 0));
      if (!holds && !lacks) return undefined;
      return use(cmp, ['c', arg.value, 'none'], holds ? '===1' : '!==1');
    }
    if (method === 'toLowerCase' && call.arguments.length === 0) {
      const [m2, mk] = up.get(call) ?? [null, ''];
      if (!m2 || m2.type !== 'MemberExpression' || mk !== 'object' || m2.computed || m2.optional) return undefined;
      if (m2.property.type !== 'Identifier' || m2.property.name !== 'includes') return undefined;
      const [c2, c2k] = up.get(m2) ?? [null, ''];
      if (!c2 || c2.type !== 'CallExpression' || c2k !== 'callee' || c2.optional || c2.arguments.length !== 1)
        return undefined;
      const lit = c2.arguments[0] as AnyNode;
      if (!isString(lit) || lit.value === '' || lit.value !== lit.value.toLowerCase()) return undefined;
      return use(c2, ['c', lit.value, 'lower'], '===1');
    }
    return undefined;
  }
  if (p.type === 'BinaryExpression' && EQUALITY.has(p.operator)) {
    const other = (key === 'left' ? p.right : p.left) as AnyNode;
    if (other.type === 'Literal' && (other.value === null || other.value === '') && !other.regex) return 'class';
    if (other.type === 'Identifier' && other.name === 'undefined' && undefinedUnbound()) return 'class';
    if (other.type === 'UnaryExpression' && other.operator === 'void' && other.argument.type === 'Literal')
      return 'class';
    if (isString(other)) return use(p, ['e', other.value], p.operator[0] === '!' ? '!==1' : '===1');
    return undefined;
  }
  if (p.type === 'UnaryExpression' && (p.operator === 'typeof' || p.operator === '!')) return 'class';
  return truthOnly(v, up) ? 'class' : undefined;
}

/** Whether `member` (`a.length`) is only read where it stands: not written, called, deleted or destructured into. */
function readOnly(member: AnyNode, p: AnyNode | null, k: string): boolean {
  if (!p) return true;
  if (p.type === 'ChainExpression') return false;
  if ((p.type === 'AssignmentExpression' || p.type === 'AssignmentPattern') && k === 'left') return false;
  if ((p.type === 'CallExpression' || p.type === 'NewExpression') && k === 'callee') return false;
  if (p.type === 'TaggedTemplateExpression' && k === 'tag') return false;
  if (p.type === 'UpdateExpression' || p.type === 'RestElement' || p.type === 'ArrayPattern') return false;
  if ((p.type === 'ForInStatement' || p.type === 'ForOfStatement') && k === 'left') return false;
  if (p.type === 'UnaryExpression' && p.operator === 'delete') return false;
  if (p.type === 'Property' && k === 'value') return false;
  return member.type === 'MemberExpression';
}

/** Whether only the truth value of `node` is read: a test, `!`, or a branch of `&&`/`||`/`??`/`?:` that is. */
export function truthOnly(node: AnyNode, up: Map<AnyNode, [AnyNode, string]>): boolean {
  const [p, key] = up.get(node) ?? [null, ''];
  if (!p) return false;
  if (TESTS.has(p.type) || p.type === 'ConditionalExpression')
    return key === 'test' || (p.type === 'ConditionalExpression' && truthOnly(p, up));
  if (p.type === 'UnaryExpression') return p.operator === '!';
  if (p.type === 'LogicalExpression') return truthOnly(p, up);
  return false;
}
