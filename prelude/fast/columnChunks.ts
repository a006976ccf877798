/**
 * A scan over the values of some columns without a call per value: the visible rows of a table in
 * chunks of one text page (4,096 rows), each chunk handing the arrays that hold those rows' values
 * (a text page from the session's cache, or the column's cached array of every value). A loop then
 * reads `arrays[k][row - offsets[k]]`, the very value `column.at(row)` returns, instead of going
 * through `at()` (a getter, a page lookup and a bounds check per read). Chunks without a visible
 * row are skipped, so a narrow selection fetches only the pages it needs.
 */
import type { ColumnTable } from 'arquero';
import { ArrayBufferIsView, ArrayIsArray, ArrayPrototypeSlice, MathMin, ReflectApply } from '../intrinsics.js';
import { LazyColumn } from '../data/lazyColumn.js';
import { PAGE_SHIFT } from '../data/pagedText.js';
import type { TextPages } from '../data/textPages.js';

const CHUNK = 1 << PAGE_SHIFT;

/** Called per chunk of rows [lo, hi) that holds a visible row; row i of column k is `arrays[k][i - offsets[k]]`. */
export type ChunkVisitor = (
  lo: number,
  hi: number,
  arrays: ReadonlyArray<ArrayLike<unknown>>,
  offsets: readonly number[],
) => void;

type Src = { pages: TextPages; all: null } | { pages: null; all: ArrayLike<unknown> };

/**
 * A function that runs `visit` over the chunks of `t`'s visible rows (ascending row index, the
 * order of Arquero's unordered scan), or undefined when some column has no array to read (then
 * the caller keeps its per-row path).
 * The returned function takes `wanted(lo, hi)`, optional: false skips a chunk before its pages are read.
 * @param aligned every array starts at the chunk's first row (offsets all `lo`): whole-column
 *   arrays are sliced per chunk, for code that indexes every column with one row number
 */
export function columnChunks(
  t: ColumnTable,
  names: readonly string[],
  aligned = false,
): ((visit: ChunkVisitor, wanted?: (lo: number, hi: number) => boolean) => void) | undefined {
  const srcs: Src[] = [];
  for (const name of names) {
    const col = t.column(name) as unknown;
    if (col instanceof LazyColumn) {
      const s = col.scanSource();
      if (!s) return undefined;
      srcs.push(s.kind === 'pages' ? { pages: s.pages, all: null } : { pages: null, all: s.all });
    } else if (ArrayIsArray(col) || (ArrayBufferIsView(col) && !(col instanceof DataView))) {
      srcs.push({ pages: null, all: col as ArrayLike<unknown> }); // a plain column: at(i) is col[i]
    } else {
      return undefined;
    }
  }
  const n = t.totalRows();
  const bits = t.mask();
  return (visit, wanted) => {
    const arrays = new Array<ArrayLike<unknown>>(srcs.length);
    const offsets = new Array<number>(srcs.length);
    for (let lo = 0; lo < n; lo += CHUNK) {
      const hi = MathMin(n, lo + CHUNK);
      if (bits) {
        const first = bits.next(lo);
        if (first < 0 || first >= hi) continue;
      }
      if (wanted && !wanted(lo, hi)) continue;
      for (let k = 0; k < srcs.length; k++) {
        const s = srcs[k];
        if (s.pages) {
          arrays[k] = s.pages.page(lo >> PAGE_SHIFT);
          offsets[k] = lo;
        } else if (aligned) {
          arrays[k] = ArrayIsArray(s.all)
            ? (ReflectApply(ArrayPrototypeSlice, s.all, [lo, hi]) as unknown[])
            : (s.all as unknown as Float64Array).subarray(lo, hi);
          offsets[k] = lo;
        } else {
          arrays[k] = s.all;
          offsets[k] = 0;
        }
      }
      visit(lo, hi, arrays, offsets);
    }
  };
}

/** True when one of the columns is long text read through the session's page cache. */
export function readsTextPages(t: ColumnTable, names: Iterable<string>): boolean {
  for (const name of names) {
    const col = t.column(name) as unknown;
    if (col instanceof LazyColumn && col.textPaged) return true; // asking scanSource() would build value arrays
  }
  return false;
}
