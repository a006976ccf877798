import { PRESET_NAMES, type PresetName } from '../../schema/limits.js';
import { RULES } from './rules.js';
import type { RuleSet } from './types.js';

// Only rule sets made here are accepted by checkCode: a caller cannot hand-build a looser one.
const issued = new WeakSet<RuleSet>();

const deepFreeze = <T>(value: T): T => {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
};

const SETS = Object.fromEntries(
  PRESET_NAMES.map((preset) => {
    const set: RuleSet = deepFreeze({ preset, rules: RULES.filter((r) => r.presets.includes(preset)) });
    issued.add(set);
    return [preset, set];
  }),
) as Record<PresetName, RuleSet>;

/**
 * The frozen denylist of a preset. Presets only tighten (permissive ⊆ standard ⊆ strict);
 * there is no way to disable a rule: loosening one is a code change in rules.ts with a test.
 * @param preset - one of 'permissive' | 'standard' | 'strict'.
 * @default preset 'standard'
 * @throws TypeError when `preset` is not a preset name (a caller error, echoed in the message).
 * @example
 * const rules = rulesFor('strict');
 * checkCode("Reflect.ownKeys(award_data)", rules); // { ok: false, type: 'POLICY_VIOLATION', ... }
 */
export function rulesFor(preset: PresetName = 'standard'): RuleSet {
  const set = Object.hasOwn(SETS, preset) ? SETS[preset] : undefined;
  if (!set) {
    throw new TypeError(
      `Expected the \`preset\` option to be one of ${PRESET_NAMES.map((p) => `'${p}'`).join(', ')}, got \`${JSON.stringify(preset) ?? String(preset)}\``,
    );
  }
  return set;
}

/**
 * True for rule sets returned by `rulesFor` (and nothing else): copies and hand-built sets are refused.
 * @example
 * isIssuedRuleSet(rulesFor('strict')); // true
 * isIssuedRuleSet({ ...rulesFor('strict') }); // false
 */
export function isIssuedRuleSet(value: unknown): value is RuleSet {
  return typeof value === 'object' && value !== null && issued.has(value as RuleSet);
}
