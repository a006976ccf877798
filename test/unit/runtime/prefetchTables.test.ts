// The holder decodes the columns a run names in its lazily decoded tables before the run starts
// (src/runtime/holder/prefetchTables.ts), bounded by the run's time left.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TableProvider } from '../../../src/runtime/engines/engineSession.js';
import { prefetchTables, prefetchTimeout } from '../../../src/runtime/holder/prefetchTables.js';

/** The clock prefetchTables reads: moved only by the tables' prefetches, never by the machine. */
let now = 0;
beforeEach(() => {
  now = 1_000;
  vi.spyOn(performance, 'now').mockImplementation(() => now);
});
afterEach(() => {
  vi.restoreAllMocks();
});

/** A table whose prefetch records its call and takes `ms` of the (controlled) clock. */
function table(calls: Array<[string, readonly string[], number]>, name: string, ms: number): TableProvider {
  return {
    meta: { name, numRows: 0, columns: [] },
    loadColumn: () => {
      throw new Error('not here');
    },
    prefetch: (names, withinMs) => {
      calls.push([name, names, withinMs]);
      now += ms;
    },
  };
}

describe('prefetchTables', () => {
  it('hands every table the names and the time left, and says how long it took', () => {
    const calls: Array<[string, readonly string[], number]> = [];
    const spent = prefetchTables([table(calls, 'a', 5), table(calls, 'b', 0)], ['Agency', 'Amount'], 60_000);
    expect(calls.map(([n, names]) => [n, names])).toEqual([
      ['a', ['Agency', 'Amount']],
      ['b', ['Agency', 'Amount']],
    ]);
    expect(calls.map(([, , ms]) => ms)).toEqual([60_000, 59_995]);
    expect(spent).toBe(5);
  });

  it('stops once the run has no time left, and does nothing when the code does not parse', () => {
    const calls: Array<[string, readonly string[], number]> = [];
    expect(prefetchTables([table(calls, 'a', 20), table(calls, 'b', 0)], ['x', 'y'], 10)).toBe(20);
    expect(calls.map(([n]) => n)).toEqual(['a']);
    calls.length = 0;
    expect(prefetchTables([table(calls, 'a', 0)], null, 60_000)).toBe(0);
    expect(calls).toEqual([]);
  });
});

describe('prefetchTimeout', () => {
  it('a TIMEOUT that says the code did not run, names the limit and the setting, and keeps the session', () => {
    const e = prefetchTimeout(30_000);
    expect(e.type).toBe('TIMEOUT');
    expect(e.message).toMatch(/30000 ms/);
    expect(e.message).toMatch(/did not run/);
    expect(e.hint).toMatch(/timeoutMs/);
    expect(e.hint).toMatch(/session state is kept/);
  });
});
