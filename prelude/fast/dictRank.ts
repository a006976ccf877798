/**
 * The sorted order of a dictionary column's strings, ranked once per session: `rank[code]` is the
 * entry's place among all entries in code-unit order (how `<` and compareValues order strings).
 * Ordering groups or top-n rows by a text key then reads one number per row or group instead of
 * sorting strings again each run (Company's 186,000 entries: ~60 ms per sort).
 */
import { SafeWeakMap } from '../intrinsics.js';

/** Ranks by dictionary array (the session's decoded entries, data/dictStrings.ts); null: two entries are equal. */
const ranks = new SafeWeakMap<readonly string[], Int32Array | null>();

/**
 * Each entry's rank in code-unit order, or undefined when two entries hold the same string (their
 * rows would compare equal, which ranks cannot say).
 * @example dictRank(['b', 'a', 'c']) // Int32Array [1, 0, 2]
 */
export function dictRank(dict: readonly string[]): Int32Array | undefined {
  let r = ranks.get(dict);
  if (r === undefined) {
    r = rankOf(dict);
    ranks.set(dict, r);
  }
  return r ?? undefined;
}

/**
 * Records ranks computed elsewhere for `dict` (the host's ranks of a long-text column's codes,
 * bridge.textCodes: its entries sorted by their bytes, which is this order for them), so that
 * dictRank does not sort the strings again.
 */
export function knownDictRank(dict: readonly string[], rank: Int32Array): void {
  if (!ranks.has(dict) && rank.length === dict.length) ranks.set(dict, rank);
}

/** Whether `dict`'s ranks are already at hand (a caller that would sort only a few of its entries asks first). */
export function hasDictRank(dict: readonly string[]): boolean {
  return ranks.has(dict);
}

function rankOf(dict: readonly string[]): Int32Array | null {
  const d = dict.length;
  // the entries' indices sorted by their strings (code-unit order, as `<` compares), not the
  // strings sorted and found again through a Map of them: a 1M-entry dictionary (a long-text
  // column's host codes) took about twice as long that way
  const order = new Array<number>(d);
  for (let k = 0; k < d; k++) order[k] = k;
  order.sort((a, b) => {
    const x = dict[a]!;
    const y = dict[b]!;
    return x < y ? -1 : x > y ? 1 : 0;
  });
  return ranksOf(dict, order);
}

// the loop ends its function (docs/architecture.md, "Inside the prelude")
function ranksOf(dict: readonly string[], order: number[]): Int32Array | null {
  const rank = new Int32Array(order.length);
  for (let j = 0; j < order.length; j++) {
    if (j > 0 && dict[order[j]!] === dict[order[j - 1]!]) return null; // two entries hold one string
    rank[order[j]!] = j;
  }
  return rank;
}
