// The guest side and the host loop shared by the differential tests of the fast paths: every
// expression runs on each host table and on a copy of it made of plain arrays, and the runs whose
// dumps differ are returned.
import type { Harness } from '../harness.js';

/**
 * Guest code that defines `__ser` (an exact dump of one value), `__plain` (the plain-array copy of
 * a table) and `__diff` (the expressions run on each named table and its copy); `dump` defines
 * `var __dump = (x) => ...`, the dump of one result, which each test file chooses.
 */
export function differentialHelpers(tableNames: string[], dump: string): string {
  return `
var __ser = (v) => v === undefined ? 'u' : v === null ? 'n' : typeof v === 'number' ? (Object.is(v, -0) ? '-0' : String(v))
  : v instanceof Date ? 'D' + v.getTime() : Array.isArray(v) ? '[' + v.map(__ser).join(',') + ']' : typeof v + ':' + JSON.stringify(v);
${dump}
var __plain = (t) => aq.table(Object.fromEntries(t.columnNames().map((c) => [c, t.array(c)])));
var __diff = (exprs) => {
  const out = [];
  for (const name of ${JSON.stringify(tableNames)}) {
    const T = tables[name];
    const P = __plain(T);
    for (const e of exprs) {
      const run = (x) => { try { return __dump(e(x)); } catch (err) { return 'ERR ' + err.name + ': ' + err.message; } };
      const a = run(T);
      const b = run(P);
      if (a !== b) { out.push({ table: name, expr: String(e), fast: a.slice(0, 600), plain: b.slice(0, 600) }); if (out.length > 3) return out; }
    }
  }
  return out;
};
true`;
}

/** Runs guest code once (the helpers above), failing with its error. */
export async function install(h: Harness, code: string): Promise<void> {
  const r = await h.run(code);
  if (!r.ok) throw new Error(r.error!.message);
}

/** Differences between the fast and the plain path, a few expressions per run (each run has a deadline). */
export async function diffRuns(h: Harness, exprs: string[]): Promise<unknown[]> {
  const out: unknown[] = [];
  for (let i = 0; i < exprs.length; i += 4) {
    const r = await h.run(`__diff([${exprs.slice(i, i + 4).join(',\n')}])`);
    if (!r.ok) throw new Error(`${r.error!.name}: ${r.error!.message}`);
    out.push(...(r.value as unknown[]));
  }
  return out;
}
