import type * as acorn from 'acorn';
import { parseExpression, parseProgram } from './parse.js';
import { isVariable } from './positions.js';
import { traverse } from './traverse.js';

type Node = acorn.AnyNode;

/** Names that read columns the code does not name: row objects, selection helpers, whole-table output. */
const UNKNOWABLE = new Set([
  'columnNames',
  'objects',
  'object',
  'toJSON',
  'toCSV',
  'toMarkdown',
  'toHTML',
  'toArrow',
  'toArrowIPC',
  'all',
  'not',
  'matches',
  'startswith',
  'endswith',
  'range',
  'keys',
  'values',
  'entries',
  'assign',
]);
/** Table methods whose result keeps only named columns (or none). */
const NARROWING = new Set([
  'select',
  'rollup',
  'count',
  'agg',
  'numRows',
  'numCols',
  'totalRows',
  'array',
  'get',
  'column',
]);
/** Table methods whose result still carries every column of their input. */
const PASS_THROUGH = new Set([
  'filter',
  'groupby',
  'orderby',
  'ungroup',
  'unorder',
  'slice',
  'sample',
  'derive',
  'params',
  'reify',
]);
/** Prelude helpers that read only the columns named in their other arguments. */
const COLUMN_SCOPED = new Set(['value_counts']);
const TABLE = 'award_data';

/**
 * The column names the code may read, so the runtime can load just those columns of award_data.
 * A superset: every string literal, every non-computed property name and object key, and the
 * names inside Arquero expression strings (`'d => d.Agency'`). Method names and plain text come
 * along too; intersect the result with the table's columns.
 *
 * Returns null when the set is unknowable statically, and then every column must be available:
 * - a computed key that is not a literal (`d[col]`, `{ [k]: v }`), spread or rest (`{ ...d }`), `for...in`;
 * - any of `columnNames`, `objects`, `object`, `toJSON`, `toCSV`, `toMarkdown`, `toHTML`, `toArrow`,
 *   `aq.all/not/matches/startswith/endswith/range`, `Object.keys/values/entries/assign`;
 * - award_data reaching anything but a chain of table verbs that narrows it (`select`, `rollup`,
 *   `count`, `agg`, `numRows`, `array`, `get`, `column`, after any of `filter`, `groupby`, `orderby`,
 *   `derive`, `slice`, `sample`, ...) or the first argument of `value_counts`: an alias
 *   (`const t = award_data`), printing or returning a whole table, or any other use;
 * - code that does not parse.
 * @example
 * collectColumnNames("value_counts(award_data, 'Agency')"); // ['value_counts', ... 'Agency'] (a superset)
 * collectColumnNames('print(award_data)'); // null
 */
export function collectColumnNames(code: string): string[] | null {
  const parsed = parseProgram(code);
  return parsed.ok ? collect(parsed.program, 0, false) : null;
}

/**
 * The names the code spells out, as {@link collectColumnNames} finds them, also when the code may
 * read other columns too (row objects, a whole table printed): the columns it surely names, for
 * decoding them ahead (holder/prefetchTables.ts). A superset again (method names, plain text):
 * intersect it with the table's columns. Null only when the code does not parse.
 * @example namedColumns("t.groupby('Agency').objects()"); // ['groupby', 'Agency', 'objects']
 */
export function namedColumns(code: string): string[] | null {
  const parsed = parseProgram(code);
  return parsed.ok ? collect(parsed.program, 0, true) : null;
}

function collect(root: Node, depth: number, partial: boolean): string[] | null {
  const names = new Set<string>();
  let known = true;
  const add = (name: string | undefined): void => {
    if (name === undefined) known = false;
    else if (UNKNOWABLE.has(name)) known = false;
    else names.add(name);
  };
  traverse(root, (node, ancestors, key) => {
    if (!known && !partial) return;
    switch (node.type) {
      case 'MemberExpression':
        if (node.computed) add(literalKey(node.property));
        else if (node.property.type === 'Identifier') add(node.property.name);
        return;
      case 'Property':
        add(
          node.computed ? literalKey(node.key) : node.key.type === 'Identifier' ? node.key.name : literalKey(node.key),
        );
        return;
      case 'SpreadElement':
      case 'RestElement':
      case 'ForInStatement':
        known = false;
        return;
      case 'Identifier':
        if (UNKNOWABLE.has(node.name) && isVariable(ancestors[ancestors.length - 1], key)) known = false;
        if (node.name === TABLE && isVariable(ancestors[ancestors.length - 1], key) && !narrowed(node, ancestors))
          known = false;
        return;
      case 'Literal':
        if (typeof node.value === 'string') addString(node.value);
        return;
      case 'TemplateLiteral':
        if (node.expressions.length === 0) addString(node.quasis[0]?.value.cooked ?? '');
        return;
      default:
        return;
    }
  });
  return known || partial ? [...names] : null;

  function addString(text: string): void {
    names.add(text);
    // an Arquero expression string names its columns inside: 'd => d.Agency === "DOD"'
    const expr = depth === 0 && text.includes('=>') ? parseExpression(text) : null;
    if (!expr) return;
    const inner = collect(expr, depth + 1, partial);
    if (inner === null) known = false;
    else for (const n of inner) names.add(n);
  }
}

/** A literal key's name (numbers too: a superset is fine); undefined for a computed key. */
function literalKey(node: Node): string | undefined {
  if (node.type === 'Literal' && typeof node.value === 'string') return node.value;
  if (node.type === 'Literal' && typeof node.value === 'number') return String(node.value);
  if (node.type === 'TemplateLiteral' && node.expressions.length === 0)
    return node.quasis[0]?.value.cooked ?? undefined;
  return undefined;
}

/** Whether this use of award_data ends in a narrowing verb or a column-scoped helper. */
function narrowed(table: Node, ancestors: readonly Node[]): boolean {
  let current: Node = table;
  for (let i = ancestors.length - 1; i >= 0; i--) {
    const parent = ancestors[i]!;
    if (parent.type === 'ChainExpression') {
      current = parent;
      continue;
    }
    if (parent.type === 'CallExpression' && parent.arguments[0] === current) {
      return parent.callee.type === 'Identifier' && COLUMN_SCOPED.has(parent.callee.name);
    }
    const call = ancestors[i - 1];
    if (
      parent.type !== 'MemberExpression' ||
      parent.object !== current ||
      call?.type !== 'CallExpression' ||
      call.callee !== parent
    )
      return false;
    const method = parent.computed
      ? literalKey(parent.property)
      : parent.property.type === 'Identifier'
        ? parent.property.name
        : undefined;
    if (method !== undefined && NARROWING.has(method)) return true;
    if (method === undefined || !PASS_THROUGH.has(method)) return false;
    current = call;
    i--;
  }
  return false;
}
