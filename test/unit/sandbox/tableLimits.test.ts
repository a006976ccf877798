// The limits of a sandbox with user tables scale with the host (src/data/formats/tableLimits.ts):
// the isolate may hold a quarter of host memory unless memoryLimitMb is given; the table-file and
// inflate caps are options (tableFileMaxMb, tableInflateMaxMb), CLI flags and environment
// variables, and a table over one is refused naming the setting that raises it.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createSandbox } from '../../../src/index.js';
import { DataError } from '../../../src/data/errors.js';
import { TABLE_MEMORY_ENV, tableMemoryLimitMb } from '../../../src/data/formats/tableLimits.js';
import { sandboxOptionsFrom } from '../../../src/cli/sandboxFlags.js';
import { UsageError } from '../../../src/cli/args.js';
import { largeParquet, portfolioParquet } from '../../helpers/tableFiles.js';

const GIB = 2 ** 30;
const dir = mkdtempSync(join(tmpdir(), 'sbirtools-table-limits-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function refusal(p: Promise<unknown>): Promise<DataError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(DataError);
  return err as DataError;
}

describe('the isolate limit of a sandbox with tables', () => {
  it('is a quarter of host memory, never below the preset, at most 8192 MiB', () => {
    expect(tableMemoryLimitMb(512, 24 * GIB, {})).toBe(6144);
    expect(tableMemoryLimitMb(512, 1 * GIB, {})).toBe(512);
    expect(tableMemoryLimitMb(1024, 2 * GIB, {})).toBe(1024);
    expect(tableMemoryLimitMb(512, 256 * GIB, {})).toBe(8192);
  });

  it('is set by SBIRTOOLS_TABLE_MEMORY_MB, and a bad value is refused naming it', () => {
    expect(tableMemoryLimitMb(512, 24 * GIB, { [TABLE_MEMORY_ENV]: '2048' })).toBe(2048);
    for (const bad of ['0', '15', '9000', '1.5', 'lots']) {
      let err: unknown;
      try {
        tableMemoryLimitMb(512, GIB, { [TABLE_MEMORY_ENV]: bad });
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(DataError);
      expect((err as DataError).message).toContain(TABLE_MEMORY_ENV);
    }
  });

  it('applies to createSandbox with tables, unless memoryLimitMb is given', async () => {
    const file = join(dir, 'p.parquet');
    writeFileSync(file, portfolioParquet());
    const scaled = tableMemoryLimitMb(512);
    const withTables = await createSandbox({ awardData: false, tables: { p: file } });
    const explicit = await createSandbox({ awardData: false, tables: { p: file }, memoryLimitMb: 300 });
    const without = await createSandbox({ awardData: false });
    try {
      expect(withTables.limits.memoryLimitMb).toBe(scaled);
      expect(explicit.limits.memoryLimitMb).toBe(300);
      expect(without.limits.memoryLimitMb).toBe(512);
      const r = await withTables.run('p.numRows()');
      expect(r.ok && r.value).toBe(4);
      expect(r.limits.memoryLimitMb).toBe(scaled);
    } finally {
      await Promise.all([withTables.close(), explicit.close(), without.close()]);
    }
  });
});

describe('the table-file and inflate caps of a sandbox', () => {
  // ~1.7 MB stored, UNCOMPRESSED: over a 1 MiB file cap, and its pages inflate to over 1 MiB
  const big = join(dir, 'big.parquet');
  writeFileSync(big, largeParquet(40_000, { rowGroupSize: 10_000, flag: false }));

  it('refuses a file over tableFileMaxMb, naming the option and the CLI flag', async () => {
    const err = await refusal(createSandbox({ awardData: false, tables: { t: big }, tableFileMaxMb: 1 }));
    expect(err.code).toBe('DATA_TOO_LARGE');
    expect(err.hint).toContain('`tableFileMaxMb` option');
    expect(err.hint).toContain('--table-file-max-mb');
    expect(err.hint).toContain('now 1 MiB');
  });

  it('refuses a CSV over tableFileMaxMb the same way, before it is parsed', async () => {
    const csv = join(dir, 'big.csv');
    const line = 'id,name,amount\n';
    writeFileSync(csv, line + Array.from({ length: 60_000 }, (_, i) => `${i},company ${i},${i * 3}.5`).join('\n'));
    const err = await refusal(createSandbox({ awardData: false, tables: { t: csv }, tableFileMaxMb: 1 }));
    expect(err.code).toBe('DATA_TOO_LARGE');
    expect(err.message).toContain('big.csv');
    expect(err.hint).toContain('`tableFileMaxMb` option');
    expect(err.hint).toContain('--table-file-max-mb');
    expect(err.hint).toContain('now 1 MiB');
    // the same file under a cap it fits loads
    const box = await createSandbox({ awardData: false, tables: { t: csv }, tableFileMaxMb: 2 });
    try {
      const r = await box.run('t.numRows()');
      expect(r.ok && r.value).toBe(60_000);
    } finally {
      await box.close();
    }
  });

  it('refuses a file whose pages inflate past tableInflateMaxMb, naming that option', async () => {
    const err = await refusal(
      (async () => {
        const box = await createSandbox({ awardData: false, tables: { t: big }, tableInflateMaxMb: 1 });
        try {
          const r = await box.run('t.numRows()');
          if (!r.ok) throw Object.assign(new DataError('DATA_TOO_LARGE', r.error.message), { hint: r.error.hint });
        } finally {
          await box.close();
        }
      })(),
    );
    expect(err.code).toBe('DATA_TOO_LARGE');
    expect(`${err.message} ${err.hint}`).toContain('tableInflateMaxMb');
  });

  it('load a file under the caps the options raise', async () => {
    const box = await createSandbox({
      awardData: false,
      tables: { t: big },
      tableFileMaxMb: 64,
      tableInflateMaxMb: 64,
    });
    try {
      const r = await box.run('t.filter((d) => d.small < 10).numRows()');
      expect(r.ok && r.value).toBe(800);
    } finally {
      await box.close();
    }
  });

  it('refuse a cap option that is not a positive whole number of MiB', async () => {
    for (const bad of [0, -1, 1.5, '64']) {
      await expect(createSandbox({ awardData: false, tableFileMaxMb: bad as number })).rejects.toThrow(
        /tableFileMaxMb/,
      );
      await expect(createSandbox({ awardData: false, tableInflateMaxMb: bad as number })).rejects.toThrow(
        /tableInflateMaxMb/,
      );
    }
  });

  it('are CLI flags: --table-file-max-mb and --table-inflate-max-mb', () => {
    expect(sandboxOptionsFrom('run', { 'table-file-max-mb': '4096', 'table-inflate-max-mb': '16384' })).toMatchObject({
      tableFileMaxMb: 4096,
      tableInflateMaxMb: 16384,
    });
    expect(() => sandboxOptionsFrom('run', { 'table-file-max-mb': 'lots' })).toThrow(UsageError);
    expect(() => sandboxOptionsFrom('run', { 'table-inflate-max-mb': '0' })).toThrow(/--table-inflate-max-mb/);
  });
});
