/**
 * What the code preparation (src/runtime/prepare/arrayChains.ts) and the prelude (prelude/fast/arrayChain.ts)
 * agree on for chains of array methods on `t.array(col)`. The inserted texts sit between the row-loop
 * markers (schema/rowLoop.ts), so error columns map back the same way.
 */

/**
 * The guest global a rewritten chain uses: `__sbirtools_chain.e(__sbirtools_chain.a(t.array(c)).filter(f).map(g))`;
 * `a` hands back its argument unless it is a column's array it can read from the column's typed data.
 */
export const ARRAY_CHAIN_GLOBAL = '__sbirtools_chain';

/** The fewest elements for which a chain is evaluated on the column's typed data (below, as written). */
export const ARRAY_CHAIN_MIN_LENGTH = 2048;

/**
 * How many chains' results a session keeps (prelude/fast/arrayChain.ts, most recent first): the rows
 * each kept (a byte per row) or the values each mapped to (8 bytes per row), and the array one made
 * (a pointer per element, its numbers shared with the column's). About 4 MB each at 219,590 rows.
 */
export const ARRAY_CHAIN_MEMO_ENTRIES = 4;

/** Where an insert carries the user's expression as V8 names it: `/*=a:<encoded text>*\/`. */
const NAMED = /\/\*=chain-(a|e|k|t):([^*]*)\*\//g;

/**
 * The comment a rewrite inserts after the helper's argument: how V8 names the expression it wraps
 * (`award_data.array(...)`, `award_data.array(...).filter(...)`), URI-encoded so no `*\/` ends it early.
 */
export function chainNamed(kind: 'a' | 'e' | 'k' | 't', text: string): string {
  return `/*=chain-${kind}:${encodeURIComponent(text)}*/`;
}

/**
 * A V8 message naming the wrapper (`__sbirtools_chain.a(...).filter is not a function`) with the
 * user's expression in its place, as the code as written reads; `line` is the prepared line the error
 * points into and `column` its 1-based column there. Other messages come back unchanged.
 * @example
 * repairChainMessage('__sbirtools_chain.a(...).filter is not a function', line, 30) // 'o.array(...).filter is not a function'
 */
export function repairChainMessage(message: string, line: string, column: number): string {
  if (!message.includes(`${ARRAY_CHAIN_GLOBAL}.`)) return message;
  const named: { kind: string; text: string; at: number }[] = [];
  for (const m of line.matchAll(NAMED)) named.push({ kind: m[1]!, text: m[2]!, at: m.index });
  // `(0 , h.t(...))` is how V8 names the receiver's wrapper (a sequence), `h.a(...)` the others
  const helper = new RegExp(
    `\\(0 , ${ARRAY_CHAIN_GLOBAL}\\.(t)\\(\\.\\.\\.\\)\\)|${ARRAY_CHAIN_GLOBAL}\\.(a|e|k|t)\\(\\.\\.\\.\\)`,
    'g',
  );
  return message.replace(helper, (whole, seqKind: string | undefined, plainKind: string | undefined) => {
    const kind = seqKind ?? plainKind;
    const same = named.filter((n) => n.kind === kind);
    // `t(` and `a(` close before the `.array` / `.filter` the error points to; `e(` after the whole chain
    const before = same.filter((n) => n.at < column - 1);
    const pick = kind === 'e' ? (same[before.length] ?? same[0]) : (before[before.length - 1] ?? same[0]);
    if (!pick) return whole;
    try {
      return decodeURIComponent(pick.text);
    } catch {
      return whole;
    }
  });
}
