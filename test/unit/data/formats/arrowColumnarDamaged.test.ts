// Damaged Arrow files the columnar reader must refuse (DATA_CORRUPT with the hint), never turn into
// short, shifted or null-filled columns: flechette reads lengths, null counts and keys from the
// file without checking them against the buffers, and the per-value path silently makes nulls or
// zeros of what is missing. Each file is written by flechette's own writer from batches whose
// numbers are set by hand (the writer copies them as they are).
import { batchType, Column, dictionary, float64, int32, tableFromColumns, tableToIPC, utf8 } from '@uwdata/flechette';
import { describe, expect, it } from 'vitest';
import { decodeArrow } from '../../../../src/data/formats/arrow.js';
import { DEFAULT_DECODE_CAPS } from '../../../../src/data/formats/decodeCaps.js';
import { DataError } from '../../../../src/data/index.js';

type AnyType = ReturnType<typeof int32>;
const batch = (type: AnyType, fields: Record<string, unknown>) =>
  new (batchType(type, { useBigInt: true }))({ type, nullCount: 0, validity: new Uint8Array(0), ...fields } as never);
const ipc = (cols: Record<string, unknown[]>) =>
  tableToIPC(tableFromColumns(Object.fromEntries(Object.entries(cols).map(([k, b]) => [k, new Column(b as never)]))), {
    format: 'stream',
  })!;

function refused(bytes: Uint8Array): DataError {
  let err: unknown = null;
  try {
    decodeArrow('t', bytes, 'd.arrow', DEFAULT_DECODE_CAPS);
  } catch (e) {
    err = e;
  }
  expect(err).toBeInstanceOf(DataError);
  expect((err as DataError).code).toBe('DATA_CORRUPT');
  expect((err as DataError).hint).toMatch(/damaged or truncated/);
  return err as DataError;
}

describe('damaged Arrow files: DATA_CORRUPT, never a wrong column', () => {
  it('a dictionary key outside its dictionary (the per-value path reads it as null)', () => {
    const dictType = dictionary(utf8(), int32());
    const values = new Column([
      batch(dictType.dictionary as AnyType, {
        length: 2,
        offsets: Int32Array.from([0, 1, 2]),
        values: Uint8Array.from([0x61, 0x62]),
      }),
    ] as never);
    const keys = (
      batch(dictType as unknown as AnyType, { length: 3, values: Int32Array.from([0, 1, 7]) }) as unknown as {
        setDictionary(c: unknown): unknown;
      }
    ).setDictionary(values);
    const bytes = ipc({ s: [keys] });
    expect(refused(bytes).message).toMatch(
      /column 's' is damaged: row 3 of record batch 1 has dictionary key 7, outside its dictionary of 2 entries/,
    );
    // what the columnar path refuses, the per-value path would have loaded with a null in row 3
    const slow = decodeArrow('t', bytes, 'd.arrow', DEFAULT_DECODE_CAPS, { columnar: false });
    expect((slow.columns[0].data as { kind: string; valid: Uint8Array }).valid).toEqual(Uint8Array.from([1, 1, 0]));
  });

  it('nulls declared without a validity bitmap (the per-value path makes every row null)', () => {
    const bytes = ipc({ n: [batch(int32(), { length: 3, nullCount: 1, values: Int32Array.from([1, 2, 3]) })] });
    expect(refused(bytes).message).toMatch(
      /column 'n' is damaged: record batch 1 declares 1 nulls but its validity bitmap has 0 bytes for 3 rows/,
    );
  });

  it('more nulls than rows', () => {
    const bytes = ipc({
      n: [
        batch(int32(), { length: 3, nullCount: 4, validity: Uint8Array.from([0]), values: Int32Array.from([1, 2, 3]) }),
      ],
    });
    expect(refused(bytes).message).toMatch(/declares 4 nulls in 3 rows/);
  });

  it('fewer values than rows in a later batch (the per-value path pads with zeros)', () => {
    const bytes = ipc({
      x: [
        batch(float64(), { length: 2, values: Float64Array.from([1, 2]) }),
        batch(float64(), { length: 3, values: Float64Array.from([1, 2, 3]) }),
      ],
    });
    // the same, but the second batch's values buffer holds 1 value for its 3 rows
    const short = ipc({
      x: [
        batch(float64(), { length: 2, values: Float64Array.from([1, 2]) }),
        { ...batch(float64(), { length: 3, values: Float64Array.from([1, 2, 3]) }), values: Float64Array.from([1]) },
      ],
    });
    expect(decodeArrow('t', bytes, 'd.arrow', DEFAULT_DECODE_CAPS).numRows).toBe(5);
    expect(refused(short).message).toMatch(/column 'x' is damaged: record batch 2 has 1 values for 3 rows/);
  });

  it('batches that do not line up across columns (rows would shift from one column to the next)', () => {
    const col = (n: number[]) =>
      n.map((length) => batch(int32(), { length, values: Int32Array.from({ length }, (_, i) => i) }));
    const bytes = ipc({ a: col([2, 3]), b: col([2, 3]) });
    // the record batches' field nodes (vector length 2, then (length, null count) as int64 pairs): column b
    // declares 3 rows in the first record batch and 2 in the second; both columns still hold 5 rows
    const nodes = (n: number) =>
      Uint8Array.from([2, 0, 0, 0, n, ...new Array(15).fill(0), n, ...new Array(15).fill(0)]);
    const at = (n: number) => Buffer.from(bytes).indexOf(nodes(n));
    expect(at(2)).toBeGreaterThan(0);
    expect(at(3)).toBeGreaterThan(0);
    const bad = bytes.slice();
    bad[at(2) + 4 + 16] = 3;
    bad[at(3) + 4 + 16] = 2;
    expect(refused(bad).message).toMatch(
      /column 'b' is damaged: record batch 1 has 3 rows where the first column has 2/,
    );
  });
});
