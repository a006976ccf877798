// Hazard: conversion hooks run guest code during serialization: toJSON, Symbol.toPrimitive,
// valueOf/toString, spoofed Symbol.toStringTag, and Proxy traps on every property access. Layers:
// the serializer calls no toJSON or conversion method and uses captured builtins with real brand
// checks (prelude/serialize/writeJson.ts, prelude/intrinsics.ts); Proxy traps do run, but inside the
// isolate and under the run's deadline (TIMEOUT); the host only parses a JSON string.
import { describe, expect, it } from 'vitest';
import { createSandbox, run } from '../../src/index.js';
import { expectHealthy, timed, expectTimeoutAttack } from './helpers.js';

const TIMEOUT = 1500;

describe('toJSON, toPrimitive and Proxy in results', () => {
  it('conversion hooks are never called: the value is the plain own data', async () => {
    await using box = await createSandbox({ timeoutMs: TIMEOUT });
    const cases: Array<[string, unknown]> = [
      ['({ toJSON() { while (true) {} }, a: 1 })', { toJSON: '[Function toJSON]', a: 1 }],
      ['({ [Symbol.toPrimitive]() { while (true) {} }, a: 1 })', { a: 1 }],
      [
        '({ valueOf() { while (true) {} }, toString() { while (true) {} }, a: 1 })',
        { valueOf: '[Function valueOf]', toString: '[Function toString]', a: 1 },
      ],
      ['const d = new Date(0); d.toISOString = () => { while (true) {} }; d', '1970-01-01T00:00:00.000Z'],
      ["({ [Symbol.toStringTag]: 'Date', getTime() { while (true) {} } })", { getTime: '[Function getTime]' }],
      [
        "({ [Symbol.toStringTag]: 'Map', size: 1, entries() { while (true) {} } })",
        { size: 1, entries: '[Function entries]' },
      ],
      ['print({ toJSON() { while (true) {} }, a: 1 }); 1', 1],
    ];
    for (const [code, value] of cases) {
      const { r } = await timed(box, code);
      expect(r.error, code).toBeUndefined();
      expect(r.value, code).toEqual(value);
    }
    await expectHealthy(box);
  });

  it('a transparent Proxy is serialized like its target; a revoked one is a RUNTIME_ERROR', async () => {
    expect((await run('new Proxy({ a: 1 }, {})')).value).toEqual({ a: 1 });
    const revoked = await run('const { proxy, revoke } = Proxy.revocable({ a: 1 }, {}); revoke(); proxy');
    expect(revoked.error?.type).toBe('RUNTIME_ERROR');
    expect(revoked.error?.name).toBe('TypeError');
  });

  it('a Proxy that lies about its length is cut at the result cap', async () => {
    await using box = await createSandbox({ maxResultBytes: 20_000, timeoutMs: 5000 });
    const { r } = await timed(box, "new Proxy([1, 2, 3], { get(t, k) { return k === 'length' ? 1e9 : t[k] } })");
    expect(r.error).toBeUndefined();
    expect(r.truncated.value).toBe(true);
    expect(JSON.stringify(r.value).length).toBeLessThan(20_000);
  });

  for (const [name, code] of [
    ['a looping ownKeys trap', 'new Proxy({}, { ownKeys() { while (true) {} } })'],
    ['a looping get trap', 'new Proxy({ a: 1 }, { get() { while (true) {} } })'],
    [
      'a looping getOwnPropertyDescriptor trap',
      'new Proxy({ a: 1 }, { getOwnPropertyDescriptor() { while (true) {} } })',
    ],
    ['a looping getPrototypeOf trap', 'new Proxy({ a: 1 }, { getPrototypeOf() { while (true) {} } })'],
    ['printing a Proxy with a looping trap', 'print(new Proxy({}, { ownKeys() { while (true) {} } })); 1'],
    ['a template literal over a looping toString (guest code calls it)', '`${{ toString() { while (true) {} } }}`'],
  ] as const) {
    it(`${name}: TIMEOUT within the deadline + 1 s`, () => expectTimeoutAttack(code, TIMEOUT));
  }

  it('a Proxy around award_data is returned as the table it wraps', async () => {
    const r = await run('new Proxy(award_data, {})');
    expect(r.error).toBeUndefined();
    expect(r.table?.totalRows).toBeGreaterThan(0);
  });
});
