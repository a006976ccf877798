// A lazily read Arrow table (src/data/formats/arrowColumnar/lazyArrow.ts) keeps only an open
// descriptor: its metadata is read and checked at open, each column's buffers are read from disk
// when a run first touches it. The columns must be exactly those of the whole file decoded at once
// (decodeArrow), for the IPC file and stream forms, several record batches, nulls, dictionaries and
// every loadable type; only the metadata is read at open; and a file changed on disk after the open
// fails the next column read with DATA_CORRUPT, never other values.
import { closeSync, mkdtempSync, openSync, rmSync, truncateSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  bool,
  columnFromArray,
  dateDay,
  dictionary,
  float64,
  int32,
  int64,
  tableFromColumns,
  tableToIPC,
  timestamp,
  utf8,
} from '@uwdata/flechette';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DataError } from '../../../../../src/data/index.js';
import { dataErrorCode } from '../../../../helpers/dataErrorCode.js';
import { decodeArrow } from '../../../../../src/data/formats/arrow.js';
import { arrowMetadata, columnRanges, sparseFile } from '../../../../../src/data/formats/arrowColumnar/arrowOnDisk.js';
import { fileSource } from '../../../../../src/data/formats/byteSource.js';
import { DEFAULT_DECODE_CAPS } from '../../../../../src/data/formats/decodeCaps.js';
import { openArrow } from '../../../../../src/data/formats/arrow.js';
import { openLazyParquet } from '../../../../../src/data/formats/lazyParquet/lazyParquetTable.js';
import { columnWorkers } from '../../../../../src/data/formats/lazyParquet/columnWorkers.js';

const ROWS = 30_000;
const BATCH = 7_000; // five record batches, the last one short
let dir: string;

/** Every loadable type, with nulls, in record batches of BATCH rows. */
function table(): ReturnType<typeof tableFromColumns> {
  const o = { maxBatchRows: BATCH };
  const idx = Array.from({ length: ROWS }, (_, i) => i);
  return tableFromColumns({
    text: columnFromArray(
      idx.map((i) => (i % 13 === 0 ? null : `row ${i} ${'é'.repeat(i % 5)}`)),
      utf8(),
      o,
    ),
    cat: columnFromArray(
      idx.map((i) => (i % 17 === 0 ? null : `cat ${i % 9}`)),
      dictionary(utf8(), int32()),
      o,
    ),
    amount: columnFromArray(
      idx.map((i) => (i % 11 === 0 ? null : i * 1.25)),
      float64(),
      o,
    ),
    n: columnFromArray(
      idx.map((i) => i - 500),
      int32(),
      o,
    ),
    big: columnFromArray(
      idx.map((i) => BigInt(i) * 3n),
      int64(),
      { ...o, useBigInt: true } as never,
    ),
    flag: columnFromArray(
      idx.map((i) => (i % 7 === 0 ? null : i % 2 === 0)),
      bool(),
      o,
    ),
    day: columnFromArray(
      idx.map((i) => (i % 19 === 0 ? null : i)),
      dateDay(),
      o,
    ),
    at: columnFromArray(
      idx.map((i) => i * 60_000),
      timestamp(),
      o,
    ),
  });
}

const forms: Record<string, Uint8Array> = {};
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'sbirtools-lazy-arrow-'));
  const t = table();
  forms.file = tableToIPC(t, { format: 'file' })!;
  forms.stream = tableToIPC(t, { format: 'stream' })!;
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function write(name: string, bytes: Uint8Array): string {
  const p = join(dir, name);
  writeFileSync(p, bytes);
  return p;
}

const code = dataErrorCode;

describe('an Arrow table read a column at a time from disk', () => {
  for (const form of ['file', 'stream'] as const) {
    it(`gives the columns of the whole file decoded at once (IPC ${form})`, async () => {
      const bytes = forms[form];
      const whole = decodeArrow('t', bytes, `t.${form}`, DEFAULT_DECODE_CAPS);
      const t = await openLazyParquet('t', write(`t.${form}.arrow`, bytes), `t.${form}`, DEFAULT_DECODE_CAPS, {
        format: 'arrow',
      });
      expect(t.meta.numRows).toBe(ROWS);
      expect(whole.columns.length).toBe(8);
      // in an order unlike the file's, each column alone
      for (const c of [...whole.columns].reverse()) expect(t.loadColumn(c.name), c.name).toEqual(c.data);
      // each column is written whole by one worker: no second one was started for the table
      expect(columnWorkers(DEFAULT_DECODE_CAPS.heapMb).running).toBe(1);
    }, 60_000);
  }

  it('reads only the metadata at open, and only a column’s own buffers for that column', () => {
    const p = write('parts.arrow', forms.file);
    const fd = openSync(p, 'r');
    try {
      const size = forms.file.byteLength;
      const parts = arrowMetadata(fileSource(fd, size, 'parts.arrow'), 'parts.arrow');
      const read = parts.reduce((n, [, b]) => n + b.byteLength, 0);
      expect(read).toBeLessThan(size / 10);
      const bytes = sparseFile(size, parts);
      const opened = openArrow(bytes, 'parts.arrow', DEFAULT_DECODE_CAPS);
      const sizes = opened.fields.map((_, i) =>
        columnRanges(opened.table.getChildAt(i)!.data, bytes.buffer).reduce((n, [, l]) => n + l, 0),
      );
      // every column's buffers together are the rest of the file, none of them most of it
      expect(sizes.reduce((a, b) => a + b, 0) + read).toBeGreaterThan(size * 0.9);
      for (const s of sizes) expect(s).toBeLessThan(size / 2);
    } finally {
      closeSync(fd);
    }
  });

  it('truncated after the open: DATA_CORRUPT on the next column read', async () => {
    const p = write('cut.arrow', forms.file);
    const t = await openLazyParquet('t', p, 'cut.arrow', DEFAULT_DECODE_CAPS, { format: 'arrow' });
    expect(t.loadColumn('n').kind).toBe('float64');
    truncateSync(p, Math.floor(forms.file.byteLength / 2));
    expect(code(() => t.loadColumn('text'))).toBe('DATA_CORRUPT');
    expect(code(() => t.loadColumn('at'))).toBe('DATA_CORRUPT');
  }, 60_000);

  it('rewritten in place, even with the same bytes: refused, never a mix of two versions', async () => {
    const p = write('same.arrow', forms.stream);
    const t = await openLazyParquet('t', p, 'same.arrow', DEFAULT_DECODE_CAPS, { format: 'arrow' });
    const before = t.loadColumn('amount');
    writeFileSync(p, forms.stream);
    utimesSync(p, new Date(), new Date(Date.now() + 5000));
    let err: unknown;
    try {
      t.loadColumn('text');
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(DataError);
    expect((err as DataError).code).toBe('DATA_CORRUPT');
    expect((err as Error).message).toMatch(/same\.arrow: the file changed on disk after the table was opened/);
    // a column read before the change is kept as it was
    expect(t.loadColumn('amount')).toBe(before);
  }, 60_000);

  it('overwritten with noise of the same size: DATA_CORRUPT, never other values', async () => {
    const p = write('noise.arrow', forms.file);
    const t = await openLazyParquet('t', p, 'noise.arrow', DEFAULT_DECODE_CAPS, { format: 'arrow' });
    const noise = forms.file.slice();
    for (let i = 8; i < noise.byteLength - 8; i++) noise[i] = (i * 2654435761) >>> 24;
    writeFileSync(p, noise);
    utimesSync(p, new Date(), new Date(Date.now() + 5000));
    expect(code(() => t.loadColumn('cat'))).toBe('DATA_CORRUPT');
  }, 60_000);
});
