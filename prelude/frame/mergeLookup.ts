/**
 * merge's common case without a join: `how: 'left' | 'inner'` on one key column of the same name,
 * where the right table's keys are distinct text or numbers (a lookup table). Each left row finds
 * its right row in a Map; the left columns are the left table's own, picked lazily
 * (data/concatColumns.ts: no copy until read, typed arrays kept), and only the right columns are
 * gathered. Rows keep the left order; an unmatched left row has undefined right values, as
 * Arquero's join_left gives. Anything else (duplicate or missing right keys, dates, NaN) returns
 * undefined and merge joins.
 */
import type { ColumnTable } from 'arquero';
import { concatColumn, concatIndex, type ColumnLike } from '../data/concatColumns.js';
import { SafeMap } from '../intrinsics.js';
import { newTable } from './common.js';

const keyable = (v: unknown) => typeof v === 'string' || (typeof v === 'number' && v === v);

/** The merged table, or undefined when the lookup does not apply. */
export function mergeLookup(
  left: ColumnTable,
  right: ColumnTable,
  key: string,
  mode: string,
  suffix: [string, string],
): ColumnTable | undefined {
  if (mode !== 'left' && mode !== 'inner') return undefined;
  const rkeys = right.array(key) as ArrayLike<unknown>;
  const byKey = new SafeMap<unknown, number>();
  const rrows = right.indices() as Uint32Array;
  for (let j = 0; j < rkeys.length; j++) {
    const k = rkeys[j];
    if (!keyable(k) || byKey.has(k)) return undefined;
    byKey.set(k, rrows[j]!);
  }
  const lkeys = left.array(key) as ArrayLike<unknown>;
  const lrows = left.indices() as Uint32Array;
  const n = lkeys.length;
  const match = new Int32Array(n);
  let matched = 0;
  for (let i = 0; i < n; i++) {
    const k = lkeys[i];
    if (typeof k === 'number' && k !== k) return undefined;
    const r = k === null || k === undefined ? undefined : byKey.get(k);
    match[i] = r === undefined ? -1 : r;
    if (r !== undefined) matched++;
  }
  // the output's rows: every left row (left) or the matched ones (inner), in left order
  let rows = lrows;
  let rmatch = match;
  if (mode === 'inner' && matched < n) {
    rows = new Uint32Array(matched);
    rmatch = new Int32Array(matched);
    for (let i = 0, k = 0; i < n; i++)
      if (match[i]! >= 0) {
        rows[k] = lrows[i]!;
        rmatch[k++] = match[i]!;
      }
  }
  const index = concatIndex([rows]);
  const lnames = left.columnNames();
  const rnames = right.columnNames().filter((c) => c !== key);
  const out: Record<string, ColumnLike> = {};
  const names: string[] = [];
  for (const c of lnames) {
    const name = c !== key && rnames.includes(c) ? c + suffix[0] : c;
    out[name] = concatColumn(name, [{ col: left.column(c) as ColumnLike, rows }], index);
    names.push(name);
  }
  for (const c of rnames) {
    const name = lnames.includes(c) ? c + suffix[1] : c;
    const col = right.column(c)!;
    const vals = new Array<unknown>(rmatch.length);
    for (let i = 0; i < rmatch.length; i++) {
      const r = rmatch[i]!;
      vals[i] = r < 0 ? undefined : col.at(r);
    }
    out[name] = vals;
    names.push(name);
  }
  if (new Set(names).size !== names.length) return undefined; // a suffixed name meets another column: let the join decide
  return newTable(out as never, names);
}
