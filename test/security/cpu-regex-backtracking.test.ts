// Hazard: catastrophic regular-expression backtracking (ReDoS) burns the CPU inside one builtin
// call. Layers: V8's irregexp checks for interrupts, so the deadline (isolatedVmSession.ts) ends it.
import { describe, it } from 'vitest';
import { expectTimeoutAttack } from './helpers.js';

describe('cpu-regex-backtracking', () => {
  it("(a+)+$ on 40 a's and a b: TIMEOUT by the deadline + 1 s, session reset", async () => {
    await expectTimeoutAttack("/^(a+)+$/.test('a'.repeat(40) + 'b')");
  });
  it('(a|aa)+$ on a long input: TIMEOUT by the deadline + 1 s, session reset', async () => {
    await expectTimeoutAttack("/(a|aa)+$/.test('a'.repeat(5e4) + 'b')");
  });
  it('nested quantifiers over words: TIMEOUT by the deadline + 1 s, session reset', async () => {
    await expectTimeoutAttack("/^(\\w+\\s?)*$/.test('word '.repeat(12) + 'a'.repeat(20) + '!')");
  });
  it('ReDoS inside an Arquero filter: TIMEOUT by the deadline + 1 s, session reset', async () => {
    await expectTimeoutAttack("award_data.filter((d) => /^(a+)+$/.test('a'.repeat(40) + 'b')).numRows()");
  });
});
