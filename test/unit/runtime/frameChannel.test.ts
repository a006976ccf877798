// The host <-> holder frame channel (runtime/holder/frameChannel.ts): frames survive any split of
// the byte stream, typed arrays cross as copies of their values, and the receiver puts IPC messages
// and frames back into the sender's one order whichever channel is read first.
import { describe, expect, it } from 'vitest';
import { PassThrough } from 'node:stream';
import { FRAMED_MARKER, frameDecoder, OrderedInbox, writeFrame } from '../../../src/runtime/holder/frameChannel.js';

/** The bytes writeFrame puts on a socket for `message`. */
function encodeFrame(message: unknown): Buffer {
  const sink = new PassThrough();
  writeFrame(sink, message);
  sink.end();
  const chunks: Buffer[] = [];
  for (let c: Buffer | null; (c = sink.read() as Buffer | null) !== null;) chunks.push(c);
  return Buffer.concat(chunks);
}

const MESSAGES: unknown[] = [
  { id: 1, op: 'open', spec: { tables: [{ name: 't', values: new Float64Array([1.5, NaN, -0, Infinity]) }] } },
  { id: 2, ok: true, data: { files: [{ name: 'a.csv', bytes: new Uint8Array([0, 255, 10, 13]) }], note: undefined } },
  { event: 'output', text: 'x'.repeat(70_000) + '\u00e9\u{1F600}' },
  { id: 3, ok: false, error: { code: 'DATA_FILE_NOT_FOUND', message: 'no file' } },
];

function decodeAll(chunks: Buffer[]): unknown[] {
  const out: unknown[] = [];
  const push = frameDecoder((m) => out.push(m));
  for (const c of chunks) push(c);
  return out;
}

describe('frame channel', () => {
  it('decodes frames written back to back in one chunk, in order, with typed arrays, NaN, -0 and undefined kept', () => {
    const out = decodeAll([Buffer.concat(MESSAGES.map((m) => encodeFrame(m)))]);
    expect(out).toEqual(MESSAGES);
    const first = out[0] as { spec: { tables: Array<{ values: Float64Array }> } };
    expect(first.spec.tables[0]!.values).toBeInstanceOf(Float64Array);
    expect(Object.is(first.spec.tables[0]!.values[2], -0)).toBe(true);
    expect('note' in (out[1] as { data: object }).data).toBe(true);
  });

  it('decodes the same messages whatever the chunk boundaries (every split point of a two-frame stream)', () => {
    const stream = Buffer.concat([encodeFrame(MESSAGES[0]), encodeFrame(MESSAGES[3])]);
    for (let at = 0; at <= stream.length; at++) {
      expect(decodeAll([stream.subarray(0, at), stream.subarray(at)])).toEqual([MESSAGES[0], MESSAGES[3]]);
    }
  });

  it('decodes a large frame fed one small chunk at a time', () => {
    const stream = encodeFrame(MESSAGES[2]);
    const chunks: Buffer[] = [];
    for (let i = 0; i < stream.length; i += 997) chunks.push(stream.subarray(i, i + 997));
    expect(decodeAll(chunks)).toEqual([MESSAGES[2]]);
  });

  it('a marker read before its frame holds back the messages after it until the frame is in', () => {
    const seen: unknown[] = [];
    const inbox = new OrderedInbox((m) => seen.push(m));
    inbox.message({ n: 1 });
    inbox.message(FRAMED_MARKER);
    inbox.message({ n: 3 });
    expect(seen).toEqual([{ n: 1 }]);
    inbox.frame({ n: 2 });
    expect(seen).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
  });

  it('frames read before their markers wait for them, each marker taking the next frame', () => {
    const seen: unknown[] = [];
    const inbox = new OrderedInbox((m) => seen.push(m));
    inbox.frame({ n: 1 });
    inbox.frame({ n: 3 });
    expect(seen).toEqual([]);
    inbox.message(FRAMED_MARKER);
    inbox.message({ n: 2 });
    inbox.message(FRAMED_MARKER);
    expect(seen).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
  });
});
