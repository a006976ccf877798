// Hazard: doubling a string reaches huge sizes in a few dozen steps. Layers: V8's string length
// cap ends a pure rope with a RangeError; once V8 has to flatten or copy it, the heap limit and the
// RSS watchdogs end it as MEMORY_LIMIT.
import { describe, it } from 'vitest';
import { expectMemoryAttack } from './helpers.js';

describe('memory-string-doubling', () => {
  it('s += s forever: RangeError (Invalid string length) before memory is spent', async () => {
    await expectMemoryAttack("let s = 'x'; while (true) s += s", {
      type: 'RUNTIME_ERROR',
      name: 'RangeError',
      message: /Invalid string length/,
    });
  });
  it('doubling with a flatten at each step: MEMORY_LIMIT', async () => {
    await expectMemoryAttack("let s = 'x'; while (true) { s += s; s.charCodeAt(s.length >> 1) }", {
      type: 'MEMORY_LIMIT',
    });
  });
  it('doubling through an array join: MEMORY_LIMIT', async () => {
    await expectMemoryAttack("let a = ['x']; while (true) a = [a.join(''), a.join('')]", { type: 'MEMORY_LIMIT' });
  });
});
