/**
 * Never a silent empty success: when a run's value is undefined and it printed, displayed and charted
 * nothing, the result says why, for the model that reads it (as valueText). The note names the last
 * expression and, when that is a property of a table (`award_data.agency`), the column or method it
 * probably meant. It reads the code with acorn and looks names up on the global object; it never
 * evaluates the user's code again.
 */
import { parse } from 'acorn';
import { didYouMean } from '../errors/didYouMean.js';
import { isTable } from '../frame/common.js';
import { NativeString } from '../intrinsics.js';

interface Node {
  type: string;
  start: number;
  end: number;
  [k: string]: unknown;
}

const G = globalThis as Record<string, unknown>;
const TAIL =
  'End the code with an expression (its value is the result), assign `result = ...`, or print(...) what you want to see.';

function lastStatement(code: string, async: boolean): Node | undefined {
  let body: Node[];
  try {
    body = (
      parse(code, {
        ecmaVersion: 'latest',
        sourceType: 'script',
        allowReturnOutsideFunction: true,
        allowAwaitOutsideFunction: true,
      }) as unknown as { body: Node[] }
    ).body;
  } catch {
    return undefined;
  }
  let last = body[body.length - 1];
  if (!async && body.length === 2 && last?.type === 'BlockStatement') last = unwrapLocals(last, code) ?? last;
  if (async && last?.type === 'ExpressionStatement') {
    // the runtime's wrapper: (async () => { ...; return (<last expression>) })()
    const fn = (last.expression as Node).callee as Node | undefined;
    const inner = fn && (fn.body as { body?: Node[] }).body;
    last = inner?.[inner.length - 1] as Node;
    if (last?.type === 'ReturnStatement' && last.argument)
      return {
        type: 'ExpressionStatement',
        start: (last.argument as Node).start,
        end: (last.argument as Node).end,
        expression: last.argument,
      };
  }
  return last;
}

/**
 * The user's last statement inside the host's top-level-locals wrapper
 * (src/runtime/prepare/localize.ts): `var ...;{const $sbtLocals=[...];{let ...;try{` on the first
 * line, the user's code from the second, `}catch(...){...}const ...;}}` after it.
 */
function unwrapLocals(block: Node, code: string): Node | undefined {
  const [decl, inner] = block.body as Node[];
  const id = (decl?.declarations as { id: { name?: string } }[] | undefined)?.[0]?.id.name;
  if (decl?.type !== 'VariableDeclaration' || !id?.startsWith('$sbtLocals') || inner?.type !== 'BlockStatement')
    return undefined;
  const tried = (inner.body as Node[])[1];
  if (tried?.type !== 'TryStatement') return undefined;
  const userStart = code.indexOf('\n') + 1;
  const stmts = ((tried.block as Node).body as Node[]).filter((s) => s.start >= userStart);
  return stmts[stmts.length - 1];
}

/** "did you mean" for `name.prop` when `name` is a global table. */
function tableSuggestion(expr: Node, code: string): string {
  if (expr.type !== 'MemberExpression') return '';
  const obj = expr.object as Node;
  const prop = expr.property as Node;
  const key = expr.computed
    ? prop.type === 'Literal'
      ? NativeString(prop.value)
      : undefined
    : (prop as { name?: string }).name;
  if (obj.type !== 'Identifier' || key === undefined) return '';
  const name = (obj as { name?: string }).name!;
  const t = Object.hasOwn(G, name) ? G[name] : undefined;
  if (!isTable(t)) return '';
  const guess = didYouMean(key, t.columnNames());
  const src = code.slice(obj.start, obj.end);
  return (
    ` ${src} has no column or method '${key}'` +
    (guess
      ? `; did you mean ${src}['${guess}']?`
      : `; its columns are ${t
          .columnNames()
          .slice(0, 12)
          .map((c) => `'${c}'`)
          .join(', ')}${t.numCols() > 12 ? ', ...' : ''}.`)
  );
}

/**
 * The note for a run that produced nothing, or undefined when it produced something.
 * @example emptyNote('award_data.agency', false, false) // "The run printed nothing and its value is undefined: ..."
 */
export function emptyNote(code: string, async: boolean, resultName: boolean): string {
  if (resultName) return `The run printed nothing and \`result\` is undefined. ${TAIL}`;
  const last = lastStatement(code, async);
  if (!last) return `The run printed nothing and returned no value. ${TAIL}`;
  if (last.type !== 'ExpressionStatement') {
    const what =
      last.type === 'VariableDeclaration'
        ? 'a declaration'
        : last.type === 'FunctionDeclaration'
          ? 'a function declaration'
          : `a ${last.type
              .replace(/Statement$/, '')
              .replace(/([a-z])([A-Z])/g, '$1 $2')
              .toLowerCase()} statement`;
    return `The run printed nothing and returned no value: the code ends with ${what}, which has no value. ${TAIL}`;
  }
  const expr = last.expression as Node;
  const text = code.slice(expr.start, expr.end);
  const shown = text.length > 120 ? `${text.slice(0, 117)}...` : text;
  if (expr.type === 'CallExpression')
    return `The run printed nothing and returned no value: the last expression, \`${shown}\`, returned undefined. ${TAIL}`;
  return `The run printed nothing and returned no value: the last expression, \`${shown}\`, is undefined.${tableSuggestion(expr, code)} ${TAIL}`;
}
