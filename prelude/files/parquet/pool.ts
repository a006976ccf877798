/**
 * The writer's big buffers, offered again to the next call (a run that saves several files, or a
 * later run the garbage collector has not yet caught up with) instead of allocating and
 * zero-filling megabytes again. Held through WeakRefs only: under memory pressure the collector
 * takes them back, so the pool never holds memory a session needs (limits go down to 16 MB).
 */
import { NativeWeakRef, ReflectApply, WeakRefPrototypeDeref } from '../../intrinsics.js';
import { ByteSink } from './byteSink.js';
import { Scratch } from './scratch.js';

const spare: { out: WeakRef<ByteSink> | null; scratch: WeakRef<Scratch> | null } = { out: null, scratch: null };

function deref<T extends object>(ref: WeakRef<T> | null): T | undefined {
  return ref ? (ReflectApply(WeakRefPrototypeDeref, ref, []) as T | undefined) : undefined;
}

/** An empty output sink of at least `capacity` bytes. */
export function takeSink(capacity: number): ByteSink {
  const s = deref(spare.out);
  spare.out = null;
  if (s && s.buf.length >= capacity) {
    s.pos = 0;
    s.setLimit(Infinity, null);
    return s;
  }
  return new ByteSink(capacity);
}

/** Scratch space for chunks of `rows` rows. */
export function takeScratch(rows: number): Scratch {
  const s = deref(spare.scratch);
  spare.scratch = null;
  return s && s.valid.length >= rows ? s : new Scratch(rows);
}

/** Offers the buffers to the next call once a file is done (or failed). */
export function giveBack(out: ByteSink, scratch: Scratch): void {
  if (!NativeWeakRef) return; // an engine without WeakRef: no pool
  spare.out = new NativeWeakRef(out);
  spare.scratch = new NativeWeakRef(scratch);
}
