/**
 * The first n rows of a one-key sort, chosen from the key's typed data (a host number/date column's
 * Float64Array, or a dictionary column's codes ranked once) with a bounded heap: no comparator call
 * and no value per row. The rows are those the table's stable sort puts first (ties by row index),
 * with the sort's own place for nulls and NaN: Arquero's orderby puts them below every value
 * (first ascending, last descending); sort_values puts them last, or first with na_position.
 * topN.ts then lets the table's comparator order those n rows.
 */
import type { ColumnTable } from 'arquero';
import { dictRank } from './dictRank.js';
import { plainNumberSource } from './plainNumbers.js';
import { sourceOf, type Source } from './source.js';
import { SafeMap, SafeWeakMap } from '../intrinsics.js';

/** One sort key: its column, direction, and where null/NaN go ('low': below every value, Arquero's orderby). */
export interface TopKey {
  name: string;
  desc: boolean;
  nulls: 'low' | 'last' | 'first';
}

/**
 * The rows of `t` (visible, any filter applied) that sort first under `key`, at most `end` of
 * them in no particular order, or undefined when the key is not a typed host column.
 * @example typedTop(t.orderby(aq.desc('Amount')), { name: 'Amount', desc: true, nulls: 'low' }, 10)
 */
export function typedTop(t: ColumnTable, key: TopKey, end: number): Uint32Array | undefined {
  // a plain number column under either order noted for it (topN.ts): null and undefined one tier, as
  // both comparators have them
  const host = sourceOf(t, key.name);
  const src = host ?? plainNumberSource(t, key.name);
  if (!src) return undefined;
  // every row of a host column: the rows are a function of its typed data, the key and `end`, kept
  // for the session (the caller only reads them); a re-run top-n reads them
  if (host === undefined || t.mask()) return topOf(t, src, key, end);
  const data = src.kind === 'num' ? src.values : src.codes;
  const id = `${key.desc ? 1 : 0}/${key.nulls}/${end}/${t.totalRows()}`;
  let known = keptTops.get(data);
  const rows = known?.get(id);
  if (rows !== undefined) return rows;
  const top = topOf(t, src, key, end);
  if (known === undefined) keptTops.set(data, (known = new SafeMap<string, Uint32Array>()));
  if (known.size >= 16) known.clear();
  known.set(id, top);
  return top;
}

/** The top-n rows a host column's typed data gives, by its `values` or `codes` and `desc/nulls/end/rows`. */
const keptTops = new SafeWeakMap<object, Map<string, Uint32Array>>();

function topOf(t: ColumnTable, src: Source, key: TopKey, end: number): Uint32Array {
  // tier first (0 sorts first), then x ascending, then the row: the sorted order, as numbers
  const nullTier = key.nulls === 'first' ? 0 : key.nulls === 'last' ? 2 : key.desc ? 2 : 0;
  const nanTier = key.nulls === 'low' ? 1 : nullTier;
  const valueTier = key.nulls === 'first' ? 2 : key.nulls === 'last' ? 0 : key.desc ? 0 : 2;
  const sign = key.desc ? -1 : 1;
  let tierOf: (row: number) => number;
  let xOf: (row: number) => number;
  // rank of each dictionary value in code-unit order (how < compares strings), kept for the session
  const rank = src.kind === 'dict' ? (dictRank(src.dict) ?? equalRanks(src.dict)) : new Float64Array(0);
  if (src.kind === 'num') {
    const { values, valid } = src;
    tierOf = (r) => (valid[r] === 0 ? nullTier : values[r] !== values[r] ? nanTier : valueTier);
    xOf = (r) => sign * values[r];
  } else {
    const { codes } = src;
    tierOf = (r) => (codes[r] < 0 ? nullTier : valueTier);
    xOf = (r) => sign * rank[codes[r]];
  }
  const rows = new Uint32Array(end);
  const tiers = new Uint8Array(end);
  const xs = new Float64Array(end);
  let size = 0;
  // heap entry j sorts after (tier, x, row)
  const after = (j: number, tier: number, x: number, row: number) =>
    tiers[j] > tier || (tiers[j] === tier && (xs[j] > x || (xs[j] === x && rows[j] > row)));
  const place = (j: number, row: number, tier: number, x: number) => {
    rows[j] = row;
    tiers[j] = tier;
    xs[j] = x;
  };
  // a max-heap of the best rows so far: the root sorts last of them
  const visit = (r: number) => {
    const tr = tierOf(r);
    const xr = tr === valueTier ? xOf(r) : 0;
    if (size < end) {
      let j = size++;
      while (j > 0) {
        const p = (j - 1) >> 1;
        if (after(p, tr, xr, r)) break;
        place(j, rows[p], tiers[p], xs[p]);
        j = p;
      }
      place(j, r, tr, xr);
      return;
    }
    if (size === 0 || !after(0, tr, xr, r)) return;
    let j = 0;
    for (;;) {
      const l = 2 * j + 1;
      if (l >= size) break;
      const m = l + 1 < size && after(l + 1, tiers[l], xs[l], rows[l]) ? l + 1 : l;
      if (!after(m, tr, xr, r)) break;
      place(j, rows[m], tiers[m], xs[m]);
      j = m;
    }
    place(j, r, tr, xr);
  };
  if (end === 0) return rows;
  const bits = t.mask();
  const held = bits ? (bits as unknown as { _bits?: unknown })._bits : undefined;
  const words = held instanceof Uint32Array && held.length * 32 >= t.totalRows() ? held : undefined;
  // Rows are visited in ascending order, so once the heap is full a row enters only when its
  // (tier, x) sorts strictly before the root's (an equal one has the larger row index). While the
  // root is a value, a value row enters only below its x: the loops below test that first, one
  // read and one comparison a row, and give any other row (null, NaN) the full test. Once the
  // root is in the first tier and that is not the values' (nulls or NaN first, at least `end` of
  // them), no later row can enter.
  const enters = (tr: number, x: number) => tr < tiers[0] || (tr === tiers[0] && tr === valueTier && x < xs[0]);
  if (!bits && src.kind === 'num') {
    const { values, valid } = src;
    const n = t.totalRows();
    let r = 0;
    for (; r < n && size < end; r++) visit(r);
    let lim = xs[0];
    let rootIsValue = tiers[0] === valueTier;
    for (; r < n; r++) {
      // values sort first (valueTier 0): only a row whose x is below the root's can enter
      if (rootIsValue && valueTier === 0 && (r = nextBelow(values, sign, lim, r, n)) === n) break;
      const v = values[r];
      const x = sign * v;
      if (rootIsValue) {
        if (x >= lim && valid[r] !== 0) continue;
      } else if (tiers[0] === 0) break;
      const tr = valid[r] === 0 ? nullTier : v !== v ? nanTier : valueTier;
      if (enters(tr, x)) {
        visit(r);
        lim = xs[0];
        rootIsValue = tiers[0] === valueTier;
      }
    }
  } else if (!bits && src.kind === 'dict') {
    const { codes } = src;
    const n = t.totalRows();
    let r = 0;
    for (; r < n && size < end; r++) visit(r);
    let lim = xs[0];
    let rootIsValue = tiers[0] === valueTier;
    for (; r < n; r++) {
      const c = codes[r];
      if (rootIsValue) {
        if (c >= 0 && sign * rank[c] >= lim) continue;
      } else if (tiers[0] === 0) break;
      const tr = c < 0 ? nullTier : valueTier;
      if (enters(tr, tr === valueTier ? sign * rank[c] : 0)) {
        visit(r);
        lim = xs[0];
        rootIsValue = tiers[0] === valueTier;
      }
    }
  } else if (words !== undefined) {
    // a filtered table: the same tests over the rows its mask keeps, a word at a time
    const tiersOf = { nullTier, nanTier, valueTier };
    if (src.kind === 'num') maskedNum(words, src.values, src.valid, sign, tiersOf, end, tiers, xs, visit);
    else maskedDict(words, src.codes, rank, sign, tiersOf, end, tiers, xs, visit);
  } else for (let i = bits.next(0); i >= 0; i = bits.next(i + 1)) visit(i);
  return rows.subarray(0, size);
}

/**
 * The first row from `from` whose `sign * values[row]` is not at or above `lim` (below it, or NaN),
 * else `n`: the scan of a top-n whose heap's root is a value, a function of its own so that V8
 * optimizes this one loop on the first long call.
 */
function nextBelow(values: Float64Array, sign: number, lim: number, from: number, n: number): number {
  let r = from;
  while (r < n && sign * values[r] >= lim) r++;
  return r;
}

/** Where nulls, NaN and values sort (0 first), as typedTop sets them. */
interface Tiers {
  nullTier: number;
  nanTier: number;
  valueTier: number;
}

/**
 * typedTop's scan of a filtered table over a number key: the rows its mask keeps (row i at bit
 * 31 - i % 32 of word i / 32, as Arquero's BitSet keeps them), in ascending order, with the
 * unfiltered loop's tests: once `end` rows are in the heap, a value row enters only below the
 * root's x, and once the root is in the first tier and that is not the values', no row can.
 * A function of its own, so that V8 optimizes this one loop (a BitSet's `next` and a call per row
 * took 2-3 s over 18.5M rows).
 */
function maskedNum(
  words: Uint32Array,
  values: Float64Array,
  valid: Uint8Array,
  sign: number,
  { nullTier, nanTier, valueTier }: Tiers,
  end: number,
  tiers: Uint8Array,
  xs: Float64Array,
  visit: (r: number) => void,
): void {
  let size = 0;
  let lim = 0;
  let rootIsValue = false;
  for (let k = 0; k < words.length; k++) {
    let w = words[k]!;
    while (w !== 0) {
      const c = Math.clz32(w);
      w ^= 0x80000000 >>> c;
      const r = k * 32 + c;
      if (size < end) {
        visit(r);
        size++;
        lim = xs[0]!;
        rootIsValue = tiers[0] === valueTier;
        continue;
      }
      const v = values[r]!;
      const x = sign * v;
      if (rootIsValue) {
        if (x >= lim && valid[r] !== 0) continue;
      } else if (tiers[0] === 0) return;
      const tr = valid[r] === 0 ? nullTier : v !== v ? nanTier : valueTier;
      if (tr < tiers[0]! || (tr === tiers[0] && tr === valueTier && x < xs[0]!)) {
        visit(r);
        lim = xs[0]!;
        rootIsValue = tiers[0] === valueTier;
      }
    }
  }
}

/** maskedNum over a dictionary key: `rank[code]` is the value's place, a negative code a null. */
function maskedDict(
  words: Uint32Array,
  codes: Int32Array,
  rank: ArrayLike<number>,
  sign: number,
  { nullTier, valueTier }: Tiers,
  end: number,
  tiers: Uint8Array,
  xs: Float64Array,
  visit: (r: number) => void,
): void {
  let size = 0;
  let lim = 0;
  let rootIsValue = false;
  for (let k = 0; k < words.length; k++) {
    let w = words[k]!;
    while (w !== 0) {
      const c = Math.clz32(w);
      w ^= 0x80000000 >>> c;
      const r = k * 32 + c;
      if (size < end) {
        visit(r);
        size++;
        lim = xs[0]!;
        rootIsValue = tiers[0] === valueTier;
        continue;
      }
      const code = codes[r]!;
      const x = code >= 0 ? sign * rank[code]! : 0;
      if (rootIsValue) {
        if (code >= 0 && x >= lim) continue;
      } else if (tiers[0] === 0) return;
      const tr = code < 0 ? nullTier : valueTier;
      if (tr < tiers[0]! || (tr === tiers[0] && tr === valueTier && x < xs[0]!)) {
        visit(r);
        lim = xs[0]!;
        rootIsValue = tiers[0] === valueTier;
      }
    }
  }
}

/** Ranks where equal entries share one (the first place of their run), for a dictionary that repeats a string. */
function equalRanks(dict: readonly string[]): Float64Array {
  const order = Array.from(dict.keys()).sort((a, b) => (dict[a]! < dict[b]! ? -1 : dict[a]! > dict[b]! ? 1 : 0));
  const rank = new Float64Array(dict.length);
  order.forEach((code, i) => (rank[code] = i > 0 && dict[order[i - 1]!] === dict[code] ? rank[order[i - 1]!]! : i));
  return rank;
}
