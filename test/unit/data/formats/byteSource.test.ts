// A Parquet file read from disk through a ByteSource (src/data/formats/byteSource.ts): the checks
// made when a table is opened read only the footer and the page headers (not the pages), a header
// cut by the read window is read again in a larger one with the same outcome, a column decoded
// from disk equals the one decoded from the file in memory, and a file that shrank after it was
// opened fails as DATA_CORRUPT instead of yielding zeros.
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DataError } from '../../../../src/data/index.js';
import { asSource, fileSource, type ByteSource } from '../../../../src/data/formats/byteSource.js';
import { cappedCompressors } from '../../../../src/data/formats/cappedCompressors.js';
import { DEFAULT_DECODE_CAPS } from '../../../../src/data/formats/decodeCaps.js';
import { openParquet } from '../../../../src/data/formats/parquet.js';
import { checkParquet } from '../../../../src/data/formats/parquetChecks.js';
import { decodeLeaf } from '../../../../src/data/formats/parquetColumnar/decodeColumnar.js';

let dir: string;
let path: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'sbirtools-bytesource-'));
  path = join(dir, 't.parquet');
  const duck = await (await DuckDBInstance.create(':memory:')).connect();
  await duck.run(`COPY (SELECT 'K' || (i % 7)::VARCHAR AS few, 'text ' || i::VARCHAR AS uniq, (i * 0.5)::DOUBLE AS num
    FROM range(100000) r(i)) TO '${path}' (FORMAT parquet, COMPRESSION snappy, ROW_GROUP_SIZE 10000)`);
}, 60_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** `source`, counting the bytes read through it. */
function counted(source: ByteSource): ByteSource & { bytesRead: number } {
  const c = {
    size: source.size,
    bytesRead: 0,
    read(at: number, length: number) {
      c.bytesRead += length;
      return source.read(at, length);
    },
  };
  return c;
}

describe('a Parquet file read through a ByteSource', () => {
  it('the open-time checks read the footer and page headers only, a small part of the file', () => {
    const fd = openSync(path, 'r');
    try {
      const size = statSync(path).size;
      const src = counted(fileSource(fd, size, 't.parquet'));
      const opened = openParquet(src, 't.parquet', DEFAULT_DECODE_CAPS);
      expect(opened.numRows).toBe(100_000);
      expect(src.bytesRead).toBeLessThan(size / 4);
    } finally {
      closeSync(fd);
    }
  });

  it.each([1, 3, 64])('a header window of %i byte(s) grows to each header: the same rows, the same refusals', (w) => {
    const bytes = new Uint8Array(readFileSync(path));
    const { meta, leaves } = openParquet(asSource(bytes), 't.parquet', DEFAULT_DECODE_CAPS);
    expect(checkParquet(asSource(bytes), meta, leaves, DEFAULT_DECODE_CAPS, 't.parquet', w)).toBe(100_000);
    // a page header overwritten with 0xff is damaged at any window size
    const md = meta.row_groups[3].columns[1].meta_data!;
    const broken = bytes.slice();
    broken.fill(0xff, Number(md.data_page_offset), Number(md.data_page_offset) + 24);
    const refusal = (window: number) => {
      try {
        checkParquet(asSource(broken), meta, leaves, DEFAULT_DECODE_CAPS, 't.parquet', window);
      } catch (err) {
        return `${(err as DataError).code} ${(err as Error).message.split(':')[1]}`;
      }
      return 'accepted';
    };
    expect(refusal(w)).toMatch(/^DATA_CORRUPT /);
    expect(refusal(w)).toBe(refusal(1024));
  });

  it('a column decoded from disk reads only its own column chunks and equals the in-memory decode', () => {
    const bytes = new Uint8Array(readFileSync(path));
    const fd = openSync(path, 'r');
    try {
      const { meta, leaves, numRows } = openParquet(asSource(bytes), 't.parquet', DEFAULT_DECODE_CAPS);
      const groups = [0, meta.row_groups.length] as const;
      const codecs = () => cappedCompressors(DEFAULT_DECODE_CAPS);
      const src = counted(fileSource(fd, bytes.byteLength, 't.parquet'));
      const disk = decodeLeaf(src, meta, leaves[2], 2, groups, numRows, codecs(), 't.parquet');
      const memory = decodeLeaf(bytes, meta, leaves[2], 2, groups, numRows, codecs(), 't.parquet');
      expect(disk?.kind).toBe('float64');
      expect(disk).toEqual(memory);
      const chunks = meta.row_groups.reduce((n, rg) => n + Number(rg.columns[2].meta_data!.total_compressed_size), 0);
      expect(src.bytesRead).toBe(chunks);
    } finally {
      closeSync(fd);
    }
  });

  it('a file that shrank after it was opened: DATA_CORRUPT naming the change, not zeros', () => {
    const copy = join(dir, 'shrinks.parquet');
    writeFileSync(copy, readFileSync(path));
    const fd = openSync(copy, 'r');
    try {
      const size = statSync(copy).size;
      const src = fileSource(fd, size, 'shrinks.parquet');
      const { meta, leaves, numRows } = openParquet(src, 'shrinks.parquet', DEFAULT_DECODE_CAPS);
      truncateSync(copy, Math.floor(size / 2));
      let err: unknown;
      try {
        decodeLeaf(
          src,
          meta,
          leaves[1],
          1,
          [0, meta.row_groups.length],
          numRows,
          cappedCompressors(DEFAULT_DECODE_CAPS),
          'shrinks.parquet',
        );
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(DataError);
      expect((err as DataError).code).toBe('DATA_CORRUPT');
      expect((err as Error).message).toMatch(/shrinks\.parquet: the file ended at byte \d+; it changed while open/);
    } finally {
      closeSync(fd);
    }
  });

  it('readInto writes the range where it is asked, as read + set would; refuses a target without room and a file that shrank', () => {
    const bytes = new Uint8Array(readFileSync(path));
    const copy = join(dir, 'into.parquet');
    writeFileSync(copy, bytes);
    const fd = openSync(copy, 'r');
    try {
      const src = fileSource(fd, bytes.byteLength, 'into.parquet');
      const into = new Uint8Array(bytes.byteLength).fill(7);
      src.readInto!(100, 5000, into, 300);
      const expected = new Uint8Array(bytes.byteLength).fill(7);
      expected.set(src.read(100, 5000), 300);
      expect(into).toEqual(expected);
      expect(into.subarray(300, 5300)).toEqual(bytes.subarray(100, 5100));
      expect(() => src.readInto!(0, 10, new Uint8Array(9), 0)).toThrow(RangeError);
      expect(() => src.readInto!(0, 10, new Uint8Array(20), 11)).toThrow(RangeError);
      truncateSync(copy, 1000);
      let err: unknown;
      try {
        src.readInto!(500, 1000, new Uint8Array(2000), 0);
      } catch (e) {
        err = e;
      }
      expect((err as DataError).code).toBe('DATA_CORRUPT');
      expect((err as Error).message).toMatch(/into\.parquet: the file ended at byte 1000; it changed while open/);
    } finally {
      closeSync(fd);
    }
  });
});
