// Hazard: `require`, `import`, `import()` and `import.meta` are the routes from sandboxed code to
// Node's modules. Layers: the policy (no-import, no-module-globals) with hints; the isolate has no
// module loader (isolated-vm refuses dynamic import) and no CommonJS globals.
import { describe, expect, it } from 'vitest';
import { createSandbox, run } from '../../src/index.js';
import { BYPASS, ENGINE, IMPORT_REFUSED, expectHealthy, expectPolicy, rt } from './helpers.js';

describe('require and import', () => {
  for (const [code, rule] of [
    ["require('fs')", 'no-module-globals'],
    ["module.require('child_process')", 'no-module-globals'],
    ["import fs from 'node:fs'", 'no-import'],
    ["import('node:fs')", 'no-import'],
    ['import.meta.url', 'no-import'],
    ["const { execSync } = require('child_process'); execSync('id')", 'no-module-globals'],
  ] as const) {
    it(`${code}: POLICY_VIOLATION ${rule}`, async () => {
      expectPolicy(await run(code), rule);
    });
  }

  it('bypassed: require, module and exports do not exist', async () => {
    const r = await run(
      `${BYPASS} [typeof G[${rt('require')}], typeof G[${rt('module')}], typeof G[${rt('exports')}], F('return typeof require')()]`,
    );
    expect(r.value).toEqual(['undefined', 'undefined', 'undefined', 'undefined']);
  });

  it('bypassed: a dynamic import is refused by the engine', async () => {
    await using box = await createSandbox();
    const caught = await box.run(
      `${BYPASS} await F('return import("node:child_process")')().then(() => 'loaded', (e) => e.message)`,
    );
    expect(caught.value).toMatch(IMPORT_REFUSED);
    const loose = await box.run(`${BYPASS} F('return import("node:fs")')(); 1`);
    if (ENGINE === 'isolated-vm') {
      expect(loose.error?.type).toBe('RUNTIME_ERROR');
      expect(loose.error?.message).toMatch(/Unhandled promise rejection: Not supported/);
    } else {
      // QuickJS drops a rejection nobody handles (docs/engines.md): the import still loaded nothing
      expect(loose.value).toBe(1);
    }
    const relative = await box.run(
      `${BYPASS} await F('return import("../../package.json")')().then(() => 'loaded', (e) => e.message)`,
    );
    expect(relative.value).toMatch(IMPORT_REFUSED);
    await expectHealthy(box);
  });
});
