// Hazard: typed arrays allocate their buffers outside the JavaScript heap. Layers: isolated-vm's
// array-buffer allocator counts them against memoryLimitMb and refuses past it (a RangeError the
// code can see, before any host memory is spent); the RSS watchdogs back it up.
import { describe, it } from 'vitest';
import { expectMemoryAttack } from './helpers.js';

const REFUSED = { type: 'RUNTIME_ERROR', name: 'RangeError', message: /Array buffer allocation failed/ } as const;

describe('memory-typed-arrays', () => {
  it('pushing 8 MB Float64Arrays forever: RangeError at the limit', async () => {
    await expectMemoryAttack('const a = []; while (true) a.push(new Float64Array(1e6))', REFUSED);
  });
  it('one 2 GB Float64Array: RangeError', async () => {
    await expectMemoryAttack('new Float64Array(2 ** 28).length', REFUSED);
  });
  it('a DataView over a 1 GB buffer: RangeError', async () => {
    await expectMemoryAttack('new DataView(new ArrayBuffer(2 ** 30)).byteLength', REFUSED);
  });
  it('typed-array copies of award_data columns, kept: RangeError, never host memory', async () => {
    await expectMemoryAttack(
      "const keep = []; while (true) keep.push(Float64Array.from(award_data.array('Award Amount')), new Float64Array(1e6))",
      REFUSED,
    );
  });
});
