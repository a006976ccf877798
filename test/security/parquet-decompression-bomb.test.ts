// Attack: a compressed page that expands without bound. A real GZIP Parquet file whose one page
// inflates from a few KB to 4 MB is refused under a small page cap from its header alone; a page
// header that claims 100 MB is refused before any buffer is allocated; a header that claims LESS
// than the data inflates to is caught by the bounded decompressor (it never writes past the size
// it was given). Decoding runs in a worker thread, so even a miss could not take the host down.
import { gzipSync } from 'node:zlib';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { describe, expect, it } from 'vitest';
import { decodeInWorker } from '../../src/data/formats/decodeInWorker.js';
import { firstPage, patchUncompressedSize } from '../helpers/parquetSurgery.js';
import { decodeFailure, expectHealthy } from './helpers.js';

const ROWS = 1_000_000;
const bomb = new Uint8Array(
  parquetWriteBuffer({
    columnData: [{ name: 'z', data: new Int32Array(ROWS), type: 'INT32', encoding: 'PLAIN' }],
    codec: 'GZIP',
    compressors: { GZIP: (input: Uint8Array) => new Uint8Array(gzipSync(input, { level: 9 })) },
    pageSize: 16 * 1024 * 1024,
    rowGroupSize: ROWS,
    statistics: false,
  }),
);

const failure = (bytes: Uint8Array, caps: object = {}) => decodeFailure(bytes, 'bomb.parquet', caps);

describe('Parquet decompression bombs', () => {
  it('the file is a real bomb: a few KB that inflate to 4 MB, and it decodes under the default caps', async () => {
    const page = firstPage(bomb);
    expect(bomb.byteLength).toBeLessThan(64 * 1024);
    expect(page.uncompressed).toBeGreaterThanOrEqual(ROWS * 4);
    const t = await decodeInWorker('t', bomb, 'bomb.parquet', 'parquet');
    expect(t.numRows).toBe(ROWS);
  });

  it('a page over the page cap is refused from its header, before inflating', async () => {
    const err = await failure(bomb, { maxPageBytes: 64 * 1024 });
    expect(err.code).toBe('DATA_TOO_LARGE');
    expect(err.message).toMatch(/would inflate from \d+ to \d+ bytes/);
    expect(err.hint).toMatch(/decompression bomb/);
  });

  it('pages over the whole-file budget are refused', async () => {
    const err = await failure(bomb, { maxDecodedBytes: 1024 * 1024 });
    expect(err.code).toBe('DATA_TOO_LARGE');
  });

  it('a header that claims 100 MB is refused before any allocation', async () => {
    const liar = patchUncompressedSize(bomb, 100_000_000);
    const err = await failure(liar, { maxPageBytes: 16 * 1024 * 1024 });
    expect(err.code).toBe('DATA_TOO_LARGE');
  });

  it('a header that claims less than the page inflates to is caught, not silently truncated', async () => {
    const liar = patchUncompressedSize(bomb, 2_000_000);
    const err = await failure(liar, {});
    expect(err.code).toBe('DATA_CORRUPT');
  });

  it('the host is unharmed', async () => {
    await expectHealthy();
  });
});
