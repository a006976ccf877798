/**
 * filter on codes: `t.filter(d => d.Phase === 'Phase II' && d['Award Year'] >= 2015)` evaluates the
 * Phase test once per dictionary entry and the year test on the Float64Array (fast/predicate.ts),
 * then sets Arquero's filter BitSet, so later verbs, numRows() and len() read the selection without
 * a copy. Used when Arquero itself compiles the predicate (no aggregate/window ops) and some part
 * gains; closures Arquero cannot compile go to fast/closureFilter.ts (one dictionary column, no
 * side effects) or keep their row-by-row path.
 */
import { BitSet, parse, type ColumnTable } from 'arquero';
import { callsValueMethods } from '../closure/valueMethods.js';
import { evaluate, type Ctx } from './predicate.js';
import type { Node } from './node.js';
import { fastClosureFilter } from './closureFilter.js';
import { keepStorageRows, keepStorageWords } from '../frame/bitWords.js';
import { parseKept } from './parseKept.js';
import { keepRows, keptColumns, keptRows } from './filterKept.js';

/** The filtered table, or undefined when Arquero's filter must run. */
export function fastFilter(t: ColumnTable, criteria: unknown): ColumnTable | undefined {
  if (typeof criteria !== 'function' && typeof criteria !== 'string') return undefined;
  if (typeof criteria === 'function' && callsValueMethods(criteria)) return fastClosureFilter(t, criteria as never);
  let root: Node | undefined;
  let ops: unknown[] = [];
  try {
    // the tree Arquero's parse rewrites (kept per source text: fast/parseKept.ts; read, never changed)
    ({ root, ops } = parseKept({ p: criteria }, t, 'filter', () => {
      let node: Node | undefined;
      const parsed = parse(
        { p: criteria } as never,
        {
          table: t,
          value: (_name: string, n: Node) => {
            node = n;
          },
        } as never,
      ) as unknown as { ops: unknown[] };
      return { root: node, ops: parsed.ops };
    }));
  } catch {
    // a closure over variables: fold it when it reads one dictionary column, else Arquero's path
    // reports the error or runs the closure fallback
    return typeof criteria === 'function' ? fastClosureFilter(t, criteria as never) : undefined;
  }
  if (!root || ops.length || (root as { escape?: unknown }).escape) return undefined;
  const n = t.totalRows();
  // every row, a tree of column reads and operators: the rows a former run kept (fast/filterKept.ts)
  const columns = !t.mask() && !t.isOrdered() ? keptColumns(t, root, n) : null;
  const kept = columns ? keptRows(root, columns, n) : undefined;
  if (kept) return keepStorageWords(t, kept.words, kept.index);
  const visible = new Uint8Array(n);
  const bits = t.mask();
  if (bits) markVisible(bits, visible);
  else visible.fill(1);
  const ctx: Ctx = { t, n, params: t.params(), fast: false };
  const mask = evaluate(ctx, root, visible);
  if (!ctx.fast) return undefined;
  // an unfiltered, unordered table: the bitmap 32 rows at a time and the row index from the bytes
  if (!bits && !t.isOrdered()) {
    const out = keepStorageRows(t, mask);
    if (columns) keepRows(root, columns, n, out);
    return out;
  }
  const keep = new BitSet(n);
  setKept(mask, keep, n);
  return t.create({ filter: keep });
}

// Loops over every row, each a function that ends with it: V8 compiles a loop that runs once per
// call while it runs, and code after it that has not run yet throws that compile away again on
// every later call (docs/architecture.md, "Inside the prelude").
function markVisible(bits: BitSet, visible: Uint8Array): void {
  for (let i = bits.next(0); i >= 0; i = bits.next(i + 1)) visible[i] = 1;
}

function setKept(mask: Uint8Array, keep: BitSet, n: number): void {
  for (let i = 0; i < n; i++) if (mask[i]) keep.set(i);
}
