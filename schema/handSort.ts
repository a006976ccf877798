/**
 * What the code preparation (src/runtime/prepare/sortCalls.ts) and the prelude (prelude/fast/handSort.ts)
 * agree on for the sorts and `Math.min`/`Math.max` spreads user code writes by hand. The inserted
 * texts sit between the row-loop markers (schema/rowLoop.ts), so error columns map back the same way.
 */

import { INSERTED_CLOSE, INSERTED_OPEN } from './rowLoop.js';

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

/**
 * The most elements for which the min/max scan is taken: a spread of more runs as written, so it
 * throws its RangeError where it would. V8 in the sandbox takes about 1,044,000 arguments from the top
 * level (less as the stack fills: about 989,000 under 5,000 frames); this is a quarter of that, so a
 * call that the scan answers is one the spread as written answers too unless the stack already holds
 * about 6 MB. On QuickJS (an interpreter, at most 65,534 arguments) the native calls are faster and
 * every spread runs as written.
 */
export const HAND_SPREAD_MAX_LENGTH = 262_144;

/**
 * The sorts the session keeps with their input (prelude/fast/sortMemo.ts), so that the same numbers
 * sorted again read the answer: from this many keys (below, sorting costs about what comparing does),
 * up to HAND_SORT_MEMO_MAX_LENGTH keys, the last HAND_SORT_MEMO_ENTRIES of them (16 bytes held per key).
 */
export const HAND_SORT_MEMO_MIN_LENGTH = 16_384;
export const HAND_SORT_MEMO_MAX_LENGTH = 1_048_576;
export const HAND_SORT_MEMO_ENTRIES = 2;

/**
 * Ends the closing insert of a plain `by(...)` wrapper around an X whose member chain holds no call
 * (sortCalls.ts): V8 then reports a failed `.sort` read at the dot, where the user's code reports it
 * at the name (see nameColumn).
 */
export const AT_NAME = '/*@name*/';

/**
 * The 1-based column of a prepared line to report for V8's `Cannot read properties of null
 * (reading 'sort')` when it points at the dot after a wrapper marked AT_NAME: the property name's,
 * as for the call as written. Any other error or place keeps `column`.
 */
export function nameColumn(message: string, line: string, column: number): number {
  if (!/^Cannot read properties of (?:null|undefined) \(reading 'sort'\)$/.test(message)) return column;
  if (line[column - 1] !== '.') return column;
  const before = line.slice(0, column - 1);
  const open = before.lastIndexOf(INSERTED_OPEN);
  if (!before.endsWith(INSERTED_CLOSE) || open < 0 || !before.slice(open).includes(AT_NAME)) return column;
  let c = column;
  while (line[c] === ' ' || line[c] === '\t') c++;
  return c + 1;
}

/** Where an insert carries the user's expression as V8 names it: `/*=by:<encoded text>*\/`. */
const NAMED = /\/\*=(by|min|max):([^*]*)\*\//g;

/**
 * The comment a rewrite inserts after its helper's arguments: how V8 names the expression the helper
 * wraps (calleeText), URI-encoded so no `*\/` can end the comment early.
 */
export function namedInsert(kind: 'by' | 'min' | 'max', text: string): string {
  return `/*=${kind}:${encodeURIComponent(text)}*/`;
}

/**
 * A V8 message about a wrapped expression (`__sbirtools_sort.by(...).sort is not a function`,
 * `__sbirtools_sort.min(...) is not iterable`) with the helper's name replaced by the user's
 * expression, as the call as written reads; `line` is the prepared line the error points into and
 * `column` its 1-based column there. Other messages come back unchanged.
 * @example
 * repairMessage('__sbirtools_sort.by(...).sort is not a function', line, 40) // 'award_data.Award Amount.sort is not a function'
 */
export function repairMessage(message: string, line: string, column: number): string {
  if (!message.includes(`${HAND_SORT_GLOBAL}.`)) return message;
  const named: { kind: string; text: string; at: number }[] = [];
  for (const m of line.matchAll(NAMED)) named.push({ kind: m[1]!, text: m[2]!, at: m.index });
  // `(0 , h.by(...))` is how V8 names the wrapper in a sequence (sortCalls.ts), `h.by(...)` the plain one
  const helper = new RegExp(
    `\\(0 , ${HAND_SORT_GLOBAL}\\.(by)\\(\\.\\.\\.\\)\\)|${HAND_SORT_GLOBAL}\\.(by|min|max)\\(\\.\\.\\.\\)`,
  );
  return message.replace(helper, (whole, seqKind: string | undefined, plainKind: string | undefined) => {
    const kind = seqKind ?? plainKind;
    const same = named.filter((n) => n.kind === kind);
    // the last insert before the column the error points to, else the first on the line
    const before = same.filter((n) => n.at < column - 1);
    const pick = before[before.length - 1] ?? same[0];
    if (!pick) return whole;
    try {
      return decodeURIComponent(pick.text);
    } catch {
      return whole;
    }
  });
}
