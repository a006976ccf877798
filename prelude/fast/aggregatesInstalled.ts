/**
 * The aggregate operations the fast rollup (fast/rollup.ts) computes by name: each is the
 * definition Arquero had when the prelude was installed (noted by `noteAggregates`). A guest that
 * replaces one with `aq.addAggregateFunction(name, def, { override: true })` sends the rollup back
 * to Arquero's path, which calls the guest's definition.
 */
import { aggregateFunctions } from 'arquero/src/op/aggregate-functions.js';
import { ObjectKeys, SafeMap } from '../intrinsics.js';

const installed = new SafeMap<string, unknown>();

/** Records every aggregate definition as registered now (call once, at install). */
export function noteAggregates(): void {
  const names = ObjectKeys(aggregateFunctions);
  for (let i = 0; i < names.length; i++) installed.set(names[i]!, aggregateFunctions[names[i]!]);
}

/** True when aggregate `name` is still the definition installed with the prelude. */
export function aggregateInstalled(name: string): boolean {
  const def = installed.get(name);
  return def !== undefined && Object.hasOwn(aggregateFunctions, name) && aggregateFunctions[name] === def;
}
