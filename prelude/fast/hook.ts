/**
 * The entry the verb wrappers (closure/wrapVerbs.ts) call before running an Arquero verb: a fast
 * path on dictionary codes and typed arrays when the call is one it recognizes, else undefined and
 * the verb runs exactly as before. A fast path that meets anything unexpected also returns
 * undefined (never a different answer): see docs/prelude.md, "Fast paths".
 */
import { op, type ColumnTable } from 'arquero';
import { fastDerive } from './derive.js';
import { fastFilter } from './filter.js';
import { fastGroups, groupedTable } from './groups.js';
import { fastRollup } from './rollup.js';
import { noteOrder } from './topN.js';
import { keptOrderby } from './orderbyKept.js';

/** Verbs with a fast path. */
export const FAST_VERBS = new Set(['groupby', 'rollup', 'count', 'filter', 'derive', 'orderby']);

/** The verb's result on the fast path, or undefined to run Arquero's verb. */
export function fastVerb(t: ColumnTable, verb: string, args: unknown[]): ColumnTable | undefined {
  if (!FAST_VERBS.has(verb)) return undefined;
  try {
    switch (verb) {
      case 'groupby': {
        const names = args.flat();
        if (!names.every((n) => typeof n === 'string')) return undefined;
        const groups = fastGroups(t, [...new Set(names as string[])]); // Arquero keys its groups by name: a repeat is one key
        return groups && groupedTable(t, groups);
      }
      case 'rollup':
        return args.length <= 1 && emptyOk(t) ? fastRollup(t, args[0] ?? {}) : undefined;
      case 'count': {
        const o = args[0] as { as?: unknown } | undefined;
        if (args.length > 1 || (o !== undefined && (o === null || typeof o !== 'object'))) return undefined;
        const as = o?.as ?? 'count';
        return emptyOk(t) ? fastRollup(t, { [String(as)]: op.count() }) : undefined;
      }
      case 'filter':
        return args.length === 1 ? fastFilter(t, args[0]) : undefined;
      case 'derive':
        return args.length <= 2 ? fastDerive(t, args[0], args[1]) : undefined;
      case 'orderby': {
        // Arquero's own orderby with its parse kept; the mark top-n reads, as after Arquero's
        const out = keptOrderby(t, args);
        return out && afterVerb(t, 'orderby', args, out);
      }
      default:
        return undefined;
    }
  } catch {
    return undefined;
  }
}

/** Records what a fast path later needs from a verb's result (orderby: whether top-n may replace the sort). */
export function afterVerb(t: ColumnTable, verb: string, args: unknown[], out: ColumnTable): ColumnTable {
  if (verb === 'orderby') {
    try {
      noteOrder(t, out, args);
    } catch {
      /* no mark: the full sort runs */
    }
  }
  return out;
}

/** Arquero writes one row for an empty grouping (size 0): keep its path for that case. */
function emptyOk(t: ColumnTable): boolean {
  const g = t.groups() as unknown as { size: number } | null;
  return !g || g.size > 0;
}
