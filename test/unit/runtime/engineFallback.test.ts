// A host where no isolated-vm build loads (simulated by a preload that hides every build): 'auto'
// falls back to the QuickJS WASM engine and says so once; 'isolated-vm' is an ENGINE_UNAVAILABLE
// error that names the fix, thrown by createSandbox (the caller's choice cannot be met).
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const exec = promisify(execFile);
const dist = fileURLToPath(new URL('../../../dist/src/index.js', import.meta.url));
const hide = fileURLToPath(new URL('../../fixtures/hide-isolated-vm.cjs', import.meta.url));

async function inProcess(body: string): Promise<{ stdout: string; stderr: string }> {
  const script = `const m = await import(${JSON.stringify(dist)}); ${body} await m.shutdown();`;
  return exec(process.execPath, ['--no-node-snapshot', '--require', hide, '--input-type=module', '-e', script], {
    env: { ...process.env, NODE_OPTIONS: '' },
  });
}

describe('no native engine loads', () => {
  it("'auto' answers with the QuickJS engine and warns once that it fell back", async () => {
    const { stdout, stderr } = await inProcess(
      "for (let i = 0; i < 2; i++) { const r = await m.run('6 * 7', { isolation: 'inline' }); console.log(r.value, r.engine.name); }",
    );
    expect(stdout.trim().split('\n')).toEqual(['42 quickjs', '42 quickjs']);
    expect(
      stderr.match(
        /\[SBIRTOOLS_ENGINE_FALLBACK\] Warning: sbirtools: no isolated-vm build loads on Node v\d+[^,]*, so engine 'auto' runs code on the QuickJS WASM engine/g,
      ),
    ).toHaveLength(1);
    // the reason (the addon's load error) and the fix are in the one warning
    expect(stderr).toMatch(/Why: isolated-vm: Cannot find module 'isolated-vm' \(hidden by the test\)/);
    expect(stderr).toMatch(/Fix: .*npm (install|rebuild) isolated-vm/);
  });

  it("'isolated-vm' throws ENGINE_UNAVAILABLE naming Node, the fix and the WASM alternative", async () => {
    const { stdout } = await inProcess(
      "try { await m.run('1', { isolation: 'inline', engine: 'isolated-vm' }); console.log('ran'); } catch (e) { console.log(e.code + ': ' + e.message); }",
    );
    expect(stdout).toMatch(/^ENGINE_UNAVAILABLE: No isolated-vm engine loads on Node v\d+/);
    expect(stdout).toMatch(/npm rebuild isolated-vm isolated-vm-7 isolated-vm-legacy/);
    expect(stdout).toMatch(/engine: 'quickjs'/);
  });
});
