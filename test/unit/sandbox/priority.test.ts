import { readdirSync, readFileSync } from 'node:fs';
import { getPriority } from 'node:os';
import { describe, expect, it } from 'vitest';
import { createPool, createSandbox, SbirtoolsValidationError } from '../../../src/index.js';

/** Distinct nice values of the threads of each child process of this test (its holders). */
function childNices(): number[][] {
  const fields = (file: string) => readFileSync(file, 'utf8').split(') ')[1]!.split(' ');
  const out: number[][] = [];
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      if (Number(fields(`/proc/${pid}/stat`)[1]) !== process.pid) continue;
      out.push([
        ...new Set(readdirSync(`/proc/${pid}/task`).map((t) => Number(fields(`/proc/${pid}/task/${t}/stat`)[16]))),
      ]);
    } catch {
      // the process ended meanwhile
    }
  }
  return out.sort();
}

describe('the `priority` option', () => {
  it.skipIf(process.platform !== 'linux')(
    "puts a 'low' sandbox in a pool's holder whose every thread runs at nice + lowPriorityNice, after its isolate ran",
    async () => {
      const base = getPriority();
      await using pool = createPool({ size: 1, lowPriorityNice: 5 });
      await using low = await pool.createSandbox({ priority: 'low' });
      await using normal = await pool.createSandbox({ priority: 'normal' });
      const [a, b] = await Promise.all([
        low.run('let s = 0; for (let k = 0; k < 1e6; k++) s += k; s'),
        normal.run('7'),
      ]);
      expect([a.ok, b.value]).toEqual([true, 7]);
      expect(childNices()).toEqual([[base], [Math.min(19, base + 5)]].sort());
    },
    60_000,
  );

  it('refuses a bad value, a low priority without a holder process, and a bad lowPriorityNice, naming the value', async () => {
    await expect(createSandbox({ priority: 'idle' as never })).rejects.toThrow(
      "Expected the `priority` option to be 'normal' or 'low', got `\"idle\"`",
    );
    await expect(createSandbox({ priority: 'low', isolation: 'inline' })).rejects.toThrow(SbirtoolsValidationError);
    expect(() => createPool({ lowPriorityNice: 20 })).toThrow(
      'Expected the `lowPriorityNice` option to be an integer 0-19, got `20`',
    );
    expect(() => createPool({ lowPriorityNice: -1 })).toThrow(SbirtoolsValidationError);
  });
});
