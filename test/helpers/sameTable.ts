/** Compare two decoded tables exactly: kinds, types and every typed-array element (Object.is: NaN, -0). */
import type { ColumnarTable } from '../../schema/columnar.js';

/** The first difference between two columnar tables, or null when they are identical. */
export function tableDifference(a: ColumnarTable, b: ColumnarTable): string | null {
  if (a.numRows !== b.numRows) return `numRows ${a.numRows} vs ${b.numRows}`;
  if (a.columns.length !== b.columns.length) return `${a.columns.length} vs ${b.columns.length} columns`;
  for (let c = 0; c < a.columns.length; c++) {
    const x = a.columns[c];
    const y = b.columns[c];
    if (x.name !== y.name || x.kind !== y.kind || x.type !== y.type || x.data.kind !== y.data.kind) {
      return `column ${c}: ${x.name} ${x.kind}/${x.type} vs ${y.name} ${y.kind}/${y.type}`;
    }
    const fx = x.data as unknown as Record<string, unknown>;
    const fy = y.data as unknown as Record<string, unknown>;
    for (const f of Object.keys(fy)) {
      const u = fx[f];
      const v = fy[f];
      if (!ArrayBuffer.isView(v)) {
        if (u !== v) return `column ${x.name}.${f}: ${String(u)} vs ${String(v)}`;
        continue;
      }
      const p = u as unknown as ArrayLike<number>;
      const q = v as unknown as ArrayLike<number>;
      if (!ArrayBuffer.isView(u) || u.constructor !== v.constructor || p.length !== q.length)
        return `column ${x.name}.${f}: different arrays (${p?.length} vs ${q.length})`;
      for (let i = 0; i < q.length; i++)
        if (!Object.is(p[i], q[i])) return `column ${x.name}.${f}[${i}]: ${p[i]} vs ${q[i]}`;
    }
  }
  return null;
}
