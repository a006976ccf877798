import { keptSum } from '../fast/presentValues.js';

/**
 * The sum of a column's packed present values, in index order: the one loop every reduction over
 * them calls (sum, mean, a fillna(0) sum). One function, so the second reduction of a session
 * (a mean after a sum) runs the loop V8 already optimised for the first, instead of a copy of it
 * interpreted cold again (docs/benchmarks.md "The prelude from a V8 snapshot (session 10)").
 * Only Float64Arrays come here: a plain array would make V8 reoptimise it for two shapes.
 * @example denseSum(new Float64Array([1.5, 2, 4])) // 7.5
 */
export function denseSum(xs: Float64Array): number {
  // a computed result whose sum was added as it was made (apply/map: fastElementwise.ts)
  const kept = keptSum(xs);
  return kept === undefined ? sumLoop(xs) : kept;
}

function sumLoop(xs: Float64Array): number {
  let sum = 0;
  for (let i = 0; i < xs.length; i++) sum += xs[i]!;
  return sum;
}
