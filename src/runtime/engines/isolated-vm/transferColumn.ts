import type { ColumnData } from '../../../../schema/columnar.js';
import type { Ivm } from './loadIsolatedVm.js';

type View = Exclude<ColumnData[keyof ColumnData], string>;
type ViewClass = new (buffer: ArrayBuffer) => View;

/** The typed array classes a column holds, by their tag (a Node Buffer's tag is Uint8Array). */
const VIEW_CLASSES: Record<string, ViewClass> = {
  Float64Array,
  Int32Array,
  Uint8Array,
} as unknown as Record<string, ViewClass>;

/**
 * A column for a bridge callback to return into the isolate: each typed array copied once here, to
 * an ArrayBuffer of exactly its bytes, and those buffers moved into the isolate (an ExternalCopy
 * transferred in) instead of the callback's result being serialized and copied again there (0.46
 * -> 0.20 ms wall p50 for a column of 219,590 numbers, docs/benchmarks.md). The host's column is
 * never detached (a provider may keep it for other sessions), only its copy moves, and a view's
 * neighbouring bytes never go along. The moved buffers count against the isolate's memory limit as
 * copied ones do (isolated-vm tracks them in its allocator); one that does not fit ends the run as
 * MEMORY_LIMIT instead of throwing a RangeError into the guest.
 * `handedOver`: the provider gave the column up (TableProvider.takeColumn: no one else holds it), so
 * an array that owns exactly its plain buffer is moved as it is, not copied first (a 5M-row number
 * column: 40 MB not allocated, written and held twice on its way in); the host's views are detached.
 */
export function transferColumn(ivm: Ivm, column: ColumnData, handedOver = false): unknown {
  const out: Record<string, unknown> = {};
  const buffers: ArrayBuffer[] = [];
  for (const [key, value] of Object.entries(column)) {
    if (!ArrayBuffer.isView(value)) {
      out[key] = value;
      continue;
    }
    const Class = VIEW_CLASSES[(value as Uint8Array)[Symbol.toStringTag]];
    if (!Class) throw new Error(`transferColumn: unexpected ${(value as Uint8Array)[Symbol.toStringTag]} in a column`);
    if (handedOver && movable(value, buffers)) {
      out[key] = value;
      buffers.push(value.buffer as ArrayBuffer);
      continue;
    }
    const own = (value.buffer as ArrayBuffer).slice(value.byteOffset, value.byteOffset + value.byteLength);
    out[key] = new Class(own);
    buffers.push(own);
  }
  return new ivm.ExternalCopy(out, { transferList: buffers }).copyInto({ release: true, transferIn: true });
}

/**
 * Whether a view can be moved as it is: it spans exactly its buffer, a plain ArrayBuffer (not
 * shared, not resizable: not what isolated-vm takes in), not already moved for another array.
 */
function movable(view: ArrayBufferView, moved: readonly ArrayBuffer[]): boolean {
  const buffer = view.buffer as ArrayBuffer & { resizable?: boolean };
  return (
    buffer instanceof ArrayBuffer &&
    buffer.resizable !== true &&
    view.byteOffset === 0 &&
    view.byteLength === buffer.byteLength &&
    !moved.includes(buffer)
  );
}
