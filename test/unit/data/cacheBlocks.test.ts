// The binary cache's per-block checksums (format version 3; version 2, CRC-32 blocks, still read
// from a data folder): a page of long text read alone
// (CacheReader.loadRows) is checked block by block before it is served, so a flipped byte is
// detected on a lazy read, never returned as text; a cache of an older version is rebuilt or
// refused with a clear reason, never read.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ColumnarTable } from '../../../schema/columnar.js';
import { blockSum, blockSumPlain } from '../../../src/data/cache/blockSum.js';
import { BLOCK_BYTES, CACHE_VERSION, READ_VERSIONS } from '../../../src/data/cache/format.js';
import { searchArea } from '../../../src/data/columns/simdBytes.js';
import { openCache } from '../../../src/data/cache/readCache.js';
import { writeCache } from '../../../src/data/cache/writeCache.js';
import { ingestCsv } from '../../../src/data/ingest/ingestCsv.js';
import { cacheToVersion2, decode, tempDir } from './helpers.js';

const info = { name: 't', synthetic: true, source: 'test', identity: 'x', rows: 0 };
const ROWS = 3000;
/** Row i: ~100 bytes, some outside ASCII, every tenth null. */
const rowText = (i: number) => (i % 10 === 9 ? null : `row ${i} ${'é'.repeat(i % 7)}${'x'.repeat(80 + (i % 13))}`);

async function textCache(): Promise<{ path: string; bytesAt: number; bytesLength: number; crcsAt: number }> {
  const enc = new TextEncoder();
  const offsets = new Int32Array(ROWS + 1);
  const parts: Uint8Array[] = [];
  const valid = new Uint8Array(ROWS);
  for (let i = 0; i < ROWS; i++) {
    const t = rowText(i);
    const b = t === null ? new Uint8Array(0) : enc.encode(t);
    valid[i] = t === null ? 0 : 1;
    parts.push(b);
    offsets[i + 1] = offsets[i]! + b.length;
  }
  const bytes = new Uint8Array(offsets[ROWS]!);
  parts.forEach((p, i) => bytes.set(p, offsets[i]!));
  expect(bytes.length).toBeGreaterThan(4 * BLOCK_BYTES); // several blocks
  const table: ColumnarTable = {
    name: 't',
    numRows: ROWS,
    columns: [
      { name: 'Text', type: 'string', kind: 'utf8', data: { kind: 'utf8', type: 'string', bytes, offsets, valid } },
    ],
  };
  const dir = tempDir();
  const path = join(dir, 't.sbtc');
  const report = (await ingestCsv(Buffer.from('a\n1\n'))).report;
  await writeCache(path, { key: 'k', table, info, report });
  const raw = readFileSync(path);
  const header = JSON.parse(raw.subarray(24, 24 + raw.readUInt32LE(12)).toString('utf8')) as {
    columns: Array<{ buffers: Record<string, { offset: number; length: number; crcs: number }> }>;
  };
  const ref = header.columns[0]!.buffers.bytes!;
  return { path, bytesAt: ref.offset, bytesLength: ref.length, crcsAt: ref.crcs };
}

function lazyReader(path: string) {
  const opened = openCache(path, 'k');
  if (!opened.ok) throw new Error(opened.reason);
  opened.reader.lazyMinBytes = 0;
  return opened.reader;
}

/** The row whose text holds byte `at` of the column's bytes. */
function rowHolding(at: number): number {
  let end = 0;
  for (let i = 0; i < ROWS; i++) {
    end += Buffer.byteLength(rowText(i) ?? '');
    if (end > at) return i;
  }
  throw new Error(`byte ${at} is past the text`);
}

describe('binary cache: per-block checksums', () => {
  it('writes format version 3 and reads any range of long text alone, the same rows as the whole column', async () => {
    expect(CACHE_VERSION).toBe(3);
    const { path } = await textCache();
    const reader = lazyReader(path);
    const expected = Array.from({ length: ROWS }, (_, i) => rowText(i));
    for (const [a, b] of [
      [0, 1],
      [0, 2999],
      [1234, 1500],
      [2999, 3000],
      [700, 700],
    ] as const) {
      const rows = reader.loadRows('Text', a, b);
      expect(decode(rows!)).toEqual(expected.slice(a, b));
      // the reused buffer answers the same (a scan's page, overwritten by the next read)
      expect(decode(reader.loadRows('Text', a, b, true)!)).toEqual(expected.slice(a, b));
    }
    reader.close();
  });

  it("keeps each text row's character count (code points, -1 for null), read without the text", async () => {
    const { path } = await textCache();
    const reader = lazyReader(path);
    const want = Array.from({ length: ROWS }, (_, i) => {
      const t = rowText(i);
      return t === null ? -1 : [...t].length;
    });
    expect([...reader.textLengths('Text', 0, ROWS)!]).toEqual(want);
    expect([...reader.textLengths('Text', 1500, 1510)!]).toEqual(want.slice(1500, 1510));
    expect(() => reader.textLengths('Text', 0, ROWS + 1)).toThrow(RangeError);
    reader.close();
  });

  it('detects a flipped byte in one block on a lazy read of its rows; other blocks still read', async () => {
    const { path, bytesAt } = await textCache();
    const flipAt = 3 * BLOCK_BYTES + 100; // inside block 3 of the text bytes
    const raw = readFileSync(path);
    raw[bytesAt + flipAt] ^= 0x01;
    writeFileSync(path, raw);
    const reader = lazyReader(path);
    // rows wholly inside block 0: served, exact
    expect(decode(reader.loadRows('Text', 0, 10)!)).toEqual(Array.from({ length: 10 }, (_, i) => rowText(i)));
    // the row holding the flipped byte: detected before any byte is served, the file removed
    const target = rowHolding(flipAt);
    expect(() => reader.loadRows('Text', target, target + 1)).toThrow(
      expect.objectContaining({
        code: 'CACHE_CORRUPT',
        message: expect.stringMatching(/bytes checksum mismatch in block 3/),
      }),
    );
    expect(existsSync(path)).toBe(false);
    reader.close();
  });

  it('detects a damaged block table (the check fails; nothing is served)', async () => {
    const { path, crcsAt } = await textCache();
    const raw = readFileSync(path);
    raw[crcsAt + 4] ^= 0x80; // the CRC of block 1
    writeFileSync(path, raw);
    const reader = lazyReader(path);
    expect(decode(reader.loadRows('Text', 0, 10)!)).toHaveLength(10); // block 0: its own CRC is intact
    const inBlock1 = rowHolding(BLOCK_BYTES + 10);
    expect(() => reader.loadRows('Text', inBlock1, inBlock1 + 1)).toThrow(
      expect.objectContaining({ code: 'CACHE_CORRUPT', message: expect.stringMatching(/block 1/) }),
    );
    reader.close();
  });

  it('a whole-column read of a damaged cache fails the same way', async () => {
    const { path, crcsAt } = await textCache();
    const raw = readFileSync(path);
    raw[crcsAt + 4] ^= 0x80;
    writeFileSync(path, raw);
    const reader = lazyReader(path);
    expect(() => reader.loadColumn('Text')).toThrow(expect.objectContaining({ code: 'CACHE_CORRUPT' }));
    reader.close();
  });

  it('a whole-column read checks every block too', async () => {
    const { path, bytesAt, bytesLength } = await textCache();
    const raw = readFileSync(path);
    raw[bytesAt + bytesLength - 1] ^= 0x20; // the last (short) block
    writeFileSync(path, raw);
    const opened = openCache(path, 'k');
    if (!opened.ok) throw new Error(opened.reason);
    expect(() => opened.reader.loadColumn('Text')).toThrow(
      expect.objectContaining({ code: 'CACHE_CORRUPT', message: expect.stringMatching(/checksum mismatch in block/) }),
    );
    opened.reader.close();
  });

  it('refuses a version-1 cache (one CRC per buffer) with the reason, so openDataset rebuilds it', async () => {
    const { path } = await textCache();
    const raw = readFileSync(path);
    raw.writeUInt32LE(1, 8);
    writeFileSync(path, raw);
    expect(openCache(path, 'k')).toEqual({ ok: false, reason: 'format version 1, expected 3' });
    expect(openCache(path, 'k', READ_VERSIONS)).toEqual({ ok: false, reason: 'format version 1, expected 3' });
  });

  it('a version-2 cache (CRC-32 blocks) is rebuilt beside a CSV, read from a data folder, and checked by its CRC-32s', async () => {
    const { path, bytesAt } = await textCache();
    cacheToVersion2(path);
    expect(openCache(path, 'k')).toEqual({ ok: false, reason: 'format version 2, expected 3' });
    const opened = openCache(path, 'k', READ_VERSIONS);
    if (!opened.ok) throw new Error(opened.reason);
    opened.reader.lazyMinBytes = 0;
    const expected = Array.from({ length: ROWS }, (_, i) => rowText(i));
    expect(decode(opened.reader.loadRows('Text', 100, 2900)!)).toEqual(expected.slice(100, 2900));
    opened.reader.close();
    // its blocks are checked by CRC-32, not by the format-3 sum: a flipped byte is still found
    const raw = readFileSync(path);
    raw[bytesAt + 2 * BLOCK_BYTES + 7] ^= 0x04;
    writeFileSync(path, raw);
    const damaged = openCache(path, 'k', READ_VERSIONS);
    if (!damaged.ok) throw new Error(damaged.reason);
    expect(() => damaged.reader.loadColumn('Text')).toThrow(
      expect.objectContaining({ code: 'CACHE_CORRUPT', message: expect.stringMatching(/block 2/) }),
    );
  });
});

describe('blockSum: the format-3 block checksum', () => {
  it('is the same with WebAssembly SIMD (bytes copied in, or summed where they are read) as in plain JavaScript', () => {
    let seed = 5;
    const rand = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) >>> 8) & 0xff;
    for (const n of [0, 1, 3, 15, 16, 17, 63, 64, 65, 100, 127, 128, 129, 1000, 4096, 65535, BLOCK_BYTES]) {
      const bytes = Uint8Array.from({ length: n }, rand);
      const want = blockSumPlain(bytes);
      expect(blockSum(bytes), `n ${n}`).toBe(want);
      for (const at of [0, 1, 7, 16]) {
        const area = searchArea(at + n + 16)!;
        area.set(bytes, at);
        expect(blockSum(area.subarray(at, at + n)), `n ${n} at ${at}`).toBe(want);
      }
    }
    // the length counts: zero bytes of different lengths differ
    expect(new Set([0, 1, 64, 65, 128].map((n) => blockSum(new Uint8Array(n)))).size).toBe(5);
  });

  it('changes when any one byte of a block changes, whatever the change (one bit, every bit, to zero)', () => {
    const block = Uint8Array.from({ length: 4096 + 37 }, (_, i) => (i * 31 + 11) & 0xff);
    const sum = blockSum(block);
    for (let i = 0; i < block.length; i++)
      for (const flip of [0x01, 0x80, 0xff, block[i]!]) {
        if (flip === 0) continue;
        block[i] ^= flip;
        if (blockSum(block) === sum) throw new Error(`byte ${i} ^ ${flip} left the sum unchanged`);
        block[i] ^= flip;
      }
    // two words that trade places
    const swapped = block.slice();
    swapped.set(block.subarray(64, 68), 128);
    swapped.set(block.subarray(128, 132), 64);
    expect(blockSum(swapped)).not.toBe(sum);
  });
});
