// Hazard: a host object (the bridge, an isolated-vm Reference, process, require) reachable from
// guest code would be an escape. Layers: the runtime hands the prelude only copies and callbacks
// (isolatedVmSession.ts), deletes the boot function and the dangerous globals (hardenGlobals.ts), and
// results cross as a JSON string. This walks everything reachable from the global object.
import { describe, expect, it } from 'vitest';
import { createSandbox, run } from '../../src/index.js';
import { BYPASS, ENGINE, expectHealthy } from './helpers.js';

/** Names that would mean a host object, an isolated-vm handle or a removed global is reachable. */
const FORBIDDEN = [
  'process',
  'require',
  'module',
  'exports',
  'Buffer',
  '__dirname',
  '__filename',
  '__sbirtools_boot',
  'bridge',
  'fetchColumn',
  'fetchColumnRange',
  'setTimeout',
  'setInterval',
  'setImmediate',
  'queueMicrotask',
  'structuredClone',
  'SharedArrayBuffer',
  'Atomics',
  'WebAssembly',
  'eval',
  'importScripts',
  'XMLHttpRequest',
  'WebSocket',
  'applySync',
  'applySyncPromise',
  'applyIgnored',
  'derefInto',
  'copySync',
  'copyInto',
  'getSync',
  'setSync',
  'ExternalCopy',
  'Reference',
  'Callback',
  'Isolate',
  'NativeModule',
  'ivm',
  'env',
  'argv',
  'cwd',
  'binding',
  'dlopen',
];

const WALK = `${BYPASS}
  const seen = new Set(); const queue = [[G, 'G']]; const hits = []; const forbidden = new Set(FORBIDDEN_LIST); const fetches = [];
  while (queue.length && seen.size < 100000) {
    const [o, path] = queue.shift();
    if (o === null || (typeof o !== 'object' && typeof o !== 'function') || seen.has(o)) continue;
    seen.add(o);
    let keys = []; try { keys = Reflect.ownKeys(o) } catch {}
    for (const k of keys) {
      const name = String(k);
      if (forbidden.has(name)) hits.push(path + '.' + name);
      if (name === 'fetch') fetches.push(path);
      let d; try { d = Object.getOwnPropertyDescriptor(o, k) } catch { continue }
      if (!d) continue;
      if ('value' in d) queue.push([d.value, path + '.' + name]); else { queue.push([d.get, path + '.get ' + name]); queue.push([d.set, path + '.set ' + name]) }
    }
    try { queue.push([Object.getPrototypeOf(o), path + '.[[Prototype]]']) } catch {}
  }
  ({ visited: seen.size, hits, fetches: fetches.filter((p) => !/^G\\.award_data\\._data\\.[^.]+(\\.text|\\.windows)?$/.test(p)) })`;

describe('host objects reachable from guest code', () => {
  it('walking every object reachable from the global object (own keys, accessors, prototypes) finds none', async () => {
    const r = await run(WALK.replace('FORBIDDEN_LIST', JSON.stringify(FORBIDDEN)), { timeoutMs: 20_000 });
    expect(r.error).toBeUndefined();
    const v = r.value as { visited: number; hits: string[]; fetches: string[] };
    expect(v.visited, 'the walk saw the prelude and Arquero, not just the global').toBeGreaterThan(1000);
    expect(v.hits).toEqual([]);
    // the only `fetch` members are award_data's lazy column loaders, text page loaders and row window
    // loaders (each copies rows of its own column in)
    expect(v.fetches).toEqual([]);
  });

  it('a lazy column loader only ever returns its own column, as a copy', async () => {
    await using box = await createSandbox();
    const r = await box.run(
      "const c = award_data._data['Agency']; const a = c.fetch('award_data', 'UEI'); const b = c.fetch(); [typeof a, Array.isArray(a) || ArrayBuffer.isView(a) || typeof a === 'object', award_data.array('Agency').length]",
    );
    expect(r.error?.type === 'RUNTIME_ERROR' || r.error === undefined).toBe(true);
    expect(JSON.stringify(r)).not.toMatch(/\/work|node_modules|\.cache/);
    await expectHealthy(box);
  });

  it('a text page loader only returns rows of its own column, as copies; bad ranges throw without host paths', async () => {
    await using box = await createSandbox();
    if (ENGINE === 'quickjs') {
      // QuickJS has no host text page loader: long text crosses as byte ranges (fetchColumnRange)
      // that the guest decodes itself, through a host function the guest cannot reach (docs/engines.md)
      const q = await box.run(
        "const c = award_data._data['Abstract']; [c.text, typeof c.paged.get(0), c.paged.get(0) === award_data.get('Abstract', 0)]",
      );
      expect(q.error).toBeUndefined();
      expect(q.value).toEqual([null, 'string', true]);
      await expectHealthy(box);
      return;
    }
    const r = await box.run(`const t = award_data._data['Abstract'].text; const out = [];
for (const args of [[0, 2], [-1, 5], [0, 1e9], ['a', 2], [5, 1]]) {
  try { const p = t.fetch(...args); p.rows[0] = 'changed'; out.push(p.rows.length) } catch (e) { out.push(e.name + ': ' + e.message + ' | ' + e.stack) }
}
out.push(award_data.get('Abstract', 0) !== 'changed');
out`);
    expect(r.error).toBeUndefined();
    const out = r.value as unknown[];
    expect(out[0]).toBe(2);
    expect(out.slice(1, 5).every((x) => typeof x === 'string' && /^RangeError: row range/.test(x))).toBe(true);
    expect(out[5]).toBe(true);
    expect(JSON.stringify(r)).not.toMatch(/\/work\/|node_modules|file:\/\/|dist\/src/);
    await expectHealthy(box);
  });

  it('a row window loader only returns rows of its own column, as copies; bad ranges throw without host paths', async () => {
    await using box = await createSandbox();
    const probe = await box.run("award_data._data['Agency'].windows === null");
    expect(probe.error).toBeUndefined();
    // QuickJS has no row windows: its columns load whole (docs/engines.md)
    if (ENGINE === 'quickjs') {
      expect(probe.value).toBe(true);
      return;
    }
    const r = await box.run(`const w = award_data._data['Agency'].windows; const out = [];
for (const args of [[0, 3], [-1, 5], [0, 1e9], ['a', 2], [5, 1], ['award_data', 'UEI']]) {
  try { const p = w.fetch(...args); out.push(p === null ? null : [p.kind, p.valid.length]); if (p) p.bytes[0] = 0 } catch (e) { out.push(e.name + ': ' + e.message + ' | ' + e.stack) }
}
out.push(award_data.get('Agency', 0) === award_data.array('Agency')[0], typeof award_data.get('Agency', 0));
out`);
    expect(r.error).toBeUndefined();
    const out = r.value as unknown[];
    expect(out[0]).toEqual(['utf8', 3]);
    // out-of-range, non-numeric and reversed ranges throw; a table/column pair is not a range either
    expect(out.slice(1, 6).every((x) => typeof x === 'string' && /^RangeError: row range/.test(x))).toBe(true);
    expect(out.slice(6)).toEqual([true, 'string']);
    expect(JSON.stringify(r)).not.toMatch(/\/work\/|node_modules|file:\/\/|dist\/src/);
    await expectHealthy(box);
  });

  it('the bridge callbacks throw guest-safe errors for unknown tables and columns', async () => {
    const r = await run("award_data.array('No Such Column')");
    expect(r.error?.type).toBe('RUNTIME_ERROR');
    expect(JSON.stringify(r)).not.toMatch(/\/work\/|node_modules|file:\/\//);
  });

  it('describeData() and the data card expose no host path for the embedded data', async () => {
    const r = await run('JSON.stringify(describeData())');
    expect(r.error).toBeUndefined();
    expect(r.value as string).not.toMatch(/\/work\/|\/home\/|\/tmp\/|\/root\/|node_modules|\.cache/);
  });
});
