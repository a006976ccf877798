/**
 * Row objects that keep a column named `__proto__`. Arquero builds row objects from an object
 * literal (`{"__proto__": v, ...}`), where that key sets the object's prototype instead of making
 * a property: the column vanished from objects(), object(), and everything built on them. With such
 * a column, the rows are built from a table where it is renamed, then given back their own
 * `__proto__` property in the column's place. Other names (`constructor`, `hasOwnProperty`, '') are
 * ordinary keys in a literal and need nothing.
 */
import type { ColumnTable } from 'arquero';
import { NativeArray, ObjectDefineProperty, ObjectKeys } from '../intrinsics.js';

type AnyFn = (...args: any[]) => unknown;
const PROTO = '__proto__';

/** Wrap `objects` and `object` on the table prototype. */
export function installExactRowObjects(proto: Record<string, unknown>): void {
  const objects = proto.objects as AnyFn;
  const object = proto.object as AnyFn;
  const wrap = (original: AnyFn) =>
    function (this: ColumnTable, options?: { columns?: unknown }) {
      if (!this.columnNames().includes(PROTO)) return original.apply(this, arguments as unknown as unknown[]);
      let tmp = '__proto__column';
      while (this.columnNames().includes(tmp)) tmp += '_';
      const renamed = this.rename({ [PROTO]: tmp } as Record<string, string>);
      const args = [...(arguments as unknown as unknown[])];
      if (original === objects && options && typeof options === 'object') {
        const cols = options.columns;
        const swap = (c: unknown) => (c === PROTO ? tmp : c);
        args[0] = { ...options, columns: NativeArray.isArray(cols) ? cols.map(swap) : swap(cols) };
      }
      return restore(original.apply(renamed, args), tmp);
    };
  ObjectDefineProperty(proto, 'objects', { value: wrap(objects), writable: true, configurable: true });
  ObjectDefineProperty(proto, 'object', { value: wrap(object), writable: true, configurable: true });
}

/** Rows (or the nested groups of objects({ grouped })) with `tmp` turned back into `__proto__`. */
function restore(x: unknown, tmp: string): unknown {
  if (NativeArray.isArray(x)) return x.map((v) => restore(v, tmp));
  if (x instanceof Map) {
    for (const [k, v] of x) x.set(k, restore(v, tmp));
    return x;
  }
  if (x === null || typeof x !== 'object') return x;
  const o = x as Record<string, unknown>;
  if (!Object.hasOwn(o, tmp)) {
    for (const k of ObjectKeys(o)) o[k] = restore(o[k], tmp);
    return o;
  }
  const row: Record<string, unknown> = {};
  for (const k of ObjectKeys(o))
    ObjectDefineProperty(row, k === tmp ? PROTO : k, {
      value: o[k],
      writable: true,
      enumerable: true,
      configurable: true,
    });
  return row;
}
