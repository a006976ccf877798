import { writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DatasetInfoSchema } from '../../../schema/result.js';
import { openDataset, resolveDataSource } from '../../../src/data/index.js';
import { writeSyntheticCsv } from '../../../src/data/synthetic.js';
import { decode, tempDir } from './helpers.js';

describe('resolveDataSource', () => {
  it('picks dataPath, then SBIRTOOLS_CSV_PATH, then the download, then the synthetic sample', () => {
    const dir = tempDir();
    const env = { SBIRTOOLS_CSV_PATH: '/data/env.csv', SBIRTOOLS_CACHE_DIR: dir };
    expect(resolveDataSource({ dataPath: 'rel.csv', env })).toEqual({
      kind: 'csv',
      path: join(process.cwd(), 'rel.csv'),
      cacheDir: dir,
      origin: 'dataPath',
    });
    expect(resolveDataSource({ env })).toEqual({ kind: 'csv', path: '/data/env.csv', cacheDir: dir, origin: 'env' });
    expect(resolveDataSource({ env: { SBIRTOOLS_CACHE_DIR: dir } })).toEqual({
      kind: 'synthetic',
      cacheDir: dir,
      origin: 'synthetic',
    });
    writeFileSync(join(dir, 'award_data.csv'), 'x');
    expect(resolveDataSource({ env: { SBIRTOOLS_CACHE_DIR: dir, SBIRTOOLS_CSV_PATH: ' ' } })).toEqual({
      kind: 'csv',
      path: join(dir, 'award_data.csv'),
      cacheDir: dir,
      origin: 'download',
    });
  });

  it('defaults the cache directory to ~/.cache/sbirtools, and opts.cacheDir wins over the env', () => {
    expect(resolveDataSource({ env: {} }).cacheDir).toBe(join(homedir(), '.cache', 'sbirtools'));
    expect(resolveDataSource({ cacheDir: '/x/y', env: { SBIRTOOLS_CACHE_DIR: '/a/b' } }).cacheDir).toBe('/x/y');
  });

  it('is plain data that survives structured clone (it crosses IPC)', () => {
    const src = resolveDataSource({ env: {} });
    expect(structuredClone(src)).toEqual(src);
  });
});

describe('openDataset', () => {
  it('labels the embedded sample as synthetic and reopens it from the cache', async () => {
    const dir = tempDir();
    const first = await openDataset({ kind: 'synthetic', cacheDir: dir });
    expect(DatasetInfoSchema.parse(first.info)).toMatchObject({
      synthetic: true,
      source: 'embedded-synthetic-sample',
      rows: 5000,
    });
    expect(first.info.name).toMatch(/SYNTHETIC/);
    expect(first.meta).toMatchObject({ name: 'award_data', numRows: 5000 });
    expect(first.meta.columns).toHaveLength(42);
    const phases = new Set<string>();
    const second = await openDataset({ kind: 'synthetic', cacheDir: dir }, { onProgress: (p) => phases.add(p.phase) });
    expect(phases.size).toBe(0); // served from the cache: nothing generated or parsed
    expect(second.info).toEqual(first.info);
    expect(decode(second.loadColumn('Award Amount'))).toEqual(decode(first.loadColumn('Award Amount')));
    first.close();
    second.close();
  });

  it('describes a CSV by its path and content hash', async () => {
    const dir = tempDir();
    const csv = join(dir, 'mine.csv');
    await writeSyntheticCsv(csv, { rows: 50, layout: 'legacy' });
    const ds = await openDataset(resolveDataSource({ dataPath: csv, cacheDir: dir, env: {} }));
    expect(ds.info).toMatchObject({
      synthetic: false,
      source: csv,
      rows: 50,
      identity: expect.stringMatching(/^sha256:[0-9a-f]{64}$/),
    });
    expect(ds.report.layout).toBe('legacy');
    ds.close();
  });

  it('throws DATA_NOT_FOUND naming the path and the env var that chose it', async () => {
    const src = resolveDataSource({
      env: { SBIRTOOLS_CSV_PATH: '/no/such/awards.csv', SBIRTOOLS_CACHE_DIR: tempDir() },
    });
    await expect(openDataset(src)).rejects.toMatchObject({
      name: 'DataError',
      code: 'DATA_NOT_FOUND',
      message: expect.stringMatching(/\/no\/such\/awards\.csv \(set by SBIRTOOLS_CSV_PATH\)/),
    });
  });

  it('serves from memory with a warning when the cache cannot be written (CSV and synthetic)', async () => {
    const dir = tempDir();
    const csv = join(dir, 'a.csv');
    await writeSyntheticCsv(csv, { rows: 20 });
    const blocked = join(csv, 'cache'); // a directory inside a regular file: every write fails, even as root
    const ds = await openDataset({ kind: 'csv', path: csv, cacheDir: blocked });
    expect(ds.report.warnings.join()).toMatch(/served from memory/);
    expect(decode(ds.loadColumn('Award Year'))).toHaveLength(20);
    const sample = await openDataset({ kind: 'synthetic', cacheDir: blocked });
    expect(sample.info.synthetic).toBe(true);
    expect(sample.report.warnings.join()).toMatch(/in memory/);
    expect(decode(sample.loadColumn('Agency'))).toHaveLength(5000);
  });
});
