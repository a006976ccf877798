/**
 * pandas indexers for JavaScript: `x.iloc[0]` and `x.iloc(0)` both work. The indexer is a function
 * (so it can be called) wrapped in a Proxy whose property reads pass the key to the same function;
 * numeric keys arrive as strings and are turned back into numbers, mask tokens into their mask.
 */
import { maskFromToken } from './maskRegistry.js';

const NUMERIC = /^-?\d+$/;

/**
 * An object that answers `ix(key, ...)` and `ix[key]` with `pick(key, ...)`.
 * @example indexer((i) => values[i]).call(null, 0) === indexer((i) => values[i])[0]
 */
export function indexer(pick: (key: unknown, ...rest: unknown[]) => unknown): unknown {
  const fn = function (key: unknown, ...rest: unknown[]) {
    return pick(key, ...rest);
  };
  return new Proxy(fn, {
    get(target, prop, receiver) {
      if (
        typeof prop !== 'string' ||
        prop === 'call' ||
        prop === 'apply' ||
        prop === 'bind' ||
        prop === 'name' ||
        prop === 'length'
      )
        return Reflect.get(target, prop, receiver);
      if (prop === 'then' || prop === 'toJSON') return undefined;
      const mask = maskFromToken(prop);
      return pick(mask ?? (NUMERIC.test(prop) ? Number(prop) : prop));
    },
  });
}
