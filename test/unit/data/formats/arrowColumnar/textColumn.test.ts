// An Arrow Utf8 column becomes dictionary codes or UTF-8 by dictEncode's rule; one the distinct
// floor proves to have too many values for a dictionary skips the interning (textColumn.ts
// provenText). Either way the column is the one the per-value path builds (flechette's toArray() +
// typedColumn), on both sides of the rule's limit (half the non-null rows here).
import { columnFromArray, tableFromColumns, tableToIPC, utf8 } from '@uwdata/flechette';
import { describe, expect, it } from 'vitest';
import { decodeArrow } from '../../../../../src/data/formats/arrow.js';
import { DEFAULT_DECODE_CAPS } from '../../../../../src/data/formats/decodeCaps.js';
import { tableDifference } from '../../../../helpers/sameTable.js';

function both(values: Array<string | null>) {
  const bytes = tableToIPC(tableFromColumns({ s: columnFromArray(values, utf8()) }), { format: 'file' })!;
  const [fast, slow] = [true, false].map((columnar) =>
    decodeArrow('t', bytes, 't.arrow', DEFAULT_DECODE_CAPS, { columnar }),
  );
  expect(tableDifference(fast, slow)).toBeNull();
  return fast.columns[0].data.kind;
}

describe('an Arrow text column: dictionary or UTF-8, as the per-value path decides', () => {
  it.each([
    ['all distinct (proven UTF-8 by the floor)', 200_000, (i: number) => `abstract ${i}`, 'utf8'],
    [
      'all distinct after a first stretch of repeats (left to dictEncode, which finds UTF-8)',
      200_000,
      (i: number) => (i < 70_000 ? `r${i % 10}` : `u${i}`),
      'utf8',
    ],
    ['90,000 distinct in 200,000 rows: a dictionary', 200_000, (i: number) => `v${(i * 7919) % 90_000}`, 'dict'],
    [
      'exactly the limit (100,000 distinct, each twice): a dictionary',
      200_000,
      (i: number) => `w${i % 100_000}`,
      'dict',
    ],
    ['one past the limit (100,001 distinct in 200,000 rows): UTF-8', 200_000, (i: number) => `w${i % 100_001}`, 'utf8'],
    ['nulls among all-distinct values', 150_000, (i: number) => (i % 9 === 0 ? null : `n${i}`), 'utf8'],
  ])('%s', (_what, rows, value, kind) => {
    expect(both(Array.from({ length: rows }, (_, i) => value(i)))).toBe(kind);
  });
});
