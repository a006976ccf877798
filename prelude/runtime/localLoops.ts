/**
 * Top-level loops over local copies of the session's globals. globalize.ts turns top-level
 * `const`/`let` into `var` so the names persist to the next run, which makes them properties of the
 * global object: inside a loop every read is a global property load and every `total += x` boxes
 * a new number (a loop over three 219,590-value arrays: ~15 ms at top level, ~5 ms in a function).
 * A top-level loop that cannot run any code but its own (no calls, no functions, no `this`; in a
 * for-of head, `award_data.array('X')`) is
 * wrapped so that the names it uses live in block-scoped variables while it runs, copied from the
 * globals before and written back after (also when it throws):
 *
 *   ;{ let $0 = total, $1 = agency; try { let total = $0, agency = $1; try { LOOP }
 *      finally { $0 = total; } } finally { total = $0; } }
 *
 * The loop's own text is untouched (error lines and columns hold): the opening goes right after
 * the previous top-level statement, on its line, the closing right after the loop, and only loops
 * that start on a new line and end their last line are wrapped. Only names this program
 * declares at top level with var/let/const are copied (they exist, as globals, before the loop
 * runs). Nothing the loop can call sees the copies mid-loop because it calls nothing; what it
 * could still reach implicitly (a getter or valueOf written by the user that reads one of these
 * names) would see the value from before the loop.
 */

type Node = { type: string; start: number; end: number; [key: string]: unknown };

/** One text insertion: `text` goes at offset `at` of the code. */
export interface Insert { at: number; text: string }

const LOOPS = new Set(['ForStatement', 'ForOfStatement', 'ForInStatement', 'WhileStatement', 'DoWhileStatement']);
/** Constructs that could run other code, or reach the globals another way. */
const RUNS_CODE = new Set(['CallExpression', 'NewExpression', 'TaggedTemplateExpression', 'ImportExpression', 'FunctionExpression',
  'ArrowFunctionExpression', 'ClassExpression', 'FunctionDeclaration', 'ClassDeclaration', 'ThisExpression', 'MetaProperty',
  'YieldExpression', 'AwaitExpression', 'WithStatement', 'LabeledStatement', 'ChainExpression']);
const AFTER_OK = /^[ \t;]*(\/\/[^\n]*|\/\*.*)?(\r?\n|$)/;
const RESERVED = new Set(['eval', 'arguments', 'globalThis', 'undefined', 'NaN', 'Infinity']);

/** The insertions that run each eligible top-level loop over local copies (none when there is nothing to gain). */
export function localLoops(code: string, body: readonly Node[]): Insert[] {
  const declared = new Set<string>();
  for (const s of body) if (s.type === 'VariableDeclaration') for (const d of s.declarations as Node[]) bindings(d.id as Node, declared);
  if (!declared.size) return [];
  const out: Insert[] = [];
  let tmp = 0;
  for (let k = 1; k < body.length; k++) {
    const loop = body[k];
    if (!LOOPS.has(loop.type)) continue;
    // keep every reported column: the loop starts on a line of its own after the previous
    // statement, and nothing but a comment follows it on its last line
    if (!code.slice(body[k - 1].end, loop.start).includes('\n') || !AFTER_OK.test(code.slice(loop.end, loop.end + 400))) continue;
    const used = new Set<string>();
    if (!scan(loop, declared, used) || !used.size) continue;
    const names = [...used];
    const temps = names.map(() => `$sbl${tmp++}`);
    const copyIn = names.map((n, i) => `${temps[i]} = ${n}`).join(', ');
    const shadow = names.map((n, i) => `${n} = ${temps[i]}`).join(', ');
    const back = names.map((n, i) => `${temps[i]} = ${n};`).join(' ');
    const writeBack = names.map((n, i) => `${n} = ${temps[i]};`).join(' ');
    out.push({ at: body[k - 1].end, text: `;{ let ${copyIn}; try { let ${shadow}; try {` });
    out.push({ at: loop.end, text: ` } finally { ${back} } } finally { ${writeBack} } }` });
  }
  return out;
}

/** Names bound by a declaration target (`a`, `[a, b]`, `{ a, b: c }`). */
function bindings(id: Node | null, out: Set<string>): void {
  if (!id) return;
  if (id.type === 'Identifier') out.add(id.name as string);
  else if (id.type === 'ArrayPattern') for (const e of id.elements as Array<Node | null>) bindings(e, out);
  else if (id.type === 'ObjectPattern') for (const p of id.properties as Node[]) bindings((p.type === 'RestElement' ? p.argument : p.value) as Node, out);
  else if (id.type === 'RestElement') bindings(id.argument as Node, out);
  else if (id.type === 'AssignmentPattern') bindings(id.left as Node, out);
}

/**
 * `award_data.array('X')` as the array of a for-of: the one call models put in a loop's head. It
 * runs once, before the first iteration, and reads or writes none of the user's globals (the
 * prelude's column copy), so the copies made just before it stay exact.
 */
function columnArray(node: Node): boolean {
  if (node.type !== 'CallExpression') return false;
  const callee = node.callee as Node;
  const args = node.arguments as Node[];
  return callee.type === 'MemberExpression' && !callee.computed && (callee.object as Node).type === 'Identifier'
    && (callee.object as Node).name === 'award_data' && (callee.property as Node).name === 'array'
    && args.length === 1 && args[0].type === 'Literal' && typeof args[0].value === 'string';
}

/** False when the loop may run other code; else adds the declared names it mentions to `used`. */
function scan(node: Node, declared: Set<string>, used: Set<string>): boolean {
  if (node.type === 'ForOfStatement' && columnArray(node.right as Node)) {
    return !node.await && scan(node.left as Node, declared, used) && scan(node.body as Node, declared, used);
  }
  if (RUNS_CODE.has(node.type)) return false;
  if (node.type === 'VariableDeclaration' && node.kind === 'var') return false; // a var inside would be a global of its own
  if (node.type === 'Identifier') {
    const name = node.name as string;
    if (RESERVED.has(name) || name.startsWith('$sbl')) return false;
    if (declared.has(name)) used.add(name);
    return true;
  }
  for (const [key, v] of Object.entries(node)) {
    if (key === 'type' || key === 'start' || key === 'end') continue;
    // a member name or an object key is not a variable
    if (key === 'property' && node.type === 'MemberExpression' && !node.computed) continue;
    if (key === 'key' && node.type === 'Property' && !node.computed) {
      if (node.shorthand && !scan(node.value as Node, declared, used)) return false;
      continue;
    }
    if (key === 'label') continue;
    for (const c of Array.isArray(v) ? v : [v]) {
      if (c && typeof c === 'object' && typeof (c as Node).type === 'string' && !scan(c as Node, declared, used)) return false;
    }
  }
  return true;
}
