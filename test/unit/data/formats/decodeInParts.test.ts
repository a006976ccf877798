// A Parquet file of 1 MiB or more is decoded in two parts by two warm spare workers
// (decodeInWorker.ts): the joined table must be the one a single worker decodes, every column
// must come from exactly one part, and a part that fails must fail the whole decode (the other
// part's worker cancelled) while the process goes on. Real worker threads, real files.
import { parquetMetadata } from 'hyparquet';
import { afterEach, describe, expect, it } from 'vitest';
import { DataError } from '../../../../src/data/errors.js';
import { DEFAULT_DECODE_CAPS } from '../../../../src/data/formats/decodeCaps.js';
import { decodeInWorker } from '../../../../src/data/formats/decodeInWorker.js';
import { decodeParquet } from '../../../../src/data/formats/parquet.js';
import { partLeaves } from '../../../../src/data/formats/parquetParts.js';
import { spareDecodes, spareState, warmSpares } from '../../../../src/data/formats/spareWorker.js';
import { tableDifference } from '../../../helpers/sameTable.js';
import { largeParquet } from '../../../helpers/tableFiles.js';

const ROWS = 120_000;

/** A ~2 MB uncompressed file: unique ids, repeated names with nulls, doubles, dates, booleans, small ints. */
const bigFile = () => largeParquet(ROWS, { rowGroupSize: 50_000, flag: true });

/** Two warm spares wait once a file big enough to split was decoded (they start 0.5 s and 1 s after it, then warm up). */
async function twoSpares(): Promise<void> {
  for (let i = 0; i < 150 && warmSpares() !== 2; i++) await new Promise((r) => setTimeout(r, 100));
  expect(spareState()?.waiting).toBe(2);
  expect(warmSpares()).toBe(2);
}

afterEach(() => {
  delete process.env.SBIRTOOLS_DECODE_PARALLEL;
});

describe('a large Parquet file decoded in two parts', () => {
  it('splits the columns between the parts by size, each leaf in exactly one part', () => {
    const file = bigFile();
    const meta = parquetMetadata(file.slice().buffer);
    const a = partLeaves(meta, 6, { index: 0, count: 2 });
    const b = partLeaves(meta, 6, { index: 1, count: 2 });
    expect([...a, ...b].sort()).toEqual([0, 1, 2, 3, 4, 5]);
    expect(a.length).toBeGreaterThan(0);
    expect(b.length).toBeGreaterThan(0);
    // the largest column ('name') alone on one side, the next ones on the other
    expect(a.includes(1) !== b.includes(1)).toBe(true);
    expect(partLeaves(meta, 6, { index: 0, count: 2 })).toEqual(a); // the same split every time
  });

  it('joins to the table one worker decodes, on two warm spares that then come back', async () => {
    const file = bigFile();
    expect(file.byteLength).toBeGreaterThan(1 << 20);
    const whole = await decodeParquet('t', file, 't.parquet', DEFAULT_DECODE_CAPS);
    await decodeInWorker('t', file, 't.parquet', 'parquet'); // a new worker; afterwards two spares are kept
    await twoSpares();
    expect(spareDecodes()).toEqual([0, 0]);
    const joined = await decodeInWorker('t', file, 't.parquet', 'parquet');
    expect(spareDecodes()).toEqual([1, 1]); // both spares decoded a part, answered cleanly and came back
    expect(tableDifference(joined, whole)).toBeNull();
    process.env.SBIRTOOLS_DECODE_PARALLEL = '0';
    const single = await decodeInWorker('t', file, 't.parquet', 'parquet');
    expect(tableDifference(single, whole)).toBeNull();
    expect(spareDecodes().reduce((a, b) => a + b, 0)).toBe(3); // one worker decoded the whole file
  }, 60_000);

  it('a damaged column in one part fails the decode; the failed worker is not kept; the next file decodes', async () => {
    const file = bigFile();
    // a file big enough to split, decoded first: the spares start after it (run alone or first,
    // this test otherwise waited for spares nothing had started)
    await decodeInWorker('t', file, 't.parquet', 'parquet');
    await twoSpares();
    // the 4-byte length before one value of 'name' (PLAIN, uncompressed) made huge
    const value = new TextEncoder().encode('Company 12345 Ünïcode');
    let at = -1;
    for (let i = 0; i < file.length && at < 0; i++) if (value.every((b, k) => file[i + k] === b)) at = i;
    expect(at).toBeGreaterThan(4);
    const broken = file.slice();
    new DataView(broken.buffer).setUint32(at - 4, 0x7fff_fff0, true);
    const err = await decodeInWorker('t', broken, 'broken.parquet', 'parquet').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DataError);
    expect(err).toMatchObject({ code: 'DATA_CORRUPT', message: expect.stringMatching(/broken\.parquet: .*'name'/) });
    expect((spareState()?.waiting ?? (spareState() ? 1 : 0)) < 2).toBe(true); // the worker that failed did not come back
    const again = await decodeInWorker('t', file, 't.parquet', 'parquet');
    expect(again.numRows).toBe(ROWS);
  }, 60_000);
});
