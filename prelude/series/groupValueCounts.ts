/**
 * `t.groupby(keys)[col].value_counts()`: the counts of each value within each group, groups in key
 * order (frame/groupAgg.ts compareKeys, groups with a missing key dropped), values by count
 * (descending unless `ascending`; ties in order of first appearance in the group). Groups are put
 * in order by fast/groupOrder.ts (ranks from native sorts, no comparator call per pair) and values
 * are counted by one id per distinct value shared by all groups, so many small groups cost a pass
 * over their rows, not a Map, two spreads and a sort each.
 */
import type { ColumnTable } from 'arquero';
import { orderByKeys } from '../fast/groupOrder.js';
import { compareKeys } from '../frame/groupAgg.js';
import { isNull } from '../frame/common.js';
import { SafeMap } from '../intrinsics.js';

/** The result's columns: each key, the counted column, then `count` (or `proportion`). */
export function groupValueCounts(
  t: ColumnTable,
  keys: readonly string[],
  name: string,
  opts: { normalize?: boolean; ascending?: boolean },
): Record<string, unknown[]> {
  const g = t.groups() as unknown as { get: Array<(row: number) => unknown> };
  const col = t.column(name)!;
  const parts = (t.partitions() as ArrayLike<number>[]).filter((p) => p.length > 0);
  // each group's key parts, read at its first row; groups with a missing part are dropped
  const kv: unknown[][] = keys.map(() => []);
  const kept: ArrayLike<number>[] = [];
  for (const rows of parts) {
    const key = keys.map((_, k) => g.get[k]!(rows[0]!));
    if (key.some(isNull)) continue;
    key.forEach((v, k) => kv[k]!.push(v));
    kept.push(rows);
  }
  const n = kept.length;
  const order =
    orderByKeys(kv, n) ??
    // stable, as a sort of the groups by compareKeys
    Array.from({ length: n }, (_, i) => i).sort((x, y) =>
      compareKeys(
        kv.map((a) => a[x]),
        kv.map((a) => a[y]),
      ),
    );
  const out: unknown[][] = [...keys.map(() => []), [], []];
  const values = out[keys.length]!;
  const counts = out[keys.length + 1]!;
  // one id per distinct value (a Date by its time, as the per-group Map keyed it); cnt[id] is the
  // count within the current group, reset after it
  const ids = new SafeMap<unknown, number>();
  const cnt: number[] = [];
  const seen: number[] = [];
  const firsts: unknown[] = [];
  const byCount = (a: number, b: number): number =>
    opts.ascending ? cnt[seen[a]!]! - cnt[seen[b]!]! : cnt[seen[b]!]! - cnt[seen[a]!]!;
  for (let j = 0; j < n; j++) {
    const gi = order[j]!;
    const rows = kept[gi]!;
    seen.length = 0;
    firsts.length = 0;
    let total = 0;
    for (let i = 0; i < rows.length; i++) {
      const v = col.at(rows[i]!);
      if (isNull(v)) continue;
      const key = v instanceof Date ? v.getTime() : v;
      let id = ids.get(key);
      if (id === undefined) {
        ids.set(key, (id = cnt.length));
        cnt.push(0);
      }
      if (cnt[id]++ === 0) {
        seen.push(id);
        firsts.push(v);
      }
      total++;
    }
    const m = seen.length;
    const pos = Array.from({ length: m }, (_, i) => i);
    if (m > 1) pos.sort(byCount); // stable: ties keep first appearance
    for (const p of pos) {
      for (let k = 0; k < keys.length; k++) out[k]!.push(kv[k]![gi]);
      values.push(firsts[p]);
      const c = cnt[seen[p]!]!;
      counts.push(opts.normalize ? c / total : c);
    }
    for (let i = 0; i < m; i++) cnt[seen[i]!] = 0;
  }
  const cols: Record<string, unknown[]> = {};
  keys.forEach((k, i) => (cols[k] = out[i]!));
  cols[name] = values;
  cols[opts.normalize ? 'proportion' : 'count'] = counts;
  return cols;
}
