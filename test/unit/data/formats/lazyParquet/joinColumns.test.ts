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

  it('merges two dictionaries in first-seen order, as one piece would code them', () => {
    const left = ['b', 'a', null, 'b', 'a', 'a'];
    const right = ['c', 'a', 'c', null, 'a', 'c'];
    const whole = text([...left, ...right]);
    expect(text(left).kind).toBe('dict');
    expect(text(right).kind).toBe('dict');
    expect(joinColumns([text(left), text(right)])).toEqual(whole);
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
