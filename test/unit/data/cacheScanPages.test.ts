// A contains or an equals over every page of a long text column read from the binary cache
// (CacheReader.textScanPages, src/data/cache/scanPages.ts): the pages shared out between this
// thread and worker threads, each page read straight into the SIMD search's memory a few blocks at
// a time and checked before it is scanned. Differential: every page's answer is the one textScan
// gives on the whole column loaded the ordinary way, for UTF-8 multi-byte and invalid bytes, nulls,
// empty rows, hits across block and read boundaries, an empty needle, and both folds (a RegExp `i`
// and `toLowerCase`, non-ASCII included); a damaged block is refused, never answered from.
import { closeSync, existsSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import type { TextScanRequest } from '../../../schema/columnar.js';
import { BLOCK_BYTES } from '../../../src/data/cache/format.js';
import { openCache } from '../../../src/data/cache/readCache.js';
import { scanCounts, warmScanHelpers } from '../../../src/data/cache/scanPages.js';
import { textScan } from '../../../src/data/columns/textScan.js';
import { DataError } from '../../../src/data/errors.js';
import { PAGE_NULL, PAGE_OK, SCAN_WORKER, type ScanTask } from '../../../src/data/cache/scanWorker.js';
import { utf8CacheOf } from './utf8Cache.js';

const enc = new TextEncoder();
const NEEDLE = 'digital twin';
const PIECES = ['Digital Twin', 'DIGITAL twin', 'é', '日本', '😀', 'İ', 'K', 'ß', 'Σ', 'x\ny', '"q"'];

/** ~4,000 rows, ~600 KB: the needle at every offset mod 97, so hits straddle 64 KiB blocks and 256 KiB reads. */
function rows(): Array<Uint8Array | null> {
  const out: Array<Uint8Array | null> = [];
  for (let i = 0; i < 4000; i++) {
    if (i % 17 === 5) {
      out.push(null);
      continue;
    }
    if (i % 23 === 7) {
      out.push(new Uint8Array(0));
      continue;
    }
    const pad = 'a'.repeat(i % 97);
    const piece = PIECES[i % PIECES.length]!;
    let text = `${pad}${i % 3 === 0 ? NEEDLE : 'digital-twin'} ${piece} ${'z'.repeat(40 + (i % 61))}`;
    if (i % 211 === 0) text = 'N/A';
    const b = enc.encode(text);
    // a few rows with invalid UTF-8 (a stray continuation byte, a cut sequence, 0xff)
    if (i % 101 === 3) out.push(Uint8Array.from([...b, 0x80, 0xe6, 0x97, 0xff, ...enc.encode(' digital twin')]));
    else out.push(b);
  }
  return out;
}

function reader(path: string, helpers: number) {
  const opened = openCache(path, 'k');
  if (!opened.ok) throw new Error(opened.reason);
  opened.reader.lazyMinBytes = 0;
  opened.reader.scanHelpers = helpers;
  return opened.reader;
}

/** textScan page by page over the column loaded whole (the ordinary path). */
function expected(path: string, req: TextScanRequest, pageRows: number): Array<number[] | null> {
  const col = reader(path, 0).loadColumn('body');
  const n = col.kind === 'utf8' ? col.valid.length : 0;
  const out: Array<number[] | null> = [];
  for (let s = 0; s < n; s += pageRows) {
    const got = textScan(col, s, Math.min(n, s + pageRows), req);
    out.push(got ? [...got] : null);
  }
  return out;
}

const REQUESTS: TextScanRequest[] = [
  { op: 'contains', needle: NEEDLE, fold: 'none' },
  { op: 'contains', needle: 'Digital Twin', fold: 'regex' },
  { op: 'contains', needle: 'DIGITAL twin', fold: 'lower' },
  { op: 'contains', needle: 'é', fold: 'none' },
  { op: 'contains', needle: '日本', fold: 'lower' },
  { op: 'contains', needle: '😀', fold: 'none' },
  { op: 'contains', needle: 'i̇', fold: 'lower' }, // İ lowercases to i + U+0307
  { op: 'contains', needle: 'k', fold: 'lower' }, // the Kelvin sign lowercases to k
  { op: 'contains', needle: 'k', fold: 'regex' }, // ...which a RegExp `i` without `u` does not fold
  { op: 'contains', needle: 'ß', fold: 'regex' }, // a non-ASCII needle with `i`: left to the guest (null)
  { op: 'contains', needle: '\ufffd', fold: 'none' }, // what invalid bytes decode to
  { op: 'contains', needle: 'x\ny', fold: 'none' },
  { op: 'contains', needle: '', fold: 'none' },
  { op: 'contains', needle: 'z'.repeat(90), fold: 'none' },
  { op: 'equals', needle: 'N/A' },
  { op: 'equals', needle: '' },
];

describe('CacheReader.textScanPages', () => {
  it('answers every page as textScan does on the column loaded whole, on one thread and with helpers', async () => {
    const path = await utf8CacheOf(rows());
    const bytes = readFileSync(path).length;
    expect(bytes).toBeGreaterThan(8 * BLOCK_BYTES);
    // helpers take part once started and waiting: start two, and scan until they have answered pages
    warmScanHelpers(2);
    const before = scanCounts.helpers;
    for (let i = 0; i < 200 && scanCounts.helpers === before; i++) {
      reader(path, 2).textScanPages('body', REQUESTS[0]!, 16);
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(scanCounts.helpers).toBeGreaterThan(before);
    const helped = scanCounts.helpers;
    for (const pageRows of [16, 256, 1000]) {
      for (const req of REQUESTS) {
        const want = expected(path, req, pageRows);
        for (const helpers of [0, 1, 2]) {
          const got = reader(path, helpers).textScanPages('body', req, pageRows);
          expect(got, `${JSON.stringify(req)} pageRows ${pageRows} helpers ${helpers}`).not.toBeNull();
          expect(got!.map((p) => (p ? [...p] : null))).toEqual(want);
        }
      }
    }
    expect(scanCounts.helpers).toBeGreaterThan(helped); // some of the pages compared were the helpers'
  });

  it('a helper thread alone answers every page as this thread does (the worker of scanPages)', async () => {
    const path = await utf8CacheOf(rows());
    const raw = readFileSync(path);
    const header = JSON.parse(raw.subarray(24, 24 + raw.readUInt32LE(12)).toString('utf8')) as {
      numRows: number;
      columns: Array<{ buffers: Record<string, { offset: number; length: number; crcs: number }> }>;
    };
    const b = header.columns[0]!.buffers;
    const shared = <T extends Int32Array | Uint8Array | Uint32Array>(
      make: new (buf: SharedArrayBuffer) => T,
      ref: { offset: number; length: number },
      at = ref.offset,
      length = ref.length,
    ): T => {
      const out = new make(new SharedArrayBuffer(length));
      new Uint8Array(out.buffer).set(raw.subarray(at, at + length));
      return out;
    };
    const fd = openSync(path, 'r');
    const worker = new Worker(new URL('../../../dist/src/data/cache/scanWorker.js', import.meta.url), {
      workerData: SCAN_WORKER,
    });
    try {
      const pageRows = 300;
      const col = {
        fd,
        offset: b.bytes!.offset,
        length: b.bytes!.length,
        table: shared(Uint32Array, b.bytes!, b.bytes!.crcs, Math.ceil(b.bytes!.length / BLOCK_BYTES) * 4),
        offsets: shared(Int32Array, b.offsets!),
        valid: shared(Uint8Array, b.valid!),
        numRows: header.numRows,
        pageRows,
      };
      const pages = Math.ceil(header.numRows / pageRows);
      for (const req of REQUESTS) {
        const task: ScanTask = {
          col,
          req,
          out: new Uint8Array(new SharedArrayBuffer(header.numRows)),
          state: new Int32Array(new SharedArrayBuffer(4 * pages)),
          next: new Int32Array(new SharedArrayBuffer(4)),
          delivered: new Int32Array(new SharedArrayBuffer(4)),
          busy: new Int32Array(new SharedArrayBuffer(4)),
        };
        worker.postMessage(task);
        // every page is the helper's: wait until it stopped (one more than the pages delivered)
        while (Atomics.load(task.delivered, 0) < pages + 1)
          await Atomics.waitAsync(task.delivered, 0, Atomics.load(task.delivered, 0), 10_000).value;
        const got = Array.from(task.state, (state, p) => {
          expect(state === PAGE_OK || state === PAGE_NULL).toBe(true);
          return state === PAGE_OK
            ? [...task.out.subarray(p * pageRows, Math.min(header.numRows, (p + 1) * pageRows))]
            : null;
        });
        expect(got, JSON.stringify(req)).toEqual(expected(path, req, pageRows));
      }
    } finally {
      await worker.terminate();
      closeSync(fd);
    }
  });

  it('finds a hit that straddles a block boundary', async () => {
    // one row of 3 blocks with the needle across the first boundary, and a short row after it
    const row = 'q'.repeat(BLOCK_BYTES - 5) + NEEDLE + 'q'.repeat(2 * BLOCK_BYTES);
    const path = await utf8CacheOf([enc.encode('a'), enc.encode(row), enc.encode('b'), enc.encode(NEEDLE)]);
    const req: TextScanRequest = { op: 'contains', needle: NEEDLE, fold: 'none' };
    for (const helpers of [0, 1]) {
      const got = reader(path, helpers).textScanPages('body', req, 2);
      expect(got!.map((p) => [...p!])).toEqual([
        [0, 1],
        [0, 1],
      ]);
    }
  });

  it('returns null where it cannot scan: a length, a column loaded whole, one page, a short column', async () => {
    const path = await utf8CacheOf(rows());
    const r = reader(path, 0);
    expect(r.textScanPages('body', { op: 'len' }, 256)).toBeNull();
    expect(r.textScanPages('body', { op: 'contains', needle: 'a', fold: 'none' }, 4000)).toBeNull();
    r.loadColumn('body');
    expect(r.textScanPages('body', { op: 'contains', needle: 'a', fold: 'none' }, 256)).toBeNull();
    const short = reader(path, 0);
    short.lazyMinBytes = 32 * 1024 * 1024;
    expect(short.textScanPages('body', { op: 'contains', needle: 'a', fold: 'none' }, 256)).toBeNull();
  });

  it('refuses a damaged block with CACHE_CORRUPT and removes the file, on one thread and with a helper', async () => {
    for (const helpers of [0, 1]) {
      const path = await utf8CacheOf(rows());
      const raw = readFileSync(path);
      const header = JSON.parse(raw.subarray(24, 24 + raw.readUInt32LE(12)).toString('utf8')) as {
        columns: Array<{ buffers: Record<string, { offset: number; length: number }> }>;
      };
      const ref = header.columns[0]!.buffers.bytes!;
      const r = reader(path, helpers);
      // flip a byte in the last block (the helper's half when there is one)
      raw[ref.offset + ref.length - 100] ^= 0x01;
      writeFileSync(path, raw);
      let err: unknown;
      try {
        r.textScanPages('body', { op: 'contains', needle: NEEDLE, fold: 'none' }, 256);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(DataError);
      expect((err as DataError).code).toBe('CACHE_CORRUPT');
      expect((err as Error).message).toMatch(/checksum mismatch/);
      expect(existsSync(path)).toBe(false);
    }
  });
});
