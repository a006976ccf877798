// Hazard: Map and Set growth, and objects with millions of keys, often end in a *fatal* V8 OOM
// rather than a catchable error. Layers: onCatastrophicError (isolatedVmSession.ts) and the holder's
// exit (holderMain.ts) turn it into MEMORY_LIMIT; the RSS watchdogs bound the holder meanwhile.
import { describe, it } from 'vitest';
import { expectMemoryAttack } from './helpers.js';

describe('memory-maps', () => {
  it('a Map with integer keys: MEMORY_LIMIT', async () => {
    await expectMemoryAttack('const m = new Map(); for (let i = 0; ; i++) m.set(i, i)', { type: 'MEMORY_LIMIT' });
  });
  it('a Map with string keys and object values: MEMORY_LIMIT', async () => {
    await expectMemoryAttack("const m = new Map(); for (let i = 0; ; i++) m.set('k' + i, { i })", {
      type: 'MEMORY_LIMIT',
    });
  });
  it('a Set of numbers: MEMORY_LIMIT', async () => {
    await expectMemoryAttack('const s = new Set(); for (let i = 0; ; i++) s.add(i + 0.5)', { type: 'MEMORY_LIMIT' });
  });
  it('an object with millions of keys: MEMORY_LIMIT', async () => {
    await expectMemoryAttack("const o = {}; for (let i = 0; ; i++) o['k' + i] = i", { type: 'MEMORY_LIMIT' });
  });
});
