/**
 * A number column's values as a plain array, null where `valid` is 0 (every row when `valid` is
 * null), for the session's boxed values (lazyColumn.ts) and the arrays of array chains
 * (fast/arrayChain.ts, which repeats the store inline).
 *
 * A value that is an integer in int32 (years, counts, most dollar amounts) is stored as `v | 0`: the
 * same number (-0 is stored as it is), but V8 keeps it in the array as a small integer. A value read
 * from a Float64Array in a loop that runs cold (the interpreter: a column boxed on a session's first
 * run) is a new heap number otherwise, 16 bytes each, which the scavenges then copy: in a fresh
 * isolate the loop over 219,590 amounts took about half as long storing small integers (docs/
 * benchmarks.md "A fresh session's first run: where the check and the isolate go, and small integers
 * in boxed columns (session 24)"). Whether a number is a small integer or a heap number cannot be
 * seen by any code.
 * @example boxNumbers(new Float64Array([2015, 1.5, -0]), new Uint8Array([1, 1, 0]), 3) // [2015, 1.5, null]
 */
export function boxNumbers(values: Float64Array, valid: Uint8Array | null, n: number): unknown[] {
  const out = new Array<unknown>(n);
  if (valid === null)
    for (let i = 0; i < n; i++) {
      const v = values[i]!;
      const x = v | 0;
      out[i] = x === v && (x !== 0 || 1 / v > 0) ? x : v;
    }
  else
    for (let i = 0; i < n; i++) {
      if (valid[i]) {
        const v = values[i]!;
        const x = v | 0;
        out[i] = x === v && (x !== 0 || 1 / v > 0) ? x : v;
      } else out[i] = null;
    }
  return out;
}
