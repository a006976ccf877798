import { releaseBuffers } from './releaseBuffers.js';

/** `new ArrayBuffer(n, { maxByteLength })` (ES2024 resizable buffers, in Node >= 20). */
const ResizableArrayBuffer = ArrayBuffer as unknown as new (
  n: number,
  o: { maxByteLength: number },
) => ArrayBuffer & {
  resize(n: number): void;
  readonly maxByteLength: number;
};

/** Largest text column: offsets are Int32. */
export const MAX_COLUMN_BYTES = 0x7fffffff;

/**
 * Cells of this many bytes or more are appended by one native copy, shorter ones byte by byte.
 * A store into a view of a resizable buffer costs ~4 ns a byte on Node 20 (three times a plain
 * array's), a `Buffer.copy` ~80 ns a call whatever its length: they cross near 24 bytes (was 48:
 * the scale bench's ~45-byte abstracts were copied a byte at a time; docs/benchmarks.md, session 17).
 */
const COPY_FROM = 24;

/** Bytes copied out of the resizable buffer before it is shrunk behind them ({@link ByteStore.finish}). */
const FINISH_STEP = 16 << 20;

/**
 * Append-only bytes in one resizable ArrayBuffer: it reserves address space up front and
 * commits pages as it grows, so a 300 MB text column is written once, never copied while it
 * grows or concatenated at the end (fresh pages are the dominant ingest cost on small VMs).
 */
export class ByteStore {
  /** Bytes appended so far. */
  length = 0;
  private readonly rab: InstanceType<typeof ResizableArrayBuffer>;
  /** A length-tracking view: it follows every resize. */
  private readonly view: Uint8Array;
  /** The bytes once finished (a plain buffer). */
  private done: Uint8Array | null = null;

  /** @param maxBytes upper bound of what will be appended (reserved, not allocated). */
  constructor(maxBytes = MAX_COLUMN_BYTES) {
    this.rab = new ResizableArrayBuffer(0, { maxByteLength: Math.max(1, Math.min(maxBytes, MAX_COLUMN_BYTES)) });
    this.view = new Uint8Array(this.rab);
  }

  /** Appends `buf[s, e)`; returns the new length. */
  append(buf: Buffer, s: number, e: number): number {
    const n = e - s;
    let at = this.length;
    if (at + n > this.view.length) this.grow(at + n);
    const out = this.view;
    if (n < COPY_FROM) for (let k = s; k < e; k++) out[at++] = buf[k];
    else at += buf.copy(out, at, s, e);
    return (this.length = at);
  }

  /** Appends `buf[s, e)` with every `""` collapsed to `"`; returns the new length. */
  appendUnescaped(buf: Buffer, s: number, e: number): number {
    for (let k = s; k < e;) {
      const q = buf.indexOf(0x22, k);
      const stop = q < 0 || q >= e ? e : q + 1; // keep the first quote of a pair
      this.append(buf, k, stop);
      k = stop === e ? e : stop + 1; // skip its twin
    }
    return this.length;
  }

  /**
   * The bytes, in a plain buffer of their exact size (what isolated-vm and structured clone take; a
   * view of the resizable one would be copied again by compactTable.ts). Copied from the end in
   * {@link FINISH_STEP} steps, the resizable buffer shrinking behind each step, so the bytes are held
   * once and a step, not twice (a 5M-row abstract column: ~225 MB). The same array on every call;
   * nothing may be appended after.
   */
  finish(): Uint8Array {
    if (this.done) return this.done;
    const n = this.length;
    const out = new Uint8Array(n);
    for (let end = n; end > 0;) {
      const start = Math.max(0, end - FINISH_STEP);
      out.set(this.view.subarray(start, end), start);
      this.rab.resize(start);
      end = start;
    }
    this.done = out;
    return out;
  }

  /** Gives the bytes' memory back at once (the column was built from them and they are not read again). */
  release(): void {
    this.rab.resize(0);
    this.length = 0;
    if (this.done) releaseBuffers([this.done.buffer as ArrayBuffer]);
    this.done = null;
  }

  private grow(need: number): void {
    if (need > this.rab.maxByteLength) throw new RangeError(`byte store limit ${this.rab.maxByteLength} exceeded`);
    this.rab.resize(Math.min(this.rab.maxByteLength, Math.max(need, this.view.length * 2, 1 << 16)));
  }
}
