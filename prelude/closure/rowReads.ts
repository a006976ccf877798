/**
 * The columns an arrow closure reads from its row, when the row is used in no other way: only as
 * `d.X`, `d['X']` or `d?.X` reads (never written, deleted, passed on, spread or compared), or
 * destructured in the parameter (`({ Abstract }) => ...`). Then the closure cannot tell the
 * row-by-row view (closure/rowView.ts: getters over every column) from a plain object holding just
 * those columns' values for the row, and a scan may call it with one (closure/columnScan.ts).
 * Unlike the fold of fast/closureFilter.ts the closure may do anything else (call any function,
 * keep state, use a shared regex): it still runs once per row, in row order.
 */
import { SafeSet, SafeWeakMap } from '../intrinsics.js';
import { closureNode, type Node } from './arrowSource.js';

/** Identifiers that could reach the row some other way (direct eval sees the closure's scope). */
const ESCAPES = new SafeSet(['arguments', 'eval']);

const cache = new SafeWeakMap<Function, string[] | null>();

/** The columns read (in first-read order), or undefined when the row escapes or the source is not a plain arrow. */
export function rowReads(fn: Function): string[] | undefined {
  const known = cache.get(fn);
  if (known !== undefined) return known ?? undefined;
  const out = analyse(fn);
  cache.set(fn, out ?? null);
  return out;
}

function analyse(fn: Function): string[] | undefined {
  const root = closureNode(fn);
  if (!root) return undefined;
  // only arrows: a `function` closure could be reached through its own `.arguments` (sloppy mode)
  if (root.type !== 'ArrowFunctionExpression') return undefined;
  const params = root.params as Node[];
  if (params.length < 1 || params.length > 2) return undefined;
  const cols = new SafeSet<string>();
  const p = params[0];
  if (p.type === 'ObjectPattern') {
    for (const prop of p.properties as Node[]) {
      if (prop.type !== 'Property' || prop.computed) return undefined;
      const key = prop.key as Node;
      if (key.type === 'Identifier') cols.add(key.name as string);
      else if (key.type === 'Literal' && typeof key.value === 'string') cols.add(key.value);
      else return undefined;
      if (!walk(prop.value as Node, '', cols)) return undefined; // defaults and nested patterns
    }
    if (params[1] && !walk(params[1], '', cols)) return undefined;
    return walk(root.body as Node, '', cols) ? [...cols] : undefined;
  }
  if (p.type !== 'Identifier') return undefined;
  if (params[1] && !walk(params[1], p.name as string, cols)) return undefined;
  return walk(root.body as Node, p.name as string, cols) ? [...cols] : undefined;
}

/** False at the first use of the row (`row`; '' when destructured) other than a column read. */
function walk(node: Node, row: string, cols: Set<string>): boolean {
  switch (node.type) {
    case 'Identifier':
      return !ESCAPES.has(node.name as string) && (row === '' || node.name !== row);
    case 'WithStatement':
      return false;
    case 'MemberExpression': {
      const obj = node.object as Node;
      if (row !== '' && obj.type === 'Identifier' && obj.name === row) {
        const prop = node.property as Node;
        if (!node.computed && prop.type === 'Identifier') cols.add(prop.name as string);
        else if (node.computed && prop.type === 'Literal' && typeof prop.value === 'string') cols.add(prop.value);
        else return false;
        return true;
      }
      if (!walk(obj, row, cols)) return false;
      return node.computed ? walk(node.property as Node, row, cols) : true;
    }
    case 'AssignmentExpression':
    case 'UpdateExpression':
    case 'ForInStatement':
    case 'ForOfStatement': {
      // `d.X = v`, `d.X++`, `[d.X] = a`, `for (d.X of a)`: a write to the row (the view ignores or
      // throws on it; a plain object would keep it)
      const target = (node.left ?? node.argument) as Node;
      if (row !== '' && writesRow(target, row)) return false;
      break;
    }
    case 'UnaryExpression':
      if (node.operator === 'delete' && row !== '' && writesRow(node.argument as Node, row)) return false;
      break;
    case 'Property':
      // an object key is a name, not a variable (`{ d: 1 }`); shorthand `{ d }` is a use
      if (!node.computed && !node.shorthand) return walk(node.value as Node, row, cols);
      break;
    case 'MethodDefinition':
    case 'PropertyDefinition':
      if (!node.computed) return node.value ? walk(node.value as Node, row, cols) : true;
      break;
    case 'LabeledStatement':
    case 'BreakStatement':
    case 'ContinueStatement':
      return node.body ? walk(node.body as Node, row, cols) : true;
    default:
  }
  for (const [key, v] of Object.entries(node)) {
    if (key === 'type' || key === 'start' || key === 'end') continue;
    for (const c of Array.isArray(v) ? v : [v]) {
      if (c && typeof c === 'object' && typeof (c as Node).type === 'string' && !walk(c as Node, row, cols))
        return false;
    }
  }
  return true;
}

/** True when assigning to `target` writes the row or a member of it (`d`, `d.X`, `[d.X]`, `{ a: d.X }`; `d.X.y` writes the value). */
function writesRow(target: Node | null, row: string): boolean {
  if (!target) return false;
  switch (target.type) {
    case 'Identifier':
      return target.name === row;
    case 'MemberExpression': {
      const obj = target.object as Node;
      return obj.type === 'Identifier' && obj.name === row;
    }
    case 'ArrayPattern':
      return (target.elements as Array<Node | null>).some((e) => writesRow(e, row));
    case 'ObjectPattern':
      return (target.properties as Node[]).some((p) =>
        writesRow((p.type === 'RestElement' ? p.argument : p.value) as Node, row),
      );
    case 'RestElement':
      return writesRow(target.argument as Node, row);
    case 'AssignmentPattern':
      return writesRow(target.left as Node, row);
    case 'VariableDeclaration':
      return false; // declares new names (a shadowing `d` is then a bare use and refused)
    default:
      return false;
  }
}
