// Hazard: exhausting memory with arrays. Layers: isolated-vm's heap limit (memoryLimitMb); the
// holder's RSS watchdog disposes at 1.5x and ends the holder at 1.7x (sessionHost.ts); the host
// kills a holder past 2x + 512 MB (holderPool.ts); a fatal V8 OOM is caught by onCatastrophicError.
import { describe, it } from 'vitest';
import { expectMemoryAttack } from './helpers.js';

describe('memory-arrays', () => {
  it('pushing 100k-element arrays forever: MEMORY_LIMIT', async () => {
    await expectMemoryAttack('const a = []; while (true) a.push(new Array(1e5).fill(1.5))', { type: 'MEMORY_LIMIT' });
  });
  it('one growing array of objects: MEMORY_LIMIT', async () => {
    await expectMemoryAttack('const a = []; for (let i = 0; ; i++) a.push({ i, s: String(i) })', {
      type: 'MEMORY_LIMIT',
    });
  });
  it('a huge holey array filled: MEMORY_LIMIT', async () => {
    await expectMemoryAttack('const a = new Array(2 ** 30); a.fill(1.5); a.length', { type: 'MEMORY_LIMIT' });
  });
  it('Array.from of award_data rows, repeated: MEMORY_LIMIT', async () => {
    await expectMemoryAttack('const keep = []; while (true) keep.push(award_data.objects())', { type: 'MEMORY_LIMIT' });
  });
});
