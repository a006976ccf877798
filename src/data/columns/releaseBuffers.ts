import { MessageChannel } from 'node:worker_threads';
import type { ColumnData } from '../../../schema/columnar.js';

/**
 * Gives back at once the memory of the parts' arrays that `kept` does not use: the halves of a
 * column once lazyParquet/joinColumns.ts has copied them into the joined column (a long text column's second
 * half is as large as its text's half). Dropped, they would stay resident until this thread's
 * next garbage collection, on top of the joined column (see {@link releaseBuffers}). The parts
 * must not be read again (their arrays are empty after). Shared buffers are left alone.
 * @example const joined = joinColumns(parts); releaseParts(parts, joined);
 */
export function releaseParts(parts: readonly ColumnData[], kept: ColumnData): void {
  const keep = new Set<ArrayBufferLike>(arraysOf(kept).map((a) => a.buffer));
  const drop = new Set<ArrayBuffer>();
  for (const p of parts)
    for (const a of arraysOf(p)) if (!keep.has(a.buffer) && a.buffer instanceof ArrayBuffer) drop.add(a.buffer);
  releaseBuffers(drop);
}

/**
 * Gives back the memory of `buffers`, which nothing reads again: a resizable one is resized to 0
 * bytes (at once); plain ones are transferred to a closed message port, which frees them when this
 * thread next turns its event loop (not at its next garbage collection, which may not come while
 * it is idle). Shared buffers are never passed here.
 * @example releaseBuffers([filled.buffer]);
 */
export function releaseBuffers(buffers: Iterable<ArrayBuffer>): void {
  const plain: ArrayBuffer[] = [];
  for (const b of buffers) {
    const r = b as ArrayBuffer & { resizable?: boolean; resize?: (n: number) => void };
    if (r.resizable === true && typeof r.resize === 'function') r.resize(0);
    else if (b.byteLength > 0) plain.push(b);
  }
  if (plain.length === 0) return;
  const { port1, port2 } = new MessageChannel();
  port1.postMessage(null, plain);
  port1.close();
  port2.close();
}

function arraysOf(c: ColumnData): ArrayBufferView[] {
  return Object.values(c).filter((v): v is ArrayBufferView => ArrayBuffer.isView(v));
}
