// Hazard: the constructor chain (`x.constructor.constructor('return this')()`) is the classic
// escape from a JavaScript sandbox: it compiles code in the realm that owns the function. Layers:
// the policy (no-prototype-access, no-dynamic-code) for the literal forms; with runtime keys the
// chain reaches only the isolate's own realm, whose global holds no host object (hardenGlobals.ts
// plus isolated-vm's separate heap).
import { describe, expect, it } from 'vitest';
import { createSandbox, run } from '../../src/index.js';
import { BYPASS, IMPORT_REFUSED, expectHealthy, expectPolicy, rt } from './helpers.js';

const HOST_NAMES = [
  'process',
  'require',
  'module',
  'exports',
  'Buffer',
  'global',
  '__dirname',
  '__filename',
  'setTimeout',
  'setImmediate',
  'structuredClone',
  'fetch',
  'eval',
  'WebAssembly',
  'SharedArrayBuffer',
  'Atomics',
  '__sbirtools_boot',
];

describe('the constructor chain', () => {
  it('the literal forms are blocked by the policy', async () => {
    expectPolicy(await run("[].constructor.constructor('return this')()"), 'no-prototype-access');
    expectPolicy(await run("new Function('return process')()"), 'no-dynamic-code');
    expectPolicy(await run("(async () => {}).constructor('return process')"), 'no-prototype-access');
  });

  it("with runtime keys it reaches the isolate's own realm: no host object under any name", async () => {
    await using box = await createSandbox();
    const r = await box.run(
      `${BYPASS} const names = ${JSON.stringify(HOST_NAMES)}; names.filter((n) => F('try { return typeof ' + n + ' !== "undefined" } catch { return false }')())`,
    );
    expect(r.error).toBeUndefined();
    expect(r.value).toEqual([]);
    const g = await box.run(`${BYPASS} ${JSON.stringify(HOST_NAMES)}.filter((n) => n in G)`);
    expect(g.value).toEqual([]);
    await expectHealthy(box);
  });

  it('every function constructor (async, generator, async generator) compiles into the same empty realm', async () => {
    await using box = await createSandbox();
    const r = await box.run(`${BYPASS}
      const AF = (async () => {})[__k]; const GF = (function* () {})[__k]; const AGF = (async function* () {})[__k];
      const a = await AF('return typeof process')();
      const g = GF('yield typeof require')().next().value;
      const ag = (await AGF('yield typeof Buffer')().next()).value;
      [a, g, ag, AF[__k] === F, G[__k][__k] === F]`);
    expect(r.error).toBeUndefined();
    expect(r.value).toEqual(['undefined', 'undefined', 'undefined', true, true]);
  });

  it('naming a host object in code built at run time is a ReferenceError', async () => {
    await using box = await createSandbox();
    for (const name of ['process', 'require', 'Buffer', 'eval']) {
      const r = await box.run(`${BYPASS} F('return ${name}')()`);
      expect(r.error?.type, name).toBe('RUNTIME_ERROR');
      expect(r.error?.name, name).toBe('ReferenceError');
    }
  });

  it("this of a sloppy function, of the global object and of an Arquero callback are the isolate's own", async () => {
    const r = await run(
      `${BYPASS} const s = F('return (function () { return this })()')(); const a = award_data.filter(function () { return true }).numRows(); [s === G, ${rt('process')} in s, a > 0]`,
    );
    expect(r.value).toEqual([true, false, true]);
  });

  it('import.meta and import() in built code cannot load anything', async () => {
    await using box = await createSandbox();
    const meta = await box.run(`${BYPASS} F('return import.meta')()`);
    expect(meta.error?.type).toBe('RUNTIME_ERROR');
    expect(meta.error?.name).toBe('SyntaxError');
    const dyn = await box.run(`${BYPASS} await F('return import("node:fs")')().then(() => 'loaded', (e) => e.message)`);
    expect(dyn.value).toMatch(IMPORT_REFUSED);
    await expectHealthy(box);
  });
});
