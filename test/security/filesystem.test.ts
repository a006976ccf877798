// Hazard: reading or writing host files. Layers: the policy (no-io, no-module-globals, no-import);
// the isolate has no fs, no module loader and no fetch; Arquero's loaders inside the isolate find
// nothing to load with. Only the host opens files (the caller's dataPath/tables).
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSandbox, run } from '../../src/index.js';
import { BYPASS, expectHealthy, expectPolicy, rt } from './helpers.js';

describe('the filesystem', () => {
  it('fs by name is blocked by the policy', async () => {
    expectPolicy(await run("fs.readFileSync('/etc/passwd')"), 'no-io');
    expectPolicy(await run("require('fs').writeFileSync('/tmp/x', 'y')"), 'no-module-globals');
  });

  it('bypassed: nothing in the isolate reads or writes a file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sbirtools-fs-'));
    const secret = join(dir, 'secret.csv');
    const target = join(dir, 'written.txt');
    writeFileSync(secret, 'a,b\nTOP-SECRET-ROW,1\n');
    try {
      await using box = await createSandbox({ timeoutMs: 3000 });
      for (const code of [
        `await aq.loadCSV(${JSON.stringify(secret)})`,
        `await aq.load(${JSON.stringify('file://' + secret)})`,
        `${BYPASS} await G[${rt('fetch')}](${JSON.stringify('file://' + secret)})`,
        `${BYPASS} await F('return import(${JSON.stringify(secret).replace(/"/g, "\\'")})')()`,
        `${BYPASS} F('return require("fs")')().writeFileSync(${JSON.stringify(target)}, 'x')`,
        `aq.fromCSV(${JSON.stringify(secret)}).objects()`,
      ]) {
        const r = await box.run(code);
        expect(JSON.stringify(r), code).not.toContain('TOP-SECRET-ROW');
      }
      expect(existsSync(target)).toBe(false);
      await expectHealthy(box);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("Arquero's loaders reject inside the isolate (RUNTIME_ERROR, no host path in the message)", async () => {
    const r = await run("await aq.loadCSV('/etc/passwd')");
    expect(r.error?.type).toBe('RUNTIME_ERROR');
    expect(r.error?.message).not.toMatch(/root:/);
  });
});
