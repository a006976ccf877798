// The first large Parquet file of a process (8 MiB or more, no warm spares yet) is decoded in two
// parts on two fresh workers (decodeInWorker.ts): the joined table must be the one a single
// worker decodes and the one decoded in this thread. A fresh test file: no spares are warm.
import { parquetWriteBuffer } from 'hyparquet-writer';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_DECODE_CAPS } from '../../../../src/data/formats/decodeCaps.js';
import { decodeInWorker } from '../../../../src/data/formats/decodeInWorker.js';
import { decodeParquet } from '../../../../src/data/formats/parquet.js';
import { warmSpares } from '../../../../src/data/formats/spareWorker.js';
import { tableDifference } from '../../../helpers/sameTable.js';

const ROWS = 300_000;

/** A ~12 MB uncompressed file: unique ids, repeated names with nulls, doubles, dates, small ints. */
function largeFile(): Uint8Array {
  return new Uint8Array(
    parquetWriteBuffer({
      columnData: [
        { name: 'id', data: Array.from({ length: ROWS }, (_, i) => `ID-${(i * 7919).toString(36)}`), type: 'STRING', encoding: 'PLAIN' },
        { name: 'name', data: Array.from({ length: ROWS }, (_, i) => (i % 9 === 0 ? null : `Company ${i % 20_000} Ünïcode`)), type: 'STRING', encoding: 'PLAIN' },
        { name: 'amount', data: Array.from({ length: ROWS }, (_, i) => (i % 5 === 0 ? null : i * 1.5)), type: 'DOUBLE' },
        { name: 'when', data: Array.from({ length: ROWS }, (_, i) => new Date(Date.UTC(2000, 0, 1) + (i % 9000) * 86_400_000)), type: 'TIMESTAMP' },
        { name: 'small', data: Int32Array.from({ length: ROWS }, (_, i) => i % 500), type: 'INT32' },
      ],
      codec: 'UNCOMPRESSED',
      rowGroupSize: 100_000,
    }),
  );
}

afterEach(() => {
  delete process.env.SBIRTOOLS_DECODE_PARALLEL;
});

describe('the first large Parquet file of a process', () => {
  it('decodes on two fresh workers into the table one worker and this thread decode', async () => {
    const file = largeFile();
    expect(file.byteLength).toBeGreaterThanOrEqual(8 * 1024 * 1024);
    expect(warmSpares()).toBe(0);
    const parts = await decodeInWorker('t', file, 't.parquet', 'parquet');
    process.env.SBIRTOOLS_DECODE_PARALLEL = '0';
    const single = await decodeInWorker('t', file, 't.parquet', 'parquet');
    const here = await decodeParquet('t', file, 't.parquet', DEFAULT_DECODE_CAPS);
    expect(parts.numRows).toBe(ROWS);
    expect(tableDifference(parts, single)).toBeNull();
    expect(tableDifference(parts, here)).toBeNull();
  }, 120_000);
});
