/**
 * pivot_table/crosstab bucketing (frame/pivot.ts) on key codes: rows are grouped by the codes of
 * the index and column keys in one pass, and the key strings the plain path builds per row
 * (`JSON.stringify` of the key values) are built once per distinct key instead. The maps come out
 * with the same keys, values, row lists and insertion order as the row-by-row scan.
 */
import type { ColumnTable } from 'arquero';
import { JSONStringify, SafeMap } from '../intrinsics.js';
import { keyCodesOf } from './groups.js';
import type { KeyCodes } from './keyCodes.js';

/**
 * What the pivot's scan fills: distinct row/column keys and the backing rows of every cell (in
 * visiting order; a cell met once is a view of one placed array, not a copy).
 */
export interface Buckets {
  rowKeys: Map<string, unknown[]>;
  colKeys: Map<string, unknown[]>;
  cells: Map<string, ArrayLike<number>>;
}

const keyOf = (v: unknown): unknown => (v instanceof Date ? `D${v.getTime()}` : v);

/**
 * Buckets of `t` by `idx` x `ckeys` (1-3 columns each, host columns), or undefined for the plain
 * path. Rows are counted per (row group, column group) cell on numbers, then laid out cell by
 * cell; the string-keyed maps get one entry per distinct cell. The margin lists (`rk|*`, `*|ck`,
 * `*|*`) are built only when asked: `rowMargins` for `rk|*` and `*|*`, `colMargins` for `*|ck`.
 */
export function fastBuckets(
  t: ColumnTable,
  idx: readonly string[],
  ckeys: readonly string[],
  rowMargins = true,
  colMargins = true,
): Buckets | undefined {
  try {
    if (idx.length < 1 || idx.length > 3 || ckeys.length > 3) return undefined;
    const ik = keyCodesOf(t, idx);
    const ck = ckeys.length ? keyCodesOf(t, ckeys) : [];
    if (!ik || !ck) return undefined;
    const rows = t.isFiltered() ? (t.indices(false) as Uint32Array) : null;
    const m = rows ? rows.length : t.totalRows();
    const rg = groupIds(ik, rows, m);
    const cg = groupIds(ck, rows, m);
    if (!rg || !cg) return undefined;
    const R = rg.first.length;
    const C = cg.first.length;
    if (R * C > 1 << 24) return undefined; // a cell table that large: the plain path's maps hold only cells met
    const name = (cols: ReturnType<ColumnTable['column']>[], row: number) => {
      const vals = cols.map((c) => c!.at(row));
      return { vals, key: JSONStringify(vals.map(keyOf)) as string };
    };
    const icols = idx.map((c) => t.column(c));
    const ccols = ckeys.map((c) => t.column(c));
    // rows per cell, counted then placed (CSR): cell = a * C + b, in visiting order within a cell
    const cellOf = new Int32Array(m);
    const count = new Int32Array(R * C + 1);
    const order: number[] = []; // cells in order of first appearance (the plain scan's map order)
    countCells(rg.ids, cg.ids, C, m, cellOf, count, order);
    prefixSums(count, R * C);
    const placed = new Uint32Array(count[R * C]);
    placeRows(cellOf, rows, m, count.slice(0, R * C), placed);
    const rk: Array<{ vals: unknown[]; key: string }> = [];
    const cks: Array<{ vals: unknown[]; key: string }> = [];
    const out: Buckets = { rowKeys: new SafeMap(), colKeys: new SafeMap(), cells: new SafeMap() };
    const lists = new SafeMap<string, number[]>(); // the cells that take rows from several places
    const append = (k: string, part: Uint32Array) => {
      const a = lists.get(k);
      if (a) {
        for (let i = 0; i < part.length; i++) a.push(part[i]);
        return;
      }
      const was = out.cells.get(k);
      if (!was) {
        out.cells.set(k, part);
        return;
      }
      const list = Array.from(was);
      for (let i = 0; i < part.length; i++) list.push(part[i]);
      lists.set(k, list);
      out.cells.set(k, list);
    };
    for (const cell of order) {
      const a = (cell / C) | 0;
      const b = cell - a * C;
      const part = placed.subarray(count[cell], count[cell + 1]);
      // key values from the first row of the cell where both keys are present (as the plain scan stores them)
      const rs = (rk[a] ??= name(icols, part[0])).key;
      const cs = (cks[b] ??= name(ccols, part[0])).key;
      if (!out.rowKeys.has(rs)) out.rowKeys.set(rs, rk[a].vals);
      if (!out.colKeys.has(cs)) out.colKeys.set(cs, cks[b].vals);
      append(`${rs}|${cs}`, part);
    }
    if (rowMargins || colMargins) {
      // margins need the rows of several cells in row order: one more pass over the visited rows
      const push = (k: string, r: number) => {
        const x = lists.get(k);
        if (x) x.push(r);
        else {
          const list = Array.from(out.cells.get(k) ?? []);
          list.push(r);
          lists.set(k, list);
          out.cells.set(k, list);
        }
      };
      marginRows(cellOf, rows, m, C, rowMargins ? rk : null, colMargins ? cks : null, push);
    }
    return out;
  } catch {
    return undefined;
  }
}

// The row loops below are functions of their own that end with the loop: V8 compiles a long loop
// while it runs (on-stack replacement) before the code after it has ever run, and that code,
// reached, throws the compiled loop away again on every later call (Node 20: pivot_table ~5x).

/** cellOf[j] = the cell (row group * C + column group) of visited row j, -1 when a key is missing; count[cell + 1] its rows; cells in order met. */
function countCells(
  ra: Int32Array,
  cb: Int32Array,
  C: number,
  m: number,
  cellOf: Int32Array,
  count: Int32Array,
  order: number[],
): void {
  for (let j = 0; j < m; j++) {
    const a = ra[j];
    const b = cb[j];
    if (a < 0 || b < 0) {
      cellOf[j] = -1;
      continue;
    }
    const cell = a * C + b;
    cellOf[j] = cell;
    if (count[cell + 1]++ === 0) order.push(cell);
  }
}

function prefixSums(count: Int32Array, n: number): void {
  for (let c = 0; c < n; c++) count[c + 1] += count[c];
}

/** Each visited row placed in its cell's run of `placed` (from `fill[cell]` on), in visiting order. */
function placeRows(
  cellOf: Int32Array,
  rows: Uint32Array | null,
  m: number,
  fill: Int32Array,
  placed: Uint32Array,
): void {
  for (let j = 0; j < m; j++) {
    const cell = cellOf[j];
    if (cell >= 0) placed[fill[cell]++] = rows ? rows[j] : j;
  }
}

/** The margin lists, row by row: `rk|*` and `*|*` when `rk` is given, `*|ck` when `cks` is. */
function marginRows(
  cellOf: Int32Array,
  rows: Uint32Array | null,
  m: number,
  C: number,
  rk: ReadonlyArray<{ key: string }> | null,
  cks: ReadonlyArray<{ key: string }> | null,
  push: (k: string, r: number) => void,
): void {
  for (let j = 0; j < m; j++) {
    const cell = cellOf[j];
    if (cell < 0) continue;
    const a = (cell / C) | 0;
    const r = rows ? rows[j] : j;
    if (rk) {
      push(`${rk[a].key}|*`, r);
      push('*|*', r);
    }
    if (cks) push(`*|${cks[cell - a * C].key}`, r);
  }
}

/**
 * Per visited row j: the id of its key combination (first-appearance order), -1 when a key part
 * is missing (null or NaN); `first[g]` is the first row of g. No key columns: one group.
 */
function groupIds(
  kc: readonly KeyCodes[],
  rows: Uint32Array | null,
  m: number,
): { ids: Int32Array; first: number[] } | undefined {
  const ids = new Int32Array(m);
  const first: number[] = [];
  let cells = 1;
  for (const k of kc) cells *= k.card;
  if (cells > Number.MAX_SAFE_INTEGER) return undefined;
  // combined codes index an array when there are few enough cells (no Map lookup per row)
  const lookup = cells <= 1 << 22 ? new Int32Array(cells).fill(-1) : null;
  assignIds(kc, rows, m, lookup, ids, first);
  return { ids, first };
}

function assignIds(
  kc: readonly KeyCodes[],
  rows: Uint32Array | null,
  m: number,
  lookup: Int32Array | null,
  ids: Int32Array,
  first: number[],
): void {
  const slot = new SafeMap<number, number>();
  for (let j = 0; j < m; j++) {
    const i = rows ? rows[j] : j;
    let code = 0;
    let scale = 1;
    let missing = false;
    for (const k of kc) {
      const x = k.codes[i];
      if (x === 0 || x === k.nan) {
        missing = true;
        break;
      }
      code += x * scale;
      scale *= k.card;
    }
    if (missing) {
      ids[j] = -1;
      continue;
    }
    let g: number | undefined;
    if (lookup) {
      g = lookup[code];
      if (g < 0) {
        lookup[code] = g = first.length;
        first.push(i);
      }
    } else {
      g = slot.get(code);
      if (g === undefined) {
        slot.set(code, (g = first.length));
        first.push(i);
      }
    }
    ids[j] = g;
  }
}
