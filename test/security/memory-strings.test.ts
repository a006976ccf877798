// Hazard: exhausting memory with many strings, or with strings that V8 must flatten. Layers: the
// heap limit, the holder's RSS watchdogs and the catastrophe handler (see memory-arrays.test.ts).
import { describe, it } from 'vitest';
import { expectMemoryAttack } from './helpers.js';

describe('memory-strings', () => {
  it('an array of distinct 1 KB strings: MEMORY_LIMIT', async () => {
    await expectMemoryAttack("const a = []; for (let i = 0; ; i++) a.push('x'.repeat(1000) + i)", {
      type: 'MEMORY_LIMIT',
    });
  });
  it('a 256 MB rope flattened by indexOf: MEMORY_LIMIT', async () => {
    await expectMemoryAttack("const s = 'x'.repeat(2 ** 28); s.indexOf('y')", { type: 'MEMORY_LIMIT' });
  });
  it('string concatenation in a loop, kept alive: MEMORY_LIMIT', async () => {
    await expectMemoryAttack(
      "const parts = []; let s = ''; for (let i = 0; ; i++) { s += 'abcdefgh' + i; if (s.length > 1e6) { parts.push(s); s = '' } }",
      { type: 'MEMORY_LIMIT' },
    );
  });
  it('JSON.stringify of a large structure, kept: MEMORY_LIMIT', async () => {
    await expectMemoryAttack(
      "const o = Array.from({ length: 1e5 }, (_, i) => ({ i, s: 'v' + i })); const keep = []; while (true) keep.push(JSON.stringify(o))",
      { type: 'MEMORY_LIMIT' },
    );
  });
});
