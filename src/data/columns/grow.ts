/** Growable typed arrays for column builders: capacity doubles, contents are kept. */

/** Returns `a`, or a copy at least `need` long (capacity doubles). */
export function growF64(a: Float64Array, need: number): Float64Array {
  if (need <= a.length) return a;
  const b = new Float64Array(Math.max(need, a.length * 2));
  b.set(a);
  return b;
}

/** Returns `a`, or a copy at least `need` long (capacity doubles). */
export function growI32(a: Int32Array, need: number): Int32Array {
  if (need <= a.length) return a;
  const b = new Int32Array(Math.max(need, a.length * 2));
  b.set(a);
  return b;
}

/** Returns `a`, or a copy at least `need` long (capacity doubles, capped at `max`). */
export function growU8(a: Uint8Array, need: number, max = 0x7fffffff): Uint8Array {
  if (need <= a.length) return a;
  const b = new Uint8Array(Math.min(max, Math.max(need, a.length * 2)));
  b.set(a);
  return b;
}

/**
 * A view of the first `n` items, without copying: the spare capacity stays referenced until the
 * view is dropped. Tables handed to callers are compacted with `compactTable`.
 */
export function exact<T extends Float64Array | Int32Array | Uint8Array>(a: T, n: number): T {
  return a.subarray(0, n) as T;
}
