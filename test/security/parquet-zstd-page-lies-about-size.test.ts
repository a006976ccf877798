// Attack: a ZSTD page whose header lies about how big it inflates. ZSTD pages go through the
// WebAssembly decoder (zstddec, src/data/formats/zstd.ts), which allocates the declared size in
// its own memory and reports no error of its own: a frame that inflates to more or less than the
// header says must still be refused (never truncated, never padded with whatever that memory held),
// a claim over the page cap refused from the header alone, and later ZSTD files must decode right.
// A real file: DuckDB writes a column of 300,000 consecutive BIGINTs with ZSTD (PLAIN pages).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { columnValues } from '../../src/data/formats/columnValues.js';
import { decodeInWorker } from '../../src/data/formats/decodeInWorker.js';
import { firstPage, patchUncompressedSize } from '../helpers/parquetSurgery.js';
import { decodeFailure, expectHealthy } from './helpers.js';

let dir: string;
let zstd: Uint8Array;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'sbirtools-zstd-'));
  const path = join(dir, 'counts.parquet');
  const duck = await (await DuckDBInstance.create(':memory:')).connect();
  await duck.run(
    `COPY (SELECT i::BIGINT AS z FROM range(300000) r(i)) TO '${path}' (FORMAT parquet, COMPRESSION zstd)`,
  );
  zstd = new Uint8Array(readFileSync(path));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const failure = (bytes: Uint8Array, caps: object = {}) => decodeFailure(bytes, 'liar.parquet', caps);

describe('ZSTD pages that lie about their size', () => {
  it('the real file decodes: every value right', async () => {
    const page = firstPage(zstd);
    expect(page.uncompressed).toBeGreaterThan(page.compressed * 2);
    const t = await decodeInWorker('t', zstd, 'counts.parquet', 'parquet');
    const z = columnValues(t.columns[0].data);
    expect(z.length).toBe(300_000);
    expect(z.every((v, i) => v === i)).toBe(true);
  });

  it('a header that claims less than the frame inflates to is DATA_CORRUPT, not a truncated page', async () => {
    const { uncompressed } = firstPage(zstd);
    const err = await failure(patchUncompressedSize(zstd, uncompressed - 1000));
    expect(err.code).toBe('DATA_CORRUPT');
  });

  it('a header that claims more than the frame inflates to is DATA_CORRUPT, not a page padded with stale memory', async () => {
    const { uncompressed } = firstPage(zstd);
    const err = await failure(patchUncompressedSize(zstd, uncompressed + 1000));
    expect(err.code).toBe('DATA_CORRUPT');
  });

  it('a claim over the page cap is refused from the header, before anything is allocated', async () => {
    const err = await failure(zstd, { maxPageBytes: 64 * 1024 });
    expect(err.code).toBe('DATA_TOO_LARGE');
  });

  it('after the lies, the same decoder still decodes the real file right; the host is unharmed', async () => {
    const t = await decodeInWorker('t', zstd, 'counts.parquet', 'parquet');
    expect(columnValues(t.columns[0].data).slice(299_995)).toEqual([299_995, 299_996, 299_997, 299_998, 299_999]);
    await expectHealthy();
  });
});
