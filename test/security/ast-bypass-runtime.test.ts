// Every known static gap of the policy layer (known-static-gaps.ts, docs/security.md) run in a real
// isolate, in each preset that lets it through: each must gain nothing. The AST check cannot see
// runtime strings, so this is the boundary's own test: whatever the gap reaches is an intrinsic of
// the isolate's realm, with no host object behind it.
import { describe, expect, it } from 'vitest';
import { createSandbox } from '../../src/index.js';
import { KNOWN_STATIC_GAPS } from './known-static-gaps.js';
import { expectHealthy } from './helpers.js';

/** The harmless outcome of each gap's program (value, or table for the expression-string gap). */
const EXPECTED: Record<string, (r: Awaited<ReturnType<Awaited<ReturnType<typeof createSandbox>>['run']>>) => void> = {
  'runtime-computed-key': (r) => expect(r.value).toBe('undefined'), // typeof process inside the isolate
  'char-code-key': (r) => expect(r.value).toBe('[Function Array]'),
  'to-string-coercion-key': (r) => expect(r.value).toBe('[Function Array]'),
  'tagged-template-key': (r) => expect(r.value).toBe('[Function Array]'),
  'runtime-stack-trace-hook': (r) => expect(r.value).toBe('[Function Error]'),
  'runtime-expression-string': (r) => {
    expect(r.table?.columns).toContain('y');
    expect(r.table?.totalRows).toBeGreaterThan(0);
  },
  'runtime-timer-string': (r) => expect(r.value).toBe(false), // there is no setTimeout
  'reflect-with-runtime-key': (r) => expect(r.value).toEqual([]), // Array.prototype, serialized as an empty array
  'getter-on-prototype': (r) => expect(r.value).toBe(1),
  'descriptor-probe': (r) => expect(r.value).toEqual(['constructor']),
  'proxy-traps': (r) => expect(r.value).toBe('anything'),
  'sloppy-function-this': (r) => expect(r.value).toBe('object'), // the isolate's own award_data
  'arguments-computed-index': (r) => expect(r.value).toBe('[Function (anonymous)]'),
  'internals-by-runtime-key': (r) => expect(r.value).toBe('object'), // its own session's kept values only
};

describe('known static gaps, run in a real isolate', () => {
  it('every gap has an expected outcome here', () => {
    expect(Object.keys(EXPECTED).sort()).toEqual(KNOWN_STATIC_GAPS.map((g) => g.id).sort());
  });

  for (const gap of KNOWN_STATIC_GAPS) {
    it(`${gap.id}: passes the policy in ${gap.missedIn.join(', ')} and gains nothing`, async () => {
      for (const preset of gap.missedIn) {
        await using box = await createSandbox({ preset, timeoutMs: 3000 });
        const r = await box.run(gap.code);
        expect(r.error, `${preset}: ${JSON.stringify(r.error)}`).toBeUndefined();
        EXPECTED[gap.id]!(r);
        expect(JSON.stringify(r)).not.toMatch(/\/work\/|node_modules|file:\/\/|process\.env/);
        // the session keeps working
        expect((await box.run('6 * 7')).value).toBe(42);
      }
      await expectHealthy();
    });
  }
});
