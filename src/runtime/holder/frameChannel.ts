import type { Writable } from 'node:stream';
import { deserialize, serialize } from 'node:v8';

/**
 * How host and holder talk on Node (holderProcess.ts, holderMain.ts): Node's IPC with JSON
 * serialization carries every message, in order; a message that holds typed arrays (an open's
 * columnar tables, a run's saved files) or is large goes instead as a V8 structured clone on a
 * second socket pair, length-prefixed frames, and IPC carries a marker in its place. The receiver
 * delivers in the IPC order, a marker taking the next frame (waiting for it if the frame is still
 * coming). JSON is cheaper than the advanced IPC serializer for the small messages of a run
 * (docs/benchmarks.md "The round trip (session 13)"); the V8 clone keeps typed arrays as copies and
 * a large string unescaped.
 */

/** What IPC carries in place of a message sent as a frame. */
export const FRAMED_MARKER = Object.freeze({ $framed: 1 });

/** Past this many UTF-16 units of text, a run's reply goes as a frame (no JSON escaping of a large outcome). */
export const JSON_MAX_UNITS = 64 * 1024;

/**
 * Write one message as a frame: a 4-byte little-endian length, then the V8 clone, as two writes
 * (a large table's clone is not copied again to sit behind its length). `written`: called once the
 * whole frame is handed to the system (or the socket failed).
 */
export function writeFrame(socket: Writable, message: unknown, written?: () => void): void {
  const body = serialize(message);
  const head = Buffer.allocUnsafe(4);
  head.writeUInt32LE(body.length, 0);
  socket.write(head);
  socket.write(body, () => written?.());
}

/**
 * Turns the chunks read from the frame socket back into messages, in order. A large frame's chunks
 * are kept as they come and joined once, when its last byte is in (linear in the frame's size).
 */
export function frameDecoder(onMessage: (message: unknown) => void): (chunk: Buffer) => void {
  let parts: Buffer[] = [];
  let buffered = 0;
  let need = -1; // bytes of the frame being read, its length prefix included; -1: prefix not read yet
  return (chunk) => {
    parts.push(chunk);
    buffered += chunk.length;
    for (;;) {
      if (need < 0) {
        if (buffered < 4) return;
        const head = parts[0]!.length >= 4 ? parts[0]! : Buffer.concat(parts, buffered);
        need = 4 + head.readUInt32LE(0);
      }
      if (buffered < need) return;
      const all = parts.length === 1 ? parts[0]! : Buffer.concat(parts, buffered);
      const rest = all.subarray(need);
      const body = all.subarray(4, need);
      parts = rest.length > 0 ? [rest] : [];
      buffered = rest.length;
      need = -1;
      onMessage(deserialize(body));
    }
  };
}

/**
 * Puts the two channels back into one order: IPC messages are delivered as they come, and a
 * marker is replaced by the next frame; messages after a marker wait until its frame is in.
 */
export class OrderedInbox {
  private readonly queue: unknown[] = [];
  private readonly frames: unknown[] = [];

  constructor(private readonly deliver: (message: unknown) => void) {}

  /** A message read from IPC (a marker or the message itself). */
  message(msg: unknown): void {
    if (this.queue.length === 0 && !isMarker(msg)) return this.deliver(msg);
    this.queue.push(msg);
    this.drain();
  }

  /** A message read from the frame socket. */
  frame(msg: unknown): void {
    this.frames.push(msg);
    this.drain();
  }

  private drain(): void {
    while (this.queue.length > 0) {
      const head = this.queue[0];
      if (isMarker(head)) {
        if (this.frames.length === 0) return;
        this.queue.shift();
        this.deliver(this.frames.shift());
      } else {
        this.queue.shift();
        this.deliver(head);
      }
    }
  }
}

function isMarker(msg: unknown): boolean {
  return typeof msg === 'object' && msg !== null && (msg as { $framed?: unknown }).$framed === 1;
}
