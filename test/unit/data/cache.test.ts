import { appendFileSync, existsSync, readdirSync, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import type { ColumnarTable } from '../../../schema/columnar.js';
import { cacheFileFor } from '../../../src/data/cache/identity.js';
import { openCache } from '../../../src/data/cache/readCache.js';
import { writeCache } from '../../../src/data/cache/writeCache.js';
import { openDataset } from '../../../src/data/openDataset.js';
import { writeSyntheticCsv } from '../../../src/data/synthetic.js';
import { ingestCsv } from '../../../src/data/ingest/ingestCsv.js';
import { decode, tempDir } from './helpers.js';

const info = { name: 't', synthetic: true, source: 'test', identity: 'x', rows: 0 };

describe('binary cache file', () => {
  it('round-trips every column kind and reads one column at a time', async () => {
    const dir = tempDir();
    const csv = join(dir, 'a.csv');
    await writeSyntheticCsv(csv, { rows: 300, seed: 7 });
    const { table, report } = await ingestCsv(csv);
    const path = join(dir, 'a.sbtc');
    await writeCache(path, { key: 'k1', table, info, report });
    const opened = openCache(path, 'k1');
    if (!opened.ok) throw new Error(opened.reason);
    expect(opened.reader.header.numRows).toBe(300);
    for (const c of table.columns) expect(decode(opened.reader.loadColumn(c.name))).toEqual(decode(c.data));
    expect(opened.reader.loadColumn('Agency')).toBe(opened.reader.loadColumn('Agency')); // memoized
    expect(() => opened.reader.loadColumn('Nope')).toThrow(expect.objectContaining({ code: 'COLUMN_NOT_FOUND' }));
    expect(openCache(path, 'another-key')).toEqual({ ok: false, reason: 'built from another version of the CSV' });
    opened.reader.close();
    opened.reader.close(); // idempotent
  });

  it('reads a range of a text column alone before the column is loaded, the same rows as the whole column', async () => {
    const dir = tempDir();
    const csv = join(dir, 'a.csv');
    await writeSyntheticCsv(csv, { rows: 300, seed: 7 });
    const { table, report } = await ingestCsv(csv);
    const path = join(dir, 'a.sbtc');
    await writeCache(path, { key: 'k1', table, info, report });
    const opened = openCache(path, 'k1');
    if (!opened.ok) throw new Error(opened.reason);
    const reader = opened.reader;
    const text0 = table.columns.find((c) => c.data.kind === 'utf8')!;
    expect(reader.loadRows(text0.name, 0, 1)).toBeNull(); // a small column is read whole, checked
    // a window (at most 128 rows) of a column of windowMinBytes or more is read alone; a page is not
    reader.windowMinBytes = 0;
    expect(decode(reader.loadRows(text0.name, 17, 145)!)).toEqual(decode(text0.data).slice(17, 145));
    expect(reader.loadRows(text0.name, 17, 146)).toBeNull();
    reader.lazyMinBytes = 0;
    const text = table.columns.find((c) => c.data.kind === 'utf8')!;
    const whole = decode(text.data);
    expect(reader.loadRows(text.name, 0, 300)).toBeNull(); // every row: read whole, checksum and all
    for (const [a, b] of [
      [0, 299],
      [17, 18],
      [5, 5],
      [250, 300],
    ] as const) {
      const rows = reader.loadRows(text.name, a, b);
      expect(rows).not.toBeNull();
      expect(decode(rows!)).toEqual(whole.slice(a, b));
    }
    expect(() => reader.loadRows(text.name, 10, 301)).toThrow(RangeError);
    expect(reader.loadRows('Agency', 0, 1)).toBeNull(); // not utf8
    expect(reader.loadRows('Nope', 0, 1)).toBeNull();
    reader.loadColumn(text.name);
    expect(reader.loadRows(text.name, 0, 1)).toBeNull(); // loaded: the caller slices the column
    reader.close();
  });

  it('leaves the old cache byte-identical and no temp file when a write fails', async () => {
    const dir = tempDir();
    const good: ColumnarTable = {
      name: 't',
      numRows: 1,
      columns: [
        {
          name: 'a',
          type: 'number',
          kind: 'float64',
          data: { kind: 'float64', type: 'number', values: new Float64Array([1]), valid: new Uint8Array([1]) },
        },
      ],
    };
    const path = join(dir, 'c.sbtc');
    const report = (await ingestCsv(Buffer.from('a\n1\n'))).report;
    await writeCache(path, { key: 'k', table: good, info, report });
    const before = readFileSync(path);
    const failing = {
      ...good,
      columns: [
        good.columns[0],
        {
          ...good.columns[0],
          name: 'b',
          get data(): never {
            throw new Error('boom while writing');
          },
        },
      ],
    };
    await expect(writeCache(path, { key: 'k', table: failing as ColumnarTable, info, report })).rejects.toThrow('boom');
    expect(readFileSync(path).equals(before)).toBe(true);
    expect(readdirSync(dir)).toEqual(['c.sbtc']);
  });
});

describe('openDataset rebuilds a bad cache, never crashes', () => {
  let dir: string;
  let csv: string;
  let cache: string;
  beforeEach(async () => {
    dir = tempDir();
    csv = join(dir, 'awards.csv');
    await writeSyntheticCsv(csv, { rows: 200, seed: 3 });
    cache = cacheFileFor(dir, csv);
    (await openDataset({ kind: 'csv', path: csv, cacheDir: dir })).close();
    expect(existsSync(cache)).toBe(true);
  });

  const reopen = async () => {
    const ds = await openDataset({ kind: 'csv', path: csv, cacheDir: dir });
    expect(decode(ds.loadColumn('Award Year')).length).toBe(200);
    ds.close();
    expect(openCache(cache, 'probe').ok).toBe(false); // still a file, just keyed differently
    return ds;
  };

  it('uses a good cache as is', async () => {
    const ds = await reopen();
    expect(ds.report.warnings).toEqual([]);
  });

  it('rebuilds a truncated cache', async () => {
    truncateSync(cache, 1000);
    expect((await reopen()).report.warnings.join()).toMatch(/rebuilt the binary cache/);
  });

  it('rebuilds a cache with a flipped header byte', async () => {
    const bytes = readFileSync(cache);
    bytes[40] ^= 0xff;
    writeFileSync(cache, bytes);
    expect((await reopen()).report.warnings.join()).toMatch(/header checksum mismatch|malformed header/);
  });

  it('rebuilds a cache with the wrong magic or an old version', async () => {
    const bytes = readFileSync(cache);
    bytes.write('NOTCACHE', 0, 'latin1');
    writeFileSync(cache, bytes);
    expect((await reopen()).report.warnings.join()).toMatch(/wrong magic/);
    const again = readFileSync(cache);
    again.writeUInt32LE(0, 8);
    writeFileSync(cache, again);
    expect((await reopen()).report.warnings.join()).toMatch(/format version 0/);
  });

  it('rebuilds a cache with trailing garbage', async () => {
    appendFileSync(cache, 'extra');
    expect((await reopen()).report.warnings.join()).toMatch(/truncated or padded/);
  });

  it('detects a flipped data byte when the column loads, removes the file, and the next open rebuilds', async () => {
    const ds = await openDataset({ kind: 'csv', path: csv, cacheDir: dir });
    const header = openCacheHeader(cache);
    const ref = header.columns.find((c) => c.name === 'Abstract')!.buffers.bytes;
    const bytes = readFileSync(cache);
    bytes[ref.offset + 5] ^= 0x01;
    writeFileSync(cache, bytes);
    const fresh = await openDataset({ kind: 'csv', path: csv, cacheDir: dir });
    expect(() => fresh.loadColumn('Abstract')).toThrow(expect.objectContaining({ code: 'CACHE_CORRUPT' }));
    expect(existsSync(cache)).toBe(false);
    ds.close();
    fresh.close();
    const rebuilt = await openDataset({ kind: 'csv', path: csv, cacheDir: dir });
    expect(decode(rebuilt.loadColumn('Abstract')).length).toBe(200);
    rebuilt.close();
  });

  it('rebuilds when the CSV changes', async () => {
    appendFileSync(csv, readFileSync(csv, 'utf8').split('\n').slice(1, 2).join('\n') + '\n');
    const ds = await openDataset({ kind: 'csv', path: csv, cacheDir: dir });
    expect(ds.info.rows).toBe(201);
    ds.close();
  });
});

function openCacheHeader(path: string) {
  const raw = readFileSync(path);
  return JSON.parse(raw.subarray(24, 24 + raw.readUInt32LE(12)).toString('utf8')) as {
    columns: Array<{ name: string; buffers: Record<string, { offset: number }> }>;
  };
}
