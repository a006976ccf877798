// Hazard: a sort whose comparator is expensive (or never returns) keeps the CPU inside
// Array.prototype.sort. Layers: the comparator is guest JavaScript, which termination reaches; the
// deadline ends it (and the holder is replaced if the sort itself ignored termination:
// builtin-ignores-termination.test.ts covers a default sort of millions).
import { describe, it } from 'vitest';
import { expectTimeoutAttack } from './helpers.js';

describe('cpu-sort-comparator', () => {
  it('a heavy comparator over a million elements: TIMEOUT by the deadline + 1 s, session reset', async () => {
    await expectTimeoutAttack(
      'const a = Array.from({ length: 1e6 }, (_, i) => i); let s = 0; a.sort((x, y) => { for (let i = 0; i < 1e3; i++) s += i; return y - x }); s',
    );
  });
  it('a comparator that never returns: TIMEOUT by the deadline + 1 s, session reset', async () => {
    await expectTimeoutAttack('[3, 2, 1].sort(() => { while (true) {} })');
  });
  it('a heavy comparator over award_data rows: TIMEOUT by the deadline + 1 s, session reset', async () => {
    await expectTimeoutAttack(
      'award_data.objects().sort(() => { let s = 0; for (let i = 0; i < 1e6; i++) s += i; return s * 0 }).length',
    );
  });
  it('sorting a typed array with a heavy comparator: TIMEOUT by the deadline + 1 s, session reset', async () => {
    await expectTimeoutAttack(
      'let s = 0; new Float64Array(1e6).map(Math.random).sort((x, y) => { for (let i = 0; i < 1e3; i++) s += i; return x - y })[0]',
    );
  });
});
