// Hazard: a returned object with an own `__proto__` key polluted host prototypes when the host
// merged it. Layers: the value crosses as JSON text, parsed on the host with JSON.parse (which
// makes `__proto__` an own data property, never a prototype) and validated with zod
// (buildResult.ts); nothing in sbirtools merges a value with [[Set]].
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { resultText, run, toToolOutput } from '../../src/index.js';
import { expectHealthy } from './helpers.js';

const clean = () => {
  const probe = {} as Record<string, unknown>;
  return [
    probe.polluted,
    probe.x,
    ([] as unknown as Record<string, unknown>).polluted,
    Object.prototype.hasOwnProperty.call(Object.prototype, 'polluted'),
  ];
};

afterEach(() => {
  expect(clean()).toEqual([undefined, undefined, undefined, false]);
});

describe('a result with an own __proto__ key', () => {
  it('arrives as an own data property and pollutes nothing on the host', async () => {
    const r = await run(`JSON.parse('{"__proto__": {"polluted": 1}, "a": 1, "nested": {"__proto__": {"x": 2}}}')`);
    expect(r.error).toBeUndefined();
    const v = r.value as Record<string, unknown>;
    expect(Object.getPrototypeOf(v)).toBe(Object.prototype);
    expect(Object.hasOwn(v, '__proto__')).toBe(true);
    expect(Object.getOwnPropertyDescriptor(v, '__proto__')?.value).toEqual({ polluted: 1 });
    expect(v.a).toBe(1);
    expect(Object.hasOwn(v.nested as object, '__proto__')).toBe(true);
  });

  it('stays harmless through the usual host-side handling: spread, assign, clone, JSON, adapters', async () => {
    const r = await run(`JSON.parse('{"__proto__": {"polluted": 1}, "constructor": {"prototype": {"polluted": 2}}}')`);
    const v = r.value as Record<string, unknown>;
    const spread = { ...v };
    const assigned = Object.assign({}, v); // [[Set]] of __proto__ changes only this object's prototype
    const cloned = structuredClone(v);
    const roundTrip = JSON.parse(JSON.stringify(r));
    const tool = toToolOutput(r);
    const text = resultText(r);
    expect(Object.hasOwn(spread, '__proto__')).toBe(true);
    expect((assigned as { polluted?: number }).polluted).toBe(1);
    expect(Object.getPrototypeOf(cloned)).toBe(Object.prototype);
    expect(Object.hasOwn(roundTrip.value, '__proto__')).toBe(true);
    expect(JSON.stringify(tool)).toContain('__proto__');
    expect(typeof text).toBe('string');
  });

  it('host-side ingestion of rows and CSV headers named __proto__ pollutes nothing on the host', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sbirtools-proto-'));
    const csv = join(dir, 'proto.csv');
    writeFileSync(csv, '__proto__,constructor,a\n1,2,3\n4,5,6\n');
    const rows = JSON.parse('[{"__proto__": {"polluted": 1}, "constructor": 2, "a": 3}]');
    for (const t of [csv, rows]) {
      const r = await run('t.numRows()', { awardData: false, tables: { t } });
      expect(['RUNTIME_ERROR', 'INTERNAL_ERROR', undefined]).toContain(r.error?.type);
    }
    rmSync(dir, { recursive: true, force: true });
    await expectHealthy();
  });

  // Known prelude bug (reported): the in-isolate table builder keys columns by name on a plain
  // object, so a column named __proto__ sets a prototype instead: the table reads as empty and its
  // result serializes `"totalRows":undefined` (the host rejects it as INTERNAL_ERROR). Harmless to
  // the host; wrong for the guest. Fix in prelude/data/hostTables.ts (null-prototype maps).
  it('a CSV column named __proto__ is an ordinary column inside the isolate', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sbirtools-proto-'));
    const csv = join(dir, 'proto.csv');
    writeFileSync(csv, '__proto__,constructor,a\n1,2,3\n4,5,6\n');
    try {
      const r = await run('t', { awardData: false, tables: { t: csv } });
      expect(r.error).toBeUndefined();
      expect(r.table?.columns).toEqual(['__proto__', 'constructor', 'a']);
      expect(r.table?.rows).toEqual([
        [1, 2, 3],
        [4, 5, 6],
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
