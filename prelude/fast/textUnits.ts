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
import type { Node } from './node.js';

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
