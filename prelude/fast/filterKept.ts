/**
 * A fast filter's row mask kept for the session (fast/filter.ts): over every row of an unfiltered,
 * unordered table, the mask of `t.filter(d => d['Award Amount'] > 1e6)` is a function of the
 * predicate's tree and the columns it reads, and nothing else, when the tree holds only column reads,
 * literals and operators. A warm `filter(...).numRows()` evaluated the comparison over every row on
 * every run, then packed the mask into Arquero's words and read the row index off them; the same
 * filter again now copies the words and the index the first one made (frame/bitWords.ts).
 *
 * What the key holds: the tree object itself (fast/parseKept.ts hands the same tree for the same
 * source text, table column names and registries, and never one for a table with params), the
 * column objects the tree reads (by identity: a table made by select/derive/assign over the same
 * host columns shares them, another column of the same name does not) and the row count. Only host
 * columns (data/lazyColumn.ts) of numbers, integers, booleans, dictionary or long text qualify, whose
 * values are primitives: no operator on them calls code (a date column's values are Date objects,
 * whose `valueOf` a run may replace). Node types allowed: Column, Literal (not a regular
 * expression), the constant `undefined`, BinaryExpression, LogicalExpression, UnaryExpression, ConditionalExpression; any other
 * (a call, a member read such as `d.X.length`, which reads a prototype a run may change) keeps no
 * rows. The last `KEPT` filters of tables up to `KEPT_ROWS` rows are kept, most recent first (n/8
 * bytes of words and 4 bytes per kept row each).
 */
import type { ColumnTable } from 'arquero';
import { LazyColumn } from '../data/lazyColumn.js';
import type { Node } from './node.js';
import { storageWords } from '../frame/bitWords.js';

const KEPT = 4;
const KEPT_ROWS = 1 << 22;

/** A kept filter: what it was asked of, and the filtered table's words and row index (never handed out). */
export interface KeptRows {
  root: Node;
  columns: readonly LazyColumn[];
  n: number;
  words: Uint32Array;
  index: Uint32Array;
}

const entries: KeptRows[] = [];

/** The host columns `root` reads over `t`, in tree order, or null when its mask may not be kept. */
export function keptColumns(t: ColumnTable, root: Node, n: number): LazyColumn[] | null {
  if (n > KEPT_ROWS) return null;
  const out: LazyColumn[] = [];
  return plain(t, root, out) ? out : null;
}

function plain(t: ColumnTable, node: Node, out: LazyColumn[]): boolean {
  switch (node.type) {
    case 'Column': {
      if (node.table !== undefined && node.table !== 0) return false;
      const col = typeof node.name === 'string' ? (t.column(node.name) as unknown) : undefined;
      if (!(col instanceof LazyColumn) || col.type === 'date') return false;
      out.push(col);
      return true;
    }
    case 'Literal':
      return node.regex === undefined && (node.value === null || typeof node.value !== 'object');
    case 'Constant':
      // the others compile to reads of the global Math or Number, which a run may replace
      return node.name === 'undefined';
    case 'BinaryExpression':
    case 'LogicalExpression':
      return plain(t, node.left as Node, out) && plain(t, node.right as Node, out);
    case 'UnaryExpression':
      return node.operator !== 'delete' && plain(t, node.argument as Node, out);
    case 'ConditionalExpression':
      return (
        plain(t, node.test as Node, out) &&
        plain(t, node.consequent as Node, out) &&
        plain(t, node.alternate as Node, out)
      );
    default:
      return false;
  }
}

/** The kept rows of `root` over these columns and rows (moved to the front), or undefined. */
export function keptRows(root: Node, columns: readonly LazyColumn[], n: number): KeptRows | undefined {
  for (let e = 0; e < entries.length; e++) {
    const entry = entries[e]!;
    if (entry.root !== root || entry.n !== n || !sameColumns(entry.columns, columns)) continue;
    for (let j = e; j > 0; j--) entries[j] = entries[j - 1]!;
    entries[0] = entry;
    return entry;
  }
  return undefined;
}

/** Keeps the filtered table's words and index (copies: `storageWords`) as the rows of `root` over `columns`. */
export function keepRows(root: Node, columns: readonly LazyColumn[], n: number, filtered: ColumnTable): void {
  const copied = storageWords(filtered);
  if (copied === null) return;
  const count = entries.length < KEPT ? entries.length + 1 : KEPT;
  for (let j = count - 1; j > 0; j--) entries[j] = entries[j - 1]!;
  entries[0] = { root, columns, n, words: copied.words, index: copied.index };
}

function sameColumns(a: readonly LazyColumn[], b: readonly LazyColumn[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
