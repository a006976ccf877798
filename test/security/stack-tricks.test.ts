// Hazard: stack machinery as an escape or a leak: Error.prepareStackTrace hands out CallSite
// objects (getThis/getFunction can return the functions and receivers of every frame, including the
// runtime's own), captureStackTrace decorates arbitrary objects, stackTraceLimit changes what gets
// formatted, and a stack frame could name a host path. Layers: the policy (no-stack-trace-hooks);
// the prelude runs in strict mode (CallSites give no function or receiver for its frames); the
// prelude and user code are named scripts (sbirtools-prelude.js, analysis.js), never host paths;
// guest errors are formatted inside the isolate, with user frames only.
import { describe, expect, it } from 'vitest';
import { createSandbox, run } from '../../src/index.js';
import { BYPASS, expectHealthy, expectPolicy, rt } from './helpers.js';

const HOOK = rt('prepareStackTrace');
const HOST_PATH = /\/work\/|\/home\/|\/root\/|\/tmp\/|node_modules|file:\/\/|\bdist\//;

describe('stack tricks', () => {
  it('hooks named literally are blocked by the policy', async () => {
    expectPolicy(await run('Error.prepareStackTrace = (e, s) => s'), 'no-stack-trace-hooks');
    expectPolicy(await run('Error.stackTraceLimit = Infinity'), 'no-stack-trace-hooks');
    expectPolicy(await run('Error.captureStackTrace = () => {}'), 'no-stack-trace-hooks');
  });

  it('CallSites from a runtime-key hook: script names only, and no function or receiver of a prelude frame', async () => {
    await using box = await createSandbox();
    const r = await box.run(`${BYPASS}
      G.Error[${HOOK}] = (e, sites) => sites.map((c) => ({ file: c.getFileName(), fn: typeof c.getFunction(), self: typeof c.getThis() }));
      let inside;
      award_data.derive({ y: aq.escape(() => { inside = new Error('in').stack; return 1 }) }).numRows();
      const top = new Error('top').stack;
      G.Error[${HOOK}] = undefined;
      [top, inside]`);
    expect(r.error).toBeUndefined();
    const frames = (r.value as Array<Array<{ file: string | null; fn: string; self: string }>>).flat();
    expect(frames.length).toBeGreaterThan(3);
    for (const f of frames) {
      expect([undefined, null, 'analysis.js', 'sbirtools-prelude.js', '<anonymous>']).toContain(f.file);
      if (f.file === 'sbirtools-prelude.js') expect([f.fn, f.self]).toEqual(['undefined', 'undefined']);
    }
    expect(frames.some((f) => f.file === 'sbirtools-prelude.js')).toBe(true);
    await expectHealthy(box);
  });

  it('captureStackTrace on any object and an infinite stackTraceLimit are harmless', async () => {
    await using box = await createSandbox();
    const c = await box.run('const o = {}; Error.captureStackTrace(o); o.stack');
    expect(c.value as string).toMatch(/^Error\n\s+at /);
    expect(c.value as string).not.toMatch(HOST_PATH);
    const deep = await box.run(
      `${BYPASS} G.Error[${rt('stackTraceLimit')}] = Infinity; function r(n) { if (n === 0) throw new Error('deep'); return r(n - 1) } r(5000)`,
    );
    expect(deep.error?.type).toBe('RUNTIME_ERROR');
    expect(JSON.stringify(deep.error).length).toBeLessThan(20_000);
  });

  it('no error, stack, hint or message of any kind names a host path', async () => {
    await using box = await createSandbox({ timeoutMs: 3000 });
    for (const code of [
      'function foo() { null.x } foo()',
      'award_data.derive({ y: (d) => d.nope.x }).numRows()',
      "award_data.filter('d => d.nope.x').numRows()",
      "value_counts(award_data, 'Nope')",
      "await Promise.reject(new Error('async'))",
      "Promise.reject(new Error('loose')); 1",
      'new Error().stack',
      `${BYPASS} F('syntax error here')`,
      `${BYPASS} await F('return import("x")')()`,
      "aq.table({ a: [1] }).derive({ b: 'd => d.a.b.c' }).objects()",
      'describeData(42)',
      "throw 'a string'",
    ]) {
      const r = await box.run(code);
      expect(JSON.stringify(r), code).not.toMatch(HOST_PATH);
    }
  });

  it("a guest error's stack shows user frames only", async () => {
    const r = await run('function inner() { throw new Error("x") } function outer() { inner() } outer()');
    const lines = (r.error?.stack ?? '').split('\n');
    expect(lines.map((l) => l.replace(/:\d+:\d+/, ':L:C'))).toEqual([
      '    at inner (analysis.js:L:C)',
      '    at outer (analysis.js:L:C)',
      '    at analysis.js:L:C',
    ]);
  });
});
