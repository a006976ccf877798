import { describe, it, expect } from 'vitest';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { EngineLoadError, loadEngine } from '../../../src/runtime/engines/isolated-vm/loadIsolatedVm.js';

const exec = promisify(execFile);
const dist = fileURLToPath(new URL('../../../dist/src/index.js', import.meta.url));

describe('engine loading', () => {
  it('loads isolated-vm 6.x, the 7.x alias or the 5.0.4 alias, whichever this Node can use', () => {
    const { name, version } = loadEngine();
    expect(['isolated-vm', 'isolated-vm-7', 'isolated-vm-legacy']).toContain(name);
    expect(version).toMatch(name === 'isolated-vm-7' ? /^7\./ : name === 'isolated-vm-legacy' ? /^5\.0\.4$/ : /^6\./);
  });

  it('names the Node version and the fix when no engine loads', () => {
    expect(() => loadEngine(['isolated-vm-does-not-exist'])).toThrow(EngineLoadError);
    try {
      loadEngine(['isolated-vm-does-not-exist']);
    } catch (err) {
      expect((err as Error).message).toContain(process.version);
      expect((err as Error).message).toMatch(/npm rebuild|Node 22/);
    }
  });
});

describe('--no-node-snapshot', () => {
  it('is not needed by the host: sandboxes run in a holder started with the flag', async () => {
    const script = `const m = await import(${JSON.stringify(dist)}); const r = await m.run('6 * 7'); console.log(r.value); await m.shutdown();`;
    const { stdout } = await exec(process.execPath, ['--input-type=module', '-e', script], {
      env: { ...process.env, NODE_OPTIONS: '' },
    });
    expect(stdout.trim()).toBe('42');
  });

  it("gives a clear error instead of a crash for isolation: 'inline' without the flag", async () => {
    const script = `const m = await import(${JSON.stringify(dist)}); try { await m.run('1', { isolation: 'inline' }); console.log('ran'); } catch (e) { console.log(e.code + ': ' + e.message); } await m.shutdown();`;
    const { stdout } = await exec(process.execPath, ['--input-type=module', '-e', script], {
      env: { ...process.env, NODE_OPTIONS: '' },
    });
    expect(stdout).toMatch(/^VALIDATION_ERROR: .*--no-node-snapshot/);
  });
});
