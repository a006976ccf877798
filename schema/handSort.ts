/**
 * What the code preparation (src/runtime/prepare/sortCalls.ts) and the prelude (prelude/fast/handSort.ts)
 * agree on for the sorts and `Math.min`/`Math.max` spreads user code writes by hand. The inserted
 * texts sit between the row-loop markers (schema/rowLoop.ts), so error columns map back the same way.
 */

/**
 * The guest global a rewritten call uses: `__sbirtools_sort.by(xs, desc, key).sort(cmp)` and
 * `Math.min(...__sbirtools_sort.min(xs))` (or `.max`).
 */
export const HAND_SORT_GLOBAL = '__sbirtools_sort';

/**
 * The fewest elements for which the fast sort beats the native one (bench/sort-micro.mjs: the radix
 * sort's four 65,536-slot counting passes cost more than comparator calls below a few thousand).
 */
export const HAND_SORT_MIN_LENGTH = 4096;

/** The fewest elements for which the min/max scan is taken (below it the native spread is as fast). */
export const HAND_SPREAD_MIN_LENGTH = 1024;
