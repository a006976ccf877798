// The holder runs code with a minimal environment (no host secrets), yet some documented settings
// are read in the holder: SBIRTOOLS_LAZY_PARQUET=0 must make a Parquet table decode every column
// at load. Checked through behaviour: a file whose first column's page lies about its size opens
// lazily (the damage shows only when a run touches that column) and is refused at load when the
// switch is set on the host; a host secret set beside it never reaches the guest's world.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, shutdown } from '../../src/index.js';
import { mallocEnv, passedEnv } from '../../src/runtime/holder/holderEnv.js';
import { firstPage, patchUncompressedSize } from '../helpers/parquetSurgery.js';

let dir: string;
let liar: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'sbirtools-holder-env-'));
  const real = join(dir, 'real.parquet');
  const duck = await (await DuckDBInstance.create(':memory:')).connect();
  await duck.run(
    `COPY (SELECT i::BIGINT AS z, i % 7 AS w FROM range(300000) r(i)) TO '${real}' (FORMAT parquet, COMPRESSION zstd)`,
  );
  const bytes = new Uint8Array(readFileSync(real));
  liar = join(dir, 'liar.parquet');
  writeFileSync(liar, patchUncompressedSize(bytes, firstPage(bytes).uncompressed - 1000));
}, 120_000);
afterEach(async () => {
  delete process.env.SBIRTOOLS_LAZY_PARQUET;
  await shutdown(); // the next test's sandbox starts a holder with the environment of its own
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('settings the holder reads pass from the host; nothing else does', () => {
  it('lazy by default: the table opens, the damaged column fails only when touched', async () => {
    const box = await createSandbox({ awardData: false, tables: { t: liar } });
    try {
      expect((await box.run('t.w.sum()')).ok).toBe(true);
      const r = await box.run('t.z.sum()');
      expect(r.ok).toBe(false);
      expect(r.error?.message).toMatch(/DATA_CORRUPT/);
    } finally {
      await box.close();
    }
  }, 120_000);

  it('SBIRTOOLS_LAZY_PARQUET=0 on the host decodes every column at load, so the file is refused there', async () => {
    process.env.SBIRTOOLS_LAZY_PARQUET = '0';
    await expect(createSandbox({ awardData: false, tables: { t: liar } })).rejects.toMatchObject({
      code: 'DATA_CORRUPT',
    });
  }, 120_000);

  it('passes only the named settings, never other variables', () => {
    expect(
      passedEnv({
        SBIRTOOLS_LAZY_ARROW: '0',
        SBIRTOOLS_API_KEYS: 'sk-secret',
        AWS_SECRET_ACCESS_KEY: 'x',
        HOME: '/root',
      }),
    ).toEqual({ SBIRTOOLS_LAZY_ARROW: '0' });
  });

  it("glibc's mmap threshold is fixed for the holder (freed column buffers leave its RSS), unless the host sets its own", () => {
    expect(mallocEnv({ HOME: '/root' })).toEqual({ MALLOC_MMAP_THRESHOLD_: '131072' });
    expect(mallocEnv({ MALLOC_MMAP_THRESHOLD_: '65536' })).toEqual({ MALLOC_MMAP_THRESHOLD_: '65536' });
  });
});
