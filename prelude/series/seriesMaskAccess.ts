/**
 * `s[mask]` on a Series, as pandas users write it (`s[s.gt(1e6)]`): JavaScript turns the mask used
 * as a key into its token (maskRegistry.ts). As for tables (columnAccess.ts), a Proxy is inserted as
 * the prototype of Series.prototype, in front of Object.prototype, so it is consulted only for keys
 * no Series and no Series method defines: values, methods and their speed are untouched.
 */
import { ObjectGetPrototypeOf } from '../intrinsics.js';
import { maskFromToken } from './maskRegistry.js';
import { Series } from './Series.js';

/** Puts the mask-access Proxy behind Series.prototype (idempotent). */
export function installSeriesMaskAccess(): void {
  const proto = Series.prototype as object;
  const parent = ObjectGetPrototypeOf(proto) as object;
  if ((parent as { __sbirtoolsSeriesMasks?: boolean }).__sbirtoolsSeriesMasks) return;
  const proxy = new Proxy(parent, {
    get(target, prop, receiver) {
      if (prop === '__sbirtoolsSeriesMasks') return true;
      if (typeof prop !== 'string' || prop in target || !(receiver instanceof Series))
        return Reflect.get(target, prop, receiver);
      const mask = maskFromToken(prop);
      // the same filter as s.filter(mask): labels kept, a mask of another length refused
      return mask ? (receiver as unknown as { filter(m: object): Series }).filter(mask) : undefined;
    },
  });
  Object.setPrototypeOf(proto, proxy);
}
