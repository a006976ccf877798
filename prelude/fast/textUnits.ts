/**
 * The length of long text in a derive, filter or array-chain expression (`op.length(d.X)`,
 * `d.X.length`; fast/deriveEval.ts), answered by the host: bridge.textScan `units` gives each row's
 * UTF-16 length (the decoded string's `length`) from the binary cache's counts or the UTF-8 bytes,
 * so no row of text is decoded in the isolate. A page the host does not answer is measured here
 * on its decoded rows. The values are those of the expression as written: `op.length` of a null row
 * is 0 (Arquero's `length` of a value that is not a string or array); `.length` of a null row
 * throws in Arquero's code, so the fast path gives up and that code runs.
 */
import { LazyColumn } from '../data/lazyColumn.js';
import { PAGE_SHIFT } from '../data/pagedText.js';
import { Collector, eachRow, giveUp, type Env, type Vec } from './deriveVec.js';
import { stillInstalled } from './deriveFunctions.js';
import type { ColumnTable } from 'arquero';
import type { Node } from './node.js';
import type { TextPages } from '../data/textPages.js';

/**
 * The UTF-16 length of every visible row of text column `name` (`nullIsZero`: 0 for a null row,
 * else a give-up), or null when the host cannot scan the column (QuickJS, a user's small column,
 * text decoded per row): the caller measures the rows itself.
 */
export function textUnits(env: Env, name: string, nullIsZero: boolean): Vec | null {
  const col = env.t.column(name) as unknown;
  if (!(col instanceof LazyColumn)) return null;
  const pages = col.hostScanPages(env.n);
  if (!pages) return null;
  if (env.rows === null && env.n > 0) {
    const whole = wholeUnits(pages, env.n, nullIsZero);
    if (whole) return whole;
  }
  const out = new Collector(env.n);
  let page = -1;
  let base = 0;
  let units: Int32Array | null = null;
  let rows: ReadonlyArray<string | null> | null = null;
  eachRow(env, (i) => {
    const p = i >> PAGE_SHIFT;
    if (p !== page) {
      page = p;
      base = p << PAGE_SHIFT;
      const got = pages.scan(p, { op: 'units' }, true);
      units = got instanceof Int32Array ? got : null;
      rows = units ? null : pages.page(p);
    }
    let u: number;
    if (units) u = units[i - base]!;
    else {
      const v = rows![i - base];
      u = typeof v === 'string' ? v.length : -1;
    }
    if (u < 0 && !nullIsZero) giveUp(); // `null.length` throws in Arquero's code
    out.put(i, u < 0 ? 0 : u);
  });
  return out.done();
}

/**
 * Whether `node` takes the length of a column (`op.length(d.X)`, `d.X.length`, `d['X'].length`):
 * a filter part the derive evaluator (fast/typedLeaf.ts) can answer from the host's counts, so it
 * is tried before the part's compiled code reads the text pages.
 */
export function readsTextLength(node: Node): boolean {
  if (node.type === 'MemberExpression') {
    const p = node.property as Node;
    const isLength = node.computed ? p.type === 'Literal' && p.value === 'length' : p.name === 'length';
    if (isLength && (node.object as Node).type === 'Column') return true;
  }
  if (node.type === 'CallExpression') {
    const callee = node.callee as Node;
    const args = node.arguments as Node[];
    if (callee.type === 'Function' && callee.name === 'length' && args.length === 1 && args[0]!.type === 'Column')
      return true;
  }
  for (const [key, v] of Object.entries(node)) {
    if (key === 'type') continue;
    for (const c of Array.isArray(v) ? v : [v])
      if (c && typeof c === 'object' && typeof (c as Node).type === 'string' && readsTextLength(c as Node)) return true;
  }
  return false;
}

/**
 * Every row's UTF-16 length when all rows are visible, a page of the host's (kept) answers copied at
 * a time: what the row loop below gives (no row is ever null when `nullIsZero`, so no validity),
 * without a call per row. A null row without `nullIsZero` gives up as the loop does; a page the host
 * leaves to the guest: null (the loop measures the rows).
 */
function wholeUnits(pages: TextPages, n: number, nullIsZero: boolean): Vec | null {
  const v = new Float64Array(n);
  for (let p = 0, i = 0; i < n; p++) {
    const got = pages.scan(p, { op: 'units' }, true);
    if (!(got instanceof Int32Array)) return null;
    for (let k = 0; k < got.length; k++, i++) {
      const u = got[k]!;
      if (u < 0) {
        if (!nullIsZero) giveUp(); // `null.length` throws in Arquero's code
      } else v[i] = u;
    }
  }
  return { k: 'num', v, valid: null };
}

/**
 * The long text column whose rows' UTF-16 length `node` is (`op.length(d.X)` while `length` is still
 * Arquero's own, `d.X.length`, `d.X['length']`), or null: a derive may keep such a column for the
 * session (fast/derive.ts `keptOutput`), since a string's length reads no prototype and the text
 * never changes.
 */
export function textLengthOf(t: ColumnTable, node: Node): LazyColumn | null {
  let arg: Node | null = null;
  if (node.type === 'MemberExpression') {
    const p = node.property as Node;
    if (node.computed ? p.type === 'Literal' && p.value === 'length' : p.name === 'length') arg = node.object as Node;
  } else if (node.type === 'CallExpression') {
    const callee = node.callee as Node;
    const args = node.arguments as Node[];
    if (callee.type === 'Function' && callee.name === 'length' && args.length === 1 && stillInstalled('length'))
      arg = args[0]!;
  }
  if (arg === null || arg.type !== 'Column' || (arg.table !== 0 && arg.table !== undefined)) return null;
  const col = typeof arg.name === 'string' ? (t.column(arg.name) as unknown) : undefined;
  return col instanceof LazyColumn && col.kind === 'utf8' ? col : null;
}
