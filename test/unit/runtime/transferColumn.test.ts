// A column handed to the isolate as copies of its arrays moved in (transferColumn.ts): the guest gets
// exactly the column's bytes (never a view's neighbouring bytes), the host's column is left whole
// (providers keep it for other sessions), and the moved bytes count against the isolate's memory limit.
import { describe, expect, it } from 'vitest';
import { loadEngine } from '../../../src/runtime/engines/isolated-vm/loadIsolatedVm.js';
import { transferColumn } from '../../../src/runtime/engines/isolated-vm/transferColumn.js';
import type { ColumnData } from '../../../schema/columnar.js';

const { ivm } = loadEngine();

/** Runs `code` in a fresh isolate whose global `fetch()` returns transferColumn(column). */
function inIsolate(column: ColumnData, code: string, memoryLimit = 64, handedOver = false): unknown {
  const isolate = new ivm.Isolate({ memoryLimit });
  try {
    const context = isolate.createContextSync();
    context.global.setSync('fetch', new ivm.Callback(() => transferColumn(ivm, column, handedOver)));
    return context.evalSync(code, { copy: true } as never);
  } finally {
    if (!isolate.isDisposed) isolate.dispose();
  }
}

describe('transferColumn', () => {
  it('gives the guest each array with exactly its own bytes, and leaves the host column whole', () => {
    // views into larger buffers whose other bytes must never reach the guest
    const backing = new Float64Array(16).fill(-7);
    const values = backing.subarray(4, 8);
    values.set([1.5, 2.5, 3.5, 4.5]);
    const bytes = new Uint8Array(32).fill(0xee);
    const valid = bytes.subarray(8, 12);
    valid.set([1, 0, 1, 1]);
    const column: ColumnData = { kind: 'float64', type: 'number', values, valid };
    const seen = inIsolate(
      column,
      `const c = fetch();
      JSON.stringify({ kind: c.kind, type: c.type, values: [...c.values], valid: [...c.valid],
        tags: [c.values.constructor.name, c.valid.constructor.name],
        bufferBytes: [c.values.buffer.byteLength, c.valid.buffer.byteLength] })`,
    );
    expect(JSON.parse(seen as string)).toEqual({
      kind: 'float64',
      type: 'number',
      values: [1.5, 2.5, 3.5, 4.5],
      valid: [1, 0, 1, 1],
      tags: ['Float64Array', 'Uint8Array'],
      bufferBytes: [32, 4],
    });
    // nothing of the host's was detached or changed
    expect([...values]).toEqual([1.5, 2.5, 3.5, 4.5]);
    expect(backing.length).toBe(16);
    expect(bytes[0]).toBe(0xee);
  });

  it('moves dictionary and text columns with their offsets', () => {
    const column: ColumnData = {
      kind: 'utf8',
      type: 'string',
      bytes: Buffer.from('héllo wörld'), // a Node Buffer, as some readers make
      offsets: Int32Array.from([0, 6, 13]),
      valid: Uint8Array.from([1, 1]),
    };
    const seen = inIsolate(
      column,
      `const c = fetch();
      [[...c.bytes], [...c.offsets], c.bytes.constructor.name, c.offsets.constructor.name, c.bytes.buffer.byteLength]`,
    );
    expect(seen).toEqual([[...Buffer.from('héllo wörld')], [0, 6, 13], 'Uint8Array', 'Int32Array', 13]);
  });

  it('counts the moved bytes against the memory limit: a column larger than it ends the isolate', () => {
    const n = 8 * 1024 * 1024; // 72 MB of numbers and validity into a 16 MB isolate
    const column: ColumnData = {
      kind: 'float64',
      type: 'number',
      values: new Float64Array(n),
      valid: new Uint8Array(n),
    };
    expect(() => inIsolate(column, 'fetch().values.length', 16)).toThrow(/memory limit/);
    // within the limit it arrives
    const small: ColumnData = {
      kind: 'float64',
      type: 'number',
      values: new Float64Array(1000),
      valid: new Uint8Array(1000),
    };
    expect(inIsolate(small, 'fetch().values.length', 16)).toBe(1000);
  });

  it('a column its provider handed over: arrays that own exactly their buffer move as they are; the others are copied', () => {
    const values = Float64Array.of(1.5, 2.5, 3.5);
    const backing = new Uint8Array(16).fill(0xee);
    const valid = backing.subarray(4, 7);
    valid.set([1, 0, 1]);
    const column: ColumnData = { kind: 'float64', type: 'number', values, valid };
    const seen = inIsolate(
      column,
      'const c = fetch(); [[...c.values], [...c.valid], c.valid.buffer.byteLength]',
      64,
      true,
    );
    expect(seen).toEqual([[1.5, 2.5, 3.5], [1, 0, 1], 3]);
    // moved, not copied: the host's buffer is detached; the view over a larger buffer was copied
    expect(values.buffer.byteLength).toBe(0);
    expect([...valid]).toEqual([1, 0, 1]);
    expect(backing[0]).toBe(0xee);
    // still counted against the memory limit
    const n = 8 * 1024 * 1024;
    const big: ColumnData = { kind: 'float64', type: 'number', values: new Float64Array(n), valid: new Uint8Array(n) };
    expect(() => inIsolate(big, 'fetch().values.length', 16, true)).toThrow(/memory limit/);
  });
});
