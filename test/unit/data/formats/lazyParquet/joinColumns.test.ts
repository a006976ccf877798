// The halves of a column decoded on two workers join into the column a one-piece decode gives.
import { describe, expect, it } from 'vitest';
import type { ColumnData } from '../../../../../schema/columnar.js';
import { stringColumn } from '../../../../../src/data/formats/typedColumn.js';
import { joinColumns } from '../../../../../src/data/formats/lazyParquet/joinColumns.js';

const text = (values: Array<string | null>) => stringColumn(values);

describe('joinColumns', () => {
  it('concatenates numbers and their nulls', () => {
    const a: ColumnData = { kind: 'float64', type: 'date', values: Float64Array.of(1, 2), valid: Uint8Array.of(1, 0) };
    const b: ColumnData = { kind: 'float64', type: 'date', values: Float64Array.of(3), valid: Uint8Array.of(1) };
    expect(joinColumns([a, b])).toEqual({
      kind: 'float64',
      type: 'date',
      values: Float64Array.of(1, 2, 3),
      valid: Uint8Array.of(1, 0, 1),
    });
  });

  it('a first part whose arrays start buffers with room for every row: filled in place, the same column as one piece', () => {
    const roomy = <T extends Float64Array | Uint8Array | Int32Array>(part: T, n: number): T => {
      const big = new (part.constructor as new (n: number) => T)(n);
      big.set(part);
      return big.subarray(0, part.length) as T;
    };
    const a = { values: Float64Array.of(1, 2), valid: Uint8Array.of(1, 0) };
    const b: ColumnData = {
      kind: 'float64',
      type: 'number',
      values: Float64Array.of(3, 4),
      valid: Uint8Array.of(1, 1),
    };
    const first: ColumnData = { kind: 'float64', type: 'number', values: roomy(a.values, 4), valid: roomy(a.valid, 4) };
    const joined = joinColumns([first, b]) as Extract<ColumnData, { kind: 'float64' }>;
    expect(joined).toEqual({
      kind: 'float64',
      type: 'number',
      values: Float64Array.of(1, 2, 3, 4),
      valid: Uint8Array.of(1, 0, 1, 1),
    });
    // the column is the first part's buffers, each array its whole buffer (it moves into an isolate as it is)
    expect(joined.values.buffer).toBe((first as typeof joined).values.buffer);
    expect(joined.valid.buffer).toBe((first as typeof joined).valid.buffer);
    expect(joined.values.byteLength).toBe(joined.values.buffer.byteLength);
    // a buffer with more room than the rows, or a part that does not start its buffer: copied as before
    const loose: ColumnData = { kind: 'float64', type: 'number', values: roomy(a.values, 5), valid: roomy(a.valid, 4) };
    expect((joinColumns([loose, b]) as typeof joined).values.buffer).not.toBe((loose as typeof joined).values.buffer);
    expect(joinColumns([loose, b])).toEqual(joined);

    const left = ['a', 'b', null, 'a', 'b', 'b', null];
    const right = [null, 'c', 'b', 'b', 'a', null, 'c', 'c', 'a'];
    expect(text(right).kind).toBe('dict');
    const l = text(left) as Extract<ColumnData, { kind: 'dict' }>;
    const roomyLeft: ColumnData = { ...l, codes: roomy(l.codes, left.length + right.length) };
    const joinedText = joinColumns([roomyLeft, text(right)]) as typeof l;
    expect(joinedText).toEqual(text([...left, ...right]));
    expect(joinedText.codes.buffer).toBe((roomyLeft as typeof l).codes.buffer);
    // halves too varied to stay a dictionary: plain text, the first part's codes read as they were
    const many = Array.from({ length: 7 }, (_, i) => `v${i}`);
    expect(joinColumns([roomyLeft, text(many)])).toEqual(text([...left, ...many]));
  });

  it('merges two dictionaries in first-seen order, as one piece would code them', () => {
    const left = ['b', 'a', null, 'b', 'a', 'a'];
    const right = ['c', 'a', 'c', null, 'a', 'c'];
    const whole = text([...left, ...right]);
    expect(text(left).kind).toBe('dict');
    expect(text(right).kind).toBe('dict');
    expect(joinColumns([text(left), text(right)])).toEqual(whole);
  });

  it('halves whose values came in the same order (codes copied whole): the nulls kept, the same column as one piece', () => {
    const left = ['a', 'b', null, 'a', 'b', 'b', null];
    const right = [null, 'a', 'b', 'b', 'a', null, 'a'];
    const joined = joinColumns([text(left), text(right)]);
    expect(joined.kind).toBe('dict');
    expect(joined).toEqual(text([...left, ...right]));
    // a part whose values came in another order is renumbered
    const other = ['b', 'a', null, 'a', 'b'];
    expect(text(other).kind).toBe('dict');
    expect(joinColumns([text(left), text(other)])).toEqual(text([...left, ...other]));
  });

  it('grows a first text half held in a resizable buffer in place: the same rows, the first half not copied', () => {
    const utf8 = (values: Array<string | null>, resizable: boolean): ColumnData => {
      const plain = text(values) as Extract<ColumnData, { kind: 'utf8' }>;
      const n = plain.bytes.length;
      const Resizable = ArrayBuffer as unknown as new (n: number, o: { maxByteLength: number }) => ArrayBuffer;
      const bytes = resizable ? new Uint8Array(new Resizable(n, { maxByteLength: 1 << 20 }), 0, n) : plain.bytes;
      bytes.set(plain.bytes);
      return { ...plain, bytes };
    };
    const left = ['alpha é', null, 'beta', 'gamma 😀', 'delta'];
    const right = ['u1', null, 'u2 é', 'u3', 'u4', 'u5'];
    const first = utf8(left, true) as Extract<ColumnData, { kind: 'utf8' }>;
    expect(first.kind).toBe('utf8');
    const joined = joinColumns([first, utf8(right, false)]) as Extract<ColumnData, { kind: 'utf8' }>;
    // the first half's buffer, grown to hold both
    expect(joined.bytes.buffer).toBe(first.bytes.buffer);
    const whole = text([...left, ...right]) as Extract<ColumnData, { kind: 'utf8' }>;
    expect(whole.kind).toBe('utf8');
    expect(Buffer.from(joined.bytes).equals(Buffer.from(whole.bytes))).toBe(true);
    expect(joined.offsets).toEqual(whole.offsets);
    expect(joined.valid).toEqual(whole.valid);
    // a buffer too small to grow to the whole: joined by copying, the same rows
    const small = utf8(left, true) as Extract<ColumnData, { kind: 'utf8' }>;
    const big = utf8(['x'.repeat(1 << 20)], false);
    const copied = joinColumns([small, big]) as Extract<ColumnData, { kind: 'utf8' }>;
    expect(copied.bytes.buffer).not.toBe(small.bytes.buffer);
    expect(Buffer.from(copied.bytes.subarray(0, small.bytes.length)).equals(Buffer.from(small.bytes))).toBe(true);
  });

  it('joins text, and a dictionary half with a text half, as UTF-8 rows', () => {
    const left = ['x', 'x', 'y', 'y'];
    const right = ['u1', null, 'u2 é', 'u3'];
    const joined = joinColumns([text(left), text(right)]);
    expect(joined.kind).toBe('utf8');
    const r = joined as Extract<ColumnData, { kind: 'utf8' }>;
    const rows = Array.from(r.valid, (v, i) =>
      v ? Buffer.from(r.bytes.subarray(r.offsets[i], r.offsets[i + 1])).toString() : null,
    );
    expect(rows).toEqual([...left, ...right]);
  });
});
