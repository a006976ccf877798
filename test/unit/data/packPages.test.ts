// Long text in a format-2 data folder: stored as independent gzip pages (manifest `pages`), inflated
// on several threads, refused with CACHE_CORRUPT when a page is damaged, and still one valid gzip
// stream for a reader that ignores the page list (folders built before it stay readable both ways).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { openDataDir } from '../../../src/data/dataDir.js';
import { DataError } from '../../../src/data/errors.js';
import type { Dataset } from '../../../src/data/dataset.js';
import { openDataset } from '../../../src/data/openDataset.js';
import { writePack } from '../../../src/data/pack/writePack.js';
import { resolveDataSource } from '../../../src/data/resolveDataSource.js';
import { decode, tempDir } from './helpers.js';

let source: Dataset;
let folder: string;
const PAGE = 64 * 1024;
const manifestOf = (dir: string) => JSON.parse(readFileSync(join(dir, 'sbirtools-data.json'), 'utf8'));
const abstractOf = (dir: string) => manifestOf(dir).columns.find((c: { name: string }) => c.name === 'Abstract');

beforeAll(async () => {
  source = await openDataset(resolveDataSource({ cacheDir: tempDir(), env: {} }));
  folder = tempDir();
  // the synthetic sample's Abstract (~1-2 MB) paged as the full file's 343 MB would be
  await writePack(folder, source, 'test-key', { minBytes: 256 * 1024, pageBytes: PAGE });
}, 120_000);

function corrupt(f: () => unknown): DataError {
  try {
    f();
  } catch (err) {
    expect(err).toBeInstanceOf(DataError);
    expect((err as DataError).code).toBe('CACHE_CORRUPT');
    return err as DataError;
  }
  throw new Error('expected CACHE_CORRUPT');
}

describe('paged long-text buffers in a data folder', () => {
  it('only buffers past the threshold are paged, and every column reads back equal to the ingest', () => {
    const entry = abstractOf(folder);
    expect(entry.buffers.bytes.pageRaw).toBe(PAGE);
    expect(entry.buffers.bytes.pages.length).toBe(Math.ceil(entry.buffers.bytes.rawLength / PAGE));
    expect(entry.buffers.bytes.pages.length).toBeGreaterThan(4);
    expect(entry.buffers.offsets.pages).toBeUndefined();
    const ds = openDataDir(folder);
    for (const c of source.meta.columns)
      expect(decode(ds.loadColumn(c.name)), c.name).toEqual(decode(source.loadColumn(c.name)));
  });

  it('the pages concatenated are one gzip stream: a reader that ignores the page list inflates the same bytes', () => {
    const entry = abstractOf(folder);
    const b = entry.buffers.bytes;
    const file = readFileSync(join(folder, entry.file));
    const whole = gunzipSync(file.subarray(b.offset, b.offset + b.length));
    const col = source.loadColumn('Abstract') as { bytes: Uint8Array };
    expect(Buffer.compare(whole, Buffer.from(col.bytes))).toBe(0);
  });

  it('a damaged byte in any page is refused when the column loads, naming the page', () => {
    const entry = abstractOf(folder);
    const b = entry.buffers.bytes;
    for (const page of [0, b.pages.length >> 1, b.pages.length - 1]) {
      const at = b.offset + b.pages.slice(0, page).reduce((n: number, p: number) => n + p, 0) + (b.pages[page] >> 1);
      const bytes = readFileSync(join(folder, entry.file));
      bytes[at] ^= 0x55;
      const copy = tempDir();
      writeFileSync(join(copy, 'sbirtools-data.json'), readFileSync(join(folder, 'sbirtools-data.json')));
      for (const c of manifestOf(folder).columns) {
        const to = join(copy, c.file);
        mkdirSync(dirname(to), { recursive: true });
        writeFileSync(to, c.file === entry.file ? bytes : readFileSync(join(folder, c.file)));
      }
      const ds = openDataDir(copy);
      expect(ds.loadColumn('Agency').kind).toBe('dict');
      expect(corrupt(() => ds.loadColumn('Abstract')).message).toMatch(new RegExp(`Abstract.*page ${page}`));
    }
  });

  it('a page list that does not add up to its buffer is refused when the folder opens', () => {
    const copy = tempDir();
    const m = manifestOf(folder);
    const entry = m.columns.find((c: { name: string }) => c.name === 'Abstract');
    entry.buffers.bytes.pages[0] += 1;
    writeFileSync(join(copy, 'sbirtools-data.json'), JSON.stringify(m));
    expect(corrupt(() => openDataDir(copy)).message).toMatch(/pages .* do not add up/);
    delete entry.buffers.bytes.pageRaw;
    writeFileSync(join(copy, 'sbirtools-data.json'), JSON.stringify(m));
    expect(corrupt(() => openDataDir(copy)).message).toMatch(/malformed page list/);
  });
});
