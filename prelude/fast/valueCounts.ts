/**
 * value_counts (frame/valueCounts.ts) on key codes: the distinct values (or combinations) of 1-3
 * host dictionary/number/date columns counted in one pass over the visible rows in table order,
 * first appearance kept, without building a key per row. null and NaN are one missing key, as in
 * the plain path; 0 and -0 are one value.
 */
import type { ColumnTable } from 'arquero';
import { SafeMap, SafeWeakMap } from '../intrinsics.js';
import { combinableKeys } from './groups.js';
import { keptFilterRows } from '../frame/keptFilterRows.js';

/** Distinct keys in order of first appearance: the first row of each and its count. */
export interface FastCounts {
  firsts: number[];
  counts: number[];
}

/** One column's counts over a whole table by its key codes, [with missing, without]; callers only read them. */
const kept = new SafeWeakMap<Int32Array, [FastCounts | undefined, FastCounts | undefined]>();
/**
 * The same over the rows of a kept filter (frame/keptFilterRows.ts), by its words then the codes:
 * dropped with the filter (its words are referenced only while the session keeps it).
 */
const keptWithin = new SafeWeakMap<
  Uint32Array,
  WeakMap<Int32Array, [FastCounts | undefined, FastCounts | undefined]>
>();
/** Counts with more keys than this are not kept. */
const KEEP_KEYS = 1 << 16;

/** Counts of `names` over `t`, or undefined when a column is not a host dict/number/date column. */
export function fastValueCounts(t: ColumnTable, names: readonly string[], dropna: boolean): FastCounts | undefined {
  try {
    return count(t, names, dropna);
  } catch {
    return undefined; // never a different answer: the plain path runs
  }
}

function count(t: ColumnTable, names: readonly string[], dropna: boolean): FastCounts | undefined {
  const keys = combinableKeys(t, names);
  if (!keys) return undefined;
  const { kc, cells } = keys;
  // the rows of a kept filter: its kept index (only read) is the visiting order
  const within = t.isFiltered() && t.totalRows() === kc[0]!.codes.length ? keptFilterRows(t) : undefined;
  const rows = within ? within.index : t.isOrdered() || t.isFiltered() ? (t.indices() as Uint32Array) : null;
  if (kc.length === 1) {
    const { codes, nan, card } = kc[0]!;
    // every row of the table in storage order (or a kept filter's rows): the counts are kept for the
    // session with the column's key codes (keyCodes.ts), so a warm `award_data.Agency.value_counts()`
    // counts nothing
    const whole = !rows && t.totalRows() === codes.length;
    const perCodes = within ? keptWithin.get(within.words) : whole ? kept : undefined;
    const hit = perCodes?.get(codes)?.[dropna ? 1 : 0];
    if (hit) return hit;
    const got = countOne(codes, nan, card, rows, rows ? rows.length : t.totalRows(), dropna);
    if ((whole || within) && got.counts.length <= KEEP_KEYS) {
      let to = perCodes;
      if (to === undefined) keptWithin.set(within!.words, (to = new SafeWeakMap()));
      const both = to.get(codes) ?? [undefined, undefined];
      both[dropna ? 1 : 0] = got;
      to.set(codes, both);
    }
    return got;
  }

  // per column: code with NaN folded into null (0)
  const cols = kc.map((k) => ({ codes: k.codes, nan: k.nan, card: k.card }));
  const m = rows ? rows.length : t.totalRows();
  const firsts: number[] = [];
  const counts: number[] = [];
  const dense = cells <= 1 << 22 ? new Int32Array(cells).fill(-1) : null;
  const sparse = dense ? null : new SafeMap<number, number>();
  for (let j = 0; j < m; j++) {
    const i = rows ? rows[j] : j;
    let code = 0;
    let scale = 1;
    let missing = false;
    for (const c of cols) {
      let x = c.codes[i];
      if (x === c.nan) x = 0;
      if (x === 0) missing = true;
      code += x * scale;
      scale *= c.card;
    }
    if (missing && dropna) continue;
    let k = dense ? dense[code] : (sparse!.get(code) ?? -1);
    if (k < 0) {
      k = counts.length;
      if (dense) dense[code] = k;
      else sparse!.set(code, k);
      firsts.push(i);
      counts.push(0);
    }
    counts[k]++;
  }
  return { firsts, counts };
}

/**
 * One key column: a count per code in one pass over the visited rows (no lookup of a key per row),
 * then the codes met put in order of their first visit. The same keys, counts and order as the loop
 * above.
 */
function countOne(
  codes: Int32Array,
  nan: number,
  card: number,
  rows: Uint32Array | null,
  m: number,
  dropna: boolean,
): FastCounts {
  const per = new Int32Array(card);
  const at = new Int32Array(card); // the visit (j) that first met each code
  // each loop ends its own function: code after a loop in the same function deopted the loop's
  // compiled code on every warm call (docs/architecture.md, "Inside the prelude")
  countCodes(codes, nan, rows, m, per, at);
  const visits = Float64Array.from(metVisits(per, at, card, dropna)).sort(); // distinct visits: the keys' order of first appearance
  const firsts: number[] = [];
  const counts: number[] = [];
  keysInOrder(codes, nan, rows, visits, per, firsts, counts);
  return { firsts, counts };
}

/** The count of each code over the visited rows, and the visit that first met it. */
function countCodes(
  codes: Int32Array,
  nan: number,
  rows: Uint32Array | null,
  m: number,
  per: Int32Array,
  at: Int32Array,
): void {
  for (let j = 0; j < m; j++) {
    let x = codes[rows ? rows[j]! : j]!;
    if (x === nan) x = 0; // NaN is missing, as null
    if (per[x]++ === 0) at[x] = j;
  }
}

/** The first visit of each code met (code 0, missing, left out with dropna), in code order. */
function metVisits(per: Int32Array, at: Int32Array, card: number, dropna: boolean): number[] {
  const met: number[] = [];
  for (let x = dropna ? 1 : 0; x < card; x++) if (per[x]! > 0) met.push(at[x]!);
  return met;
}

/** Each key's first row and count, pushed in the order of `visits`. */
function keysInOrder(
  codes: Int32Array,
  nan: number,
  rows: Uint32Array | null,
  visits: Float64Array,
  per: Int32Array,
  firsts: number[],
  counts: number[],
): void {
  for (let k = 0; k < visits.length; k++) {
    const j = visits[k]!;
    const i = rows ? rows[j]! : j;
    let x = codes[i]!;
    if (x === nan) x = 0;
    firsts.push(i);
    counts.push(per[x]!);
  }
}
