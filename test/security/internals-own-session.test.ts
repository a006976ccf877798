// The runtime's `__sbirtools_*` internals: refused by name (policy rule no-internals), and reached
// by a runtime key (a known static gap) they can spoil only the session that reached them.
import { describe, expect, it } from 'vitest';
import { checkCode, rulesFor } from '../../src/policy/index.js';
import { createSandbox } from '../../src/index.js';
import { KNOWN_STATIC_GAPS } from './known-static-gaps.js';

const ruleOf = (code: string) => {
  const r = checkCode(code, rulesFor('standard'));
  return r.ok ? 'ok' : r.type === 'POLICY_VIOLATION' ? r.violations.map((v) => v.rule) : r.type;
};

describe('the runtime internals', () => {
  it.each([
    ["__sbirtools_rowLoop.open(['Award Amount'], ['shared'])"],
    ['typeof __sbirtools_chain'],
    ['const f = () => __sbirtools_sort.min([1]); f()'],
    ['const __sbirtools_rowLoop = {}; 1'],
    ["const o = {}; o['__sbirtools_' + 'rowLoop']"],
    ['const o = {}; o.__sbirtools_future'],
    ['const { __sbirtools_chain: c } = {}; c'],
    ["award_data.filter('d => __sbirtools_rowLoop')"],
  ])('are refused by name in every preset: %s', (code) => {
    expect(ruleOf(code)).toEqual(['no-internals']);
    for (const preset of ['permissive', 'strict'] as const) {
      const r = checkCode(code, rulesFor(preset));
      expect(r.ok, preset).toBe(false);
    }
  });

  it.each([
    ["const label = '__sbirtools_rowLoop'; label.length"],
    ['const o = { __sbirtools_x: 1 }; Object.keys(o)'],
    ["value_counts(award_data, 'Agency')"],
    ['const sbirtools_rowLoop = 1; sbirtools_rowLoop'],
  ])('leave strings, object-literal keys and other names alone: %s', (code) => {
    expect(ruleOf(code)).toBe('ok');
  });

  it('reached by a runtime key, spoil only their own session', async () => {
    const gap = KNOWN_STATIC_GAPS.find((g) => g.id === 'internals-by-runtime-key')!;
    await using other = await createSandbox();
    const before = (await other.run("award_data.array('Award Amount')[0]")).value;
    expect(typeof before).toBe('number');
    {
      await using box = await createSandbox();
      expect((await box.run(gap.code)).value).toBe('object');
    }
    // the other session, and a new one, read the column as it is
    expect((await other.run("award_data.array('Award Amount')[0]")).value).toBe(before);
    await using fresh = await createSandbox();
    expect((await fresh.run("award_data.array('Award Amount')[0]")).value).toBe(before);
  });
});
