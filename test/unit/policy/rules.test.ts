import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PRESET_NAMES } from '../../../schema/limits.js';
import { checkCode, RULES, rulesFor, type RuleSet } from '../../../src/policy/index.js';

const docs = readFileSync(new URL('../../../docs/security.md', import.meta.url), 'utf8');

describe('the denylist table', () => {
  it('has unique rule ids, each with a reason, a hint and at least one preset', () => {
    const ids = RULES.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const rule of RULES) {
      expect(rule.reason.length, rule.id).toBeGreaterThan(20);
      expect(rule.hint.length, rule.id).toBeGreaterThan(10);
      expect(rule.presets.length, rule.id).toBeGreaterThan(0);
    }
  });

  it('matches each name under one rule only, so a finding has one clear cause', () => {
    const seen = new Map<string, string>();
    for (const rule of RULES) {
      for (const m of rule.match) {
        if (m.on !== 'identifier' && m.on !== 'property') continue;
        for (const name of m.names) {
          const key = `${m.on}:${name}`;
          expect(seen.get(key), key).toBeUndefined();
          seen.set(key, rule.id);
        }
      }
    }
  });

  it('only tightens from permissive to standard to strict', () => {
    const [permissive, standard, strict] = PRESET_NAMES.map((p) => new Set(rulesFor(p).rules.map((r) => r.id)));
    for (const id of permissive!) expect(standard!.has(id), id).toBe(true);
    for (const id of standard!) expect(strict!.has(id), id).toBe(true);
    expect(strict!.size).toBeGreaterThan(standard!.size);
  });

  it('documents every rule in docs/security.md', () => {
    for (const rule of RULES) expect(docs, rule.id).toContain(`\`${rule.id}\``);
  });
});

describe('rulesFor', () => {
  it('returns the same frozen set per preset, defaulting to standard', () => {
    expect(rulesFor()).toBe(rulesFor('standard'));
    const set = rulesFor('strict');
    expect(Object.isFrozen(set)).toBe(true);
    expect(Object.isFrozen(set.rules)).toBe(true);
    expect(Object.isFrozen(set.rules[0])).toBe(true);
    expect(Object.isFrozen(set.rules[0]!.match)).toBe(true);
    expect(() => (set.rules as unknown[]).pop()).toThrow(TypeError);
  });

  it('throws a TypeError that echoes an unknown preset', () => {
    expect(() => rulesFor('lenient' as never)).toThrow(
      "Expected the `preset` option to be one of 'permissive', 'standard', 'strict', got `\"lenient\"`",
    );
    expect(() => rulesFor('__proto__' as never)).toThrow(TypeError);
  });
});

describe('checkCode arguments', () => {
  it('accepts a preset name or an issued rule set', () => {
    expect(checkCode('eval(1)', 'permissive')).toMatchObject({ ok: false, type: 'POLICY_VIOLATION' });
    expect(checkCode('Reflect.ownKeys(x)', rulesFor('strict'))).toMatchObject({ ok: false });
    expect(checkCode('Reflect.ownKeys(x)', rulesFor('standard'))).toEqual({ ok: true });
  });

  it('refuses a hand-built or copied rule set, so no rule can be switched off', () => {
    const copy: RuleSet = {
      preset: 'standard',
      rules: rulesFor('standard').rules.filter((r) => r.id !== 'no-dynamic-code'),
    };
    expect(() => checkCode('eval(1)', copy)).toThrow(
      'Expected `rules` to be a preset name or a rule set from rulesFor(preset), got `object`',
    );
    expect(() => checkCode('1', { ...rulesFor('strict') })).toThrow(TypeError);
    expect(() => checkCode('1', 'loose' as never)).toThrow('got `"loose"`');
  });

  it('throws on code that is not a string (a caller error, not a result)', () => {
    expect(() => checkCode(42 as never)).toThrow('Expected `code` to be a string, got `number`');
    expect(() => checkCode(undefined as never)).toThrow(TypeError);
  });
});
