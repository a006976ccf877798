import type { Rule, RuleSet } from './types.js';

export interface PropertyEntry {
  rule: Rule;
  access: 'any' | 'write';
  objectKeys: boolean;
}

/** A rule set turned into lookups by what the walk sees: names, key names and node types. */
export interface RuleIndex {
  identifiers: ReadonlyMap<string, Rule>;
  properties: ReadonlyMap<string, PropertyEntry>;
  nodeTypes: ReadonlyMap<string, Rule>;
  timers: ReadonlyMap<string, Rule>;
  /** Rules matching every name that starts with a prefix, variables and accessed keys alike. */
  prefixes: ReadonlyArray<readonly [prefix: string, rule: Rule]>;
  thisTop?: Rule;
  thisLoose?: Rule;
  tooDeep?: Rule;
}

const cache = new WeakMap<RuleSet, RuleIndex>();

/**
 * Index a rule set once (cached per set). Maps are keyed by plain names, so a guest-chosen name
 * such as `__proto__` or `hasOwnProperty` can never hit an inherited entry.
 * @example
 * ruleIndex(rulesFor('standard')).identifiers.get('eval')?.id; // 'no-dynamic-code'
 */
export function ruleIndex(set: RuleSet): RuleIndex {
  const cached = cache.get(set);
  if (cached) return cached;
  const identifiers = new Map<string, Rule>();
  const properties = new Map<string, PropertyEntry>();
  const nodeTypes = new Map<string, Rule>();
  const timers = new Map<string, Rule>();
  const prefixes: Array<readonly [string, Rule]> = [];
  const index: RuleIndex = { identifiers, properties, nodeTypes, timers, prefixes };
  for (const rule of set.rules) {
    if (rule.id === 'nesting-too-deep') index.tooDeep = rule;
    for (const m of rule.match) {
      if (m.on === 'identifier') for (const n of m.names) identifiers.set(n, rule);
      else if (m.on === 'property')
        for (const n of m.names) properties.set(n, { rule, access: m.access, objectKeys: m.objectKeys ?? false });
      else if (m.on === 'node') for (const t of m.types) nodeTypes.set(t, rule);
      else if (m.on === 'timer-string') for (const n of m.names) timers.set(n, rule);
      else if (m.on === 'prefix') prefixes.push([m.prefix, rule]);
      else if (m.scope === 'top') index.thisTop = rule;
      else index.thisLoose = rule;
    }
  }
  cache.set(set, index);
  return index;
}

/**
 * The rule whose prefix starts `name`, if any.
 * @example
 * prefixRule(ruleIndex(rulesFor('standard')), '__sbirtools_rowLoop')?.id; // 'no-internals'
 */
export function prefixRule(index: RuleIndex, name: string): Rule | undefined {
  for (const [prefix, rule] of index.prefixes) if (name.startsWith(prefix)) return rule;
  return undefined;
}
