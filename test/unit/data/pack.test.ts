import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { identityKey } from '../../../src/data/cache/identity.js';
import { openDataDir, writeDataDir } from '../../../src/data/dataDir.js';
import { DataError } from '../../../src/data/errors.js';
import type { Dataset } from '../../../src/data/dataset.js';
import { openDataset } from '../../../src/data/openDataset.js';
import { columnFromBuffers } from '../../../src/data/pack/columnFromBuffers.js';
import { inflateColumn } from '../../../src/data/pack/inflateColumn.js';
import { resolveDataSource } from '../../../src/data/resolveDataSource.js';
import { syntheticSamplePath } from '../../../src/data/syntheticSample.js';
import { cacheToVersion2, decode, tempDir } from './helpers.js';

let cacheDir: string;
let source: Dataset;
let folder: string;
const manifestOf = (dir: string) => JSON.parse(readFileSync(join(dir, 'sbirtools-data.json'), 'utf8'));
const copyFolder = (from: string) => {
  const to = join(tempDir(), 'copy');
  mkdirSync(join(to, 'columns'), { recursive: true });
  for (const f of readdirSync(from, { recursive: true, encoding: 'utf8' }))
    if (statSync(join(from, f)).isFile()) copyFileSync(join(from, f), join(to, f));
  return to;
};
function corrupt(f: () => unknown): DataError {
  try {
    f();
  } catch (err) {
    expect(err).toBeInstanceOf(DataError);
    expect((err as DataError).code).toBe('CACHE_CORRUPT');
    expect((err as DataError).message).toMatch(/sbirtools build-data/);
    return err as DataError;
  }
  throw new Error('expected CACHE_CORRUPT');
}

beforeAll(async () => {
  cacheDir = tempDir();
  const src = resolveDataSource({ cacheDir, env: {} });
  source = await openDataset(src);
  folder = join(tempDir(), 'data');
  await writeDataDir(folder, src, openDataset);
}, 120_000);

describe('data folder format 2: one gzip-compressed file per column', () => {
  it('every column reads back equal to the ingest, with the same types and kinds', () => {
    const ds = openDataDir(folder);
    expect(ds.meta).toEqual(source.meta);
    expect(ds.info).toEqual(source.info);
    for (const c of source.meta.columns) {
      const col = ds.loadColumn(c.name);
      expect(col.kind).toBe(c.kind);
      expect(decode(col), c.name).toEqual(decode(source.loadColumn(c.name)));
    }
  });

  it('the folder is compressed: much smaller than the uncompressed binary cache, each buffer gzip or stored raw', () => {
    const m = manifestOf(folder);
    expect(m).toMatchObject({ format: 'sbirtools-data', v: 2, codec: 'gzip' });
    const sbtc = readdirSync(join(cacheDir, 'columnar')).find((f) => f.endsWith('.sbtc'))!;
    const packed = m.columns.reduce((n: number, c: { bytes: number }) => n + c.bytes, 0);
    expect(packed * 3).toBeLessThan(statSync(join(cacheDir, 'columnar', sbtc)).size);
    for (const c of m.columns) {
      expect(statSync(join(folder, c.file)).size).toBe(c.bytes);
      for (const b of Object.values(c.buffers) as Array<{ codec: string; length: number; rawLength: number }>)
        expect(b.codec === 'gzip' || b.length === b.rawLength).toBe(true);
    }
  });

  it('a format-1 folder (one uncompressed cache file) is still read, and build-data rebuilds it as format 2', async () => {
    const v1 = join(tempDir(), 'v1');
    mkdirSync(v1);
    const sbtc = readdirSync(join(cacheDir, 'columnar')).find((f) => f.endsWith('.sbtc'))!;
    copyFileSync(join(cacheDir, 'columnar', sbtc), join(v1, 'award_data.sbtc'));
    const csv = syntheticSamplePath(cacheDir);
    writeFileSync(
      join(v1, 'sbirtools-data.json'),
      JSON.stringify({
        v: 1,
        file: 'award_data.sbtc',
        key: identityKey(csv, statSync(csv)),
        info: source.info,
        createdAt: new Date().toISOString(),
      }),
    );
    expect(decode(openDataDir(v1).loadColumn('Agency'))).toEqual(decode(source.loadColumn('Agency')));
    // its cache file of format 2 (CRC-32 blocks, written before session 20) reads too: a folder is never rewritten
    cacheToVersion2(join(v1, 'award_data.sbtc'));
    expect(decode(openDataDir(v1).loadColumn('Abstract'))).toEqual(decode(source.loadColumn('Abstract')));
    await writeDataDir(v1, { kind: 'csv', path: v1, cacheDir: tempDir() }, openDataset);
    expect(existsSync(join(v1, 'award_data.sbtc'))).toBe(false);
    expect(manifestOf(v1).v).toBe(2);
    expect(decode(openDataDir(v1).loadColumn('Award Amount'))).toEqual(decode(source.loadColumn('Award Amount')));
  });

  it('a missing or truncated column file is refused when the folder opens', () => {
    const dir = copyFolder(folder);
    const file = join(dir, manifestOf(dir).columns[3].file);
    writeFileSync(file, readFileSync(file).subarray(0, 10));
    expect(corrupt(() => openDataDir(dir)).message).toMatch(/columns\/03\.col[\s\S]*10 bytes/);
  });

  it('a damaged byte inside a column file is refused when the column loads (gzip CRC), never returned', () => {
    const dir = copyFolder(folder);
    const entry = manifestOf(dir).columns.find((c: { name: string }) => c.name === 'Abstract');
    const bytes = readFileSync(join(dir, entry.file));
    bytes[bytes.length >> 1] ^= 0x55;
    writeFileSync(join(dir, entry.file), bytes);
    const ds = openDataDir(dir);
    expect(ds.loadColumn('Agency').kind).toBe('dict');
    expect(corrupt(() => ds.loadColumn('Abstract')).message).toMatch(/Abstract/);
  });

  it('a manifest of another version, or naming a file outside the folder, is refused', () => {
    const dir = copyFolder(folder);
    const m = manifestOf(dir);
    writeFileSync(join(dir, 'sbirtools-data.json'), JSON.stringify({ ...m, v: 3 }));
    expect(corrupt(() => openDataDir(dir)).message).toMatch(/format 3/);
    m.columns[0].file = '../../etc/passwd';
    writeFileSync(join(dir, 'sbirtools-data.json'), JSON.stringify(m));
    corrupt(() => openDataDir(dir));
  });

  it('a buffer that inflates to another size than the manifest says is refused (no ballooning)', () => {
    const raw = new Uint8Array(8 * 4).fill(7);
    const z = gzipSync(raw);
    const entry = {
      name: 'x',
      type: 'number' as const,
      kind: 'float64' as const,
      file: 'columns/00.col',
      sha256: '0'.repeat(64),
      bytes: z.length + 4,
      buffers: {
        values: { offset: 0, length: z.length, rawLength: 16, codec: 'gzip' as const },
        valid: { offset: z.length, length: 4, rawLength: 4, codec: 'none' as const },
      },
    };
    const file = new Uint8Array(z.length + 4);
    file.set(z);
    expect(inflateColumn(entry, 2, file)).toMatch(/inflate|values/);
    entry.buffers.values.rawLength = 32;
    expect(inflateColumn(entry, 3, file)).toMatch(/4 rows instead of 3/);
    expect(typeof inflateColumn(entry, 4, file)).toBe('object');
  });

  it('buffers not aligned for their typed array are copied, not misread', () => {
    const values = new Float64Array([1.5, -2, 3]);
    const shifted = new Uint8Array(25);
    shifted.set(new Uint8Array(values.buffer), 1);
    const entry = {
      name: 'x',
      type: 'number' as const,
      kind: 'float64' as const,
      file: 'columns/00.col',
      sha256: '0'.repeat(64),
      bytes: 0,
      buffers: {},
    };
    const col = columnFromBuffers(entry, 3, { values: shifted.subarray(1), valid: new Uint8Array([1, 1, 1]) });
    expect(typeof col === 'string' ? col : Array.from((col as { values: Float64Array }).values)).toEqual([1.5, -2, 3]);
  });
});
