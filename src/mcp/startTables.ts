import type { Pool } from '../sandbox/pool.js';
import { run } from '../sandbox/sandbox.js';
import type { SandboxOptions } from '../sandbox/options.js';

/**
 * One schema line per table the server was started with (`--table`, `sandbox.tables`), e.g.
 * "goals (120 rows): Agency (string), target (integer)", computed in a sandbox that loads them.
 * Empty when there are none or they cannot be described (the runs then report the error).
 * @example const lines = await startTableLines(options.sandbox);
 */
export async function startTableLines(
  sandbox: Omit<SandboxOptions, 'pool' | 'deterministic'> | undefined,
  pool?: Pool,
): Promise<string[]> {
  const names = Object.keys(sandbox?.tables ?? {});
  if (!names.length) return [];
  const code = `${JSON.stringify(names)}.map((n) => { const t = tables[n]; const d = dtypes(t); return n + ' (' + t.numRows() + ' rows): ' + Object.keys(d).map((c) => c + ' (' + d[c] + ')').join(', '); })`;
  try {
    const r = await run(code, {
      ...sandbox,
      awardData: false,
      preset: 'permissive',
      ...(pool ? { pool } : {}),
    } as Parameters<typeof run>[1]);
    return Array.isArray(r.value) ? (r.value as string[]) : [];
  } catch {
    return [];
  }
}
