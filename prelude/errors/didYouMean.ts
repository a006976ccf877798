/** "Did you mean 'Award Amount'?" for unknown column names. */
import { GuestError } from './guestError.js';
import { NativeString } from '../intrinsics.js';

/** Levenshtein distance, O(a*b) with one row of memory. */
export function levenshtein(a: string, b: string): number {
  if (a === b) return 0;
  const row = new Array<number>(b.length + 1);
  for (let j = 0; j <= b.length; j++) row[j] = j;
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0];
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = row[j];
      row[j] = Math.min(row[j] + 1, row[j - 1] + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = tmp;
    }
  }
  return row[b.length];
}

const norm = (s: string) => s.toLowerCase().replace(/[\s_\-.]+/g, '');

/**
 * The closest candidate to `name`: case-insensitive match first, then ignoring spaces/underscores,
 * then the smallest edit distance within max(2, length/3). Undefined when nothing is close.
 * @example didYouMean('award_amount', ['Award Amount']) // 'Award Amount'
 */
export function didYouMean(name: string, candidates: readonly string[]): string | undefined {
  const lower = name.toLowerCase();
  const exact = candidates.find((c) => c.toLowerCase() === lower);
  if (exact) return exact;
  const n = norm(name);
  const loose = candidates.find((c) => norm(c) === n);
  if (loose) return loose;
  let best: string | undefined;
  let bestD = Math.max(2, Math.floor(name.length / 3)) + 1;
  for (const c of candidates) {
    const d = levenshtein(lower, c.toLowerCase());
    if (d < bestD) {
      bestD = d;
      best = c;
    }
  }
  return best;
}

/** The KeyError for an unknown column, with the suggestion and the available columns in the hint. */
export function unknownColumn(name: unknown, columns: readonly string[], where?: string): GuestError {
  const s = NativeString(name);
  const guess = didYouMean(s, columns);
  const msg = `Unknown column '${s}'${where ? ` in ${where}` : ''}` + (guess ? `. Did you mean '${guess}'?` : '');
  const list = columns.length > 40 ? columns.slice(0, 40).join("', '") + "', ..." : columns.join("', '");
  return new GuestError('KeyError', msg, `${guess ? `Use '${guess}'. ` : ''}Columns are: '${list}'.`);
}
