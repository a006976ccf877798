/**
 * The index-loop form of a keyed accumulation loop (src/runtime/prepare/keyedLoops.ts):
 *   const ag = t.array('Agency'), amt = t.array('Award Amount'); const totals = new Map();
 *   for (let i = 0; i < ag.length; i++) totals.set(ag[i], (totals.get(ag[i]) || 0) + (amt[i] || 0));
 * runs as `if (!__sbirtools_rowLoop.keyed(spec, totals, [ag, amt])) for (...) ...`. The arrays are
 * read through their columns (data/keyedLoop.ts) when each is one `t.array(col)` handed out over
 * every row of an unfiltered table (data/columnArrays.ts `arrayOrigin`), still an array of the
 * session's, as long as the first, and still holding the column's values (a run may have written
 * into it: checked by the kernel as it reads them, before anything is written): the loop then reads
 * nothing else.
 */
import { ArrayIsArray, NativeArray, ObjectGetPrototypeOf } from '../intrinsics.js';
import { columnSource, type Source } from '../fast/source.js';
import { arrayOrigin, keptValuesOrigin } from './columnArrays.js';
import { keyedLoop } from './keyedLoop.js';
import { arrayIterationIntact } from './rowLoop.js';

/**
 * `__sbirtools_rowLoop.keyed(spec, target, arrays)`: true when the loop over `arrays` (the one its
 * `i < arrays[0].length` bounds first) was answered into `target`; false, with nothing written or
 * run, when it must run as written.
 */
export function keyedArrays(spec: unknown, target: unknown, arrays: unknown, iter?: unknown): boolean {
  if (!ArrayIsArray(arrays) || arrays.length === 0) return false;
  // `for (const v of xs)` (iter 1): the loop as written would run the session's array iterator
  if (iter === 1 && (arrays.length !== 1 || !arrayIterationIntact())) return false;
  const first = arrays[0] as unknown;
  if (!ArrayIsArray(first)) return false;
  const n = first.length;
  const srcs: Source[] = [];
  const read: unknown[][] = [];
  const kept: ArrayLike<unknown>[] = [];
  let copied = false;
  for (let k = 0; k < arrays.length; k++) {
    const xs = arrays[k] as unknown;
    // arrayOrigin and keptValuesOrigin know arrays by identity: never a Proxy
    const copy = xs !== null && typeof xs === 'object' ? arrayOrigin(xs) : undefined;
    // or the column's kept values themselves, handed to a local only read in bounds (prepare/sharedArrays.ts)
    const col = copy ?? (xs !== null && typeof xs === 'object' ? keptValuesOrigin(xs) : undefined);
    if (col === undefined || ObjectGetPrototypeOf(xs) !== NativeArray.prototype) return false;
    const list = xs as unknown[];
    if (list.length !== n || col.length !== n || col.type === 'date') return false;
    const src = columnSource(col);
    const scan = src === undefined ? null : col.scanSource();
    if (src === undefined || scan === null || scan.kind !== 'all' || scan.all.length !== n) return false;
    if (copy === undefined && scan.all !== xs) return false;
    copied ||= copy !== undefined;
    srcs[k] = src;
    read[k] = list;
    kept[k] = scan.all;
  }
  // the kernel checks that each copy it reads still holds the values it was copied from (the kept
  // values themselves, read in place, need no look)
  return keyedLoop(spec, target, srcs, null, n, copied ? { xs: read, kept } : null);
}
