// The young generation of a session isolate (src/runtime/engines/isolated-vm/youngGeneration.ts):
// sized from the memory limit, applied to the one isolate made inside withYoungGeneration, and
// gone for the next one (the flag is process-wide). Read from the isolates' heap_size_limit, which
// V8 computes as old generation + young generation, in a fresh process with the holder's flags.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { semiSpaceMbFor, withYoungGeneration } from '../../../src/runtime/engines/isolated-vm/youngGeneration.js';

const distEngine = fileURLToPath(new URL('../../../dist/src/runtime/engines/isolated-vm/', import.meta.url));

describe('semiSpaceMbFor', () => {
  it('is a 32nd of the memory limit, 1 to 32 MB', () => {
    expect(semiSpaceMbFor(512)).toBe(16);
    expect(semiSpaceMbFor(1024)).toBe(32);
    expect(semiSpaceMbFor(8192)).toBe(32);
    expect(semiSpaceMbFor(100)).toBe(3);
    expect(semiSpaceMbFor(16)).toBe(1);
  });
});

describe('withYoungGeneration', () => {
  it("returns what create returns and passes create's error on", () => {
    expect(withYoungGeneration(512, () => 42)).toBe(42);
    expect(() =>
      withYoungGeneration(512, () => {
        throw new RangeError('no isolate');
      }),
    ).toThrow(RangeError);
  });

  it('gives the isolate made inside it a larger young generation, and only that isolate', () => {
    const script = `
      const { loadEngine } = await import(${JSON.stringify(join(distEngine, 'loadIsolatedVm.js'))});
      const { withYoungGeneration } = await import(${JSON.stringify(join(distEngine, 'youngGeneration.js'))});
      const { ivm } = loadEngine();
      const limit = (make) => { const i = make(); const b = i.getHeapStatisticsSync().heap_size_limit; i.dispose(); return b; };
      const plain = limit(() => new ivm.Isolate({ memoryLimit: 512 }));
      const sized = limit(() => withYoungGeneration(512, () => new ivm.Isolate({ memoryLimit: 512 })));
      const after = limit(() => new ivm.Isolate({ memoryLimit: 512 }));
      console.log(JSON.stringify({ plain, sized, after }));`;
    const out = execFileSync(process.execPath, ['--no-node-snapshot', '--input-type=module', '-e', script], {
      encoding: 'utf8',
    });
    const { plain, sized, after } = JSON.parse(out.trim().split('\n').pop()!) as Record<string, number>;
    // V8 counts the young generation as three semi-spaces: 3 x 16 MB against isolated-vm's 3 x 8 MB
    expect(sized - plain).toBeGreaterThan(16 * 2 ** 20);
    expect(after).toBe(plain);
  });
});
