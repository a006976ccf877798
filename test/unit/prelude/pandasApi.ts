// Shared setup for the pandas-semantics tests: one isolate with the fixture F defined as a global.
import { createHarness, type Harness } from './harness.js';

/**
 * F has nulls and NaN in x (both "missing" in pandas), a null key in g, a blank string and case
 * variants in s, and ties in value counts.
 */
export const F_CODE = `var F = aq.table({
  g: ['a', 'b', 'a', null, 'b', 'a', 'c'],
  x: [1, 2, NaN, 4, null, 6, 7],
  y: [10, 20, 30, 40, 50, 60, 70],
  s: ['foo', '', 'Bar', null, 'foo', 'baz', 'FOO'],
});`;

/** A harness with F defined; `value(code)` returns the run's value or throws the guest error. */
export async function pandasHarness(): Promise<Harness & { value(code: string): Promise<unknown> }> {
  const h = createHarness();
  await h.run(F_CODE);
  return Object.assign(h, {
    async value(code: string) {
      const r = await h.run(code);
      if (!r.ok) throw new Error(`${r.error!.name}: ${r.error!.message}`);
      return r.value;
    },
  });
}
