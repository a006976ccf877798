// Hazard: reused contexts keep everything: prototype pollution, replaced builtins, global writes
// and mutated table columns persist. That is the point of a session (notebook semantics), so it
// must hold within one session and never leak to another session, to a later fresh run, or to the
// host. Layers: one isolate (own heap, own realm) per session (isolatedVmSession.ts); columns are copied
// into each isolate (fetchColumn); spare isolates never ran user code (warmSessions.ts); a reset
// after TIMEOUT/MEMORY_LIMIT starts from a clean isolate.
import { describe, expect, it } from 'vitest';
import { createSandbox, RunResultSchema } from '../../src/index.js';
import { BYPASS, expectHealthy, rt } from './helpers.js';

const MUTATE = `${BYPASS}
  G.Object[${rt('prototype')}].polluted = 'yes';
  G.Array[${rt('prototype')}].polluted = 'yes';
  Math.max = () => 42;
  JSON.stringify = () => 'hijacked';
  var leaked = 'global var';
  G.leakedViaG = 'global object write';
  const col = award_data.column('Award Amount'); col.data().values[0] = -12345;
  award_data = award_data.derive({ 'Award Amount': () => -1 });
  'mutated'`;

const PROBE =
  "[typeof ({}).polluted, typeof [].polluted, Math.max(1, 2), JSON.stringify({ a: 1 }), typeof leaked, typeof leakedViaG, award_data.get('Award Amount', 0), award_data.column('Award Amount').at(0)]";

describe('state within and across sessions', () => {
  it('persists within its session, never reaches another session, a fresh run or the host', async () => {
    await using a = await createSandbox();
    await using b = await createSandbox(); // same holder process as a (the default holder)
    const original = (await b.run(PROBE)).value as unknown[];
    expect(original.slice(0, 6)).toEqual(['undefined', 'undefined', 2, '{"a":1}', 'undefined', 'undefined']);
    const amount = original[6];
    expect(typeof amount).toBe('number');

    expect((await a.run(MUTATE)).value).toBe('mutated');
    // within the session: everything persists (the result still serializes: the prelude uses captured builtins)
    const within = await a.run(PROBE);
    expect(within.error).toBeUndefined();
    expect(within.value).toEqual(['string', 'string', 42, 'hijacked', 'string', 'string', -1, -1]);

    // another live session and a later fresh run see none of it
    expect((await b.run(PROBE)).value).toEqual(original);
    await expectHealthy(b);
    const later = await createSandbox();
    expect((await later.run(PROBE)).value).toEqual(original);
    await later.close();

    // nor does the host
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
    expect(Math.max(1, 2)).toBe(2);
    expect(JSON.stringify({ a: 1 })).toBe('{"a":1}');
  });

  it("a reset after TIMEOUT drops the session's own pollution", async () => {
    await using a = await createSandbox({ timeoutMs: 1500 });
    await a.run(MUTATE);
    expect((await a.run('while (true) {}')).error?.type).toBe('TIMEOUT');
    const after = await a.run(PROBE);
    expect(after.sessionReset).toBe(true);
    expect((after.value as unknown[]).slice(0, 6)).toEqual([
      'undefined',
      'undefined',
      2,
      '{"a":1}',
      'undefined',
      'undefined',
    ]);
  });

  it('the prelude keeps returning valid results in a session whose builtins are replaced', async () => {
    await using a = await createSandbox();
    await a.run(
      `${BYPASS} G.Object.keys = () => { throw new Error('no') }; G.Array.isArray = () => false; G.JSON.parse = () => 0`,
    );
    const r = await a.run("({ rows: [1, 2], name: 'n' })");
    expect(r.error).toBeUndefined();
    expect(r.value).toEqual({ rows: [1, 2], name: 'n' });
    // replacing a global the prelude does not capture (String) garbles this session's own messages,
    // but the host still gets a valid, typed result, and nothing else is affected
    await a.run(`G.String = () => 'x'`);
    const garbled = await a.run('({ a: 1 })');
    expect(RunResultSchema.safeParse(garbled).success).toBe(true);
    expect(garbled.error?.type).not.toBe('INTERNAL_ERROR');
    await expectHealthy();
  });
});
