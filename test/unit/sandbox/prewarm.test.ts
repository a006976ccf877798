// prewarmSandbox() starts the default holder process before any sandbox exists, and the first
// sandbox then runs in that same process (its start-up is off the first answer's path); on its
// own it never keeps the host alive.
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { createSandbox, prewarmSandbox, shutdown } from '../../../src/index.js';
import { existingDefaultHolderPool } from '../../../src/runtime/holder/defaultHolder.js';

describe('prewarmSandbox()', () => {
  it('starts the default holder now, and the first sandbox runs in it', async () => {
    await shutdown();
    expect(existingDefaultHolderPool()?.pids() ?? []).toEqual([]);
    prewarmSandbox();
    const pids = existingDefaultHolderPool()!.pids();
    expect(pids).toHaveLength(1);
    prewarmSandbox(); // a second call starts nothing more
    expect(existingDefaultHolderPool()!.pids()).toEqual(pids);
    {
      await using box = await createSandbox();
      expect((await box.run('6 * 7')).value).toBe(42);
      expect(existingDefaultHolderPool()!.pids()).toEqual(pids);
    }
    await shutdown();
  });

  it('does not keep a process alive on its own', () => {
    const script = `import(${JSON.stringify(new URL('../../../dist/src/index.js', import.meta.url).href)}).then((m) => m.prewarmSandbox())`;
    const r = spawnSync(process.execPath, ['--no-node-snapshot', '-e', script], { timeout: 30_000, encoding: 'utf8' });
    expect(r.error).toBeUndefined();
    expect(r.status, r.stderr).toBe(0);
  });
});
