// The table-file, inflate and decode-heap caps scale with the host's memory, can be set from the
// environment or per call, and every refusal names the setting that raises it.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DataError } from '../../../../src/data/errors.js';
import {
  capHint,
  DECODE_CAP_ENV,
  DEFAULT_DECODE_CAPS,
  hostDecodeCaps,
  hostMemoryBytes,
} from '../../../../src/data/formats/decodeCaps.js';
import { cappedCompressors } from '../../../../src/data/formats/cappedCompressors.js';
import { loadTable } from '../../../../src/data/formats/loadTable.js';
import { decodeInWorker } from '../../../../src/data/formats/decodeInWorker.js';
import { portfolioParquet } from '../../../helpers/tableFiles.js';

const MIB = 1024 * 1024;
const GIB = 1024 * MIB;
const dir = mkdtempSync(join(tmpdir(), 'sbirtools-caps-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function refusal(p: Promise<unknown>): Promise<DataError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(DataError);
  return err as DataError;
}

describe('host-scaled decode caps', () => {
  it('keep the fixed floors on a small host', () => {
    const caps = hostDecodeCaps(2 * GIB, {});
    expect(caps.maxInputBytes).toBe(512 * MIB);
    expect(caps.maxDecodedBytes).toBe(2 * GIB);
    expect(caps.heapMb).toBe(2048);
  });

  it('grow with a large host: file 1/8, inflate 1/2, heap of each of two workers 1/4 of its memory', () => {
    const caps = hostDecodeCaps(64 * GIB, {});
    expect(caps.maxInputBytes).toBe(8 * GIB);
    expect(caps.maxDecodedBytes).toBe(32 * GIB);
    expect(caps.heapMb).toBe(16_384); // capped
    expect(hostDecodeCaps(32 * GIB, {}).heapMb).toBe(8192);
  });

  it('are the defaults of this process, scaled to its memory', () => {
    expect(DEFAULT_DECODE_CAPS).toEqual(hostDecodeCaps(hostMemoryBytes(), process.env));
    expect(DEFAULT_DECODE_CAPS.maxInputBytes).toBeGreaterThanOrEqual(512 * MIB);
  });

  it('take each environment override in MiB, over the scaled default', () => {
    const caps = hostDecodeCaps(64 * GIB, {
      [DECODE_CAP_ENV.maxInputBytes]: '3',
      [DECODE_CAP_ENV.maxDecodedBytes]: '40000',
      [DECODE_CAP_ENV.heapMb]: '1024',
    });
    expect(caps.maxInputBytes).toBe(3 * MIB);
    expect(caps.maxDecodedBytes).toBe(40_000 * MIB);
    expect(caps.heapMb).toBe(1024);
  });

  it('refuse a malformed override by naming the variable', () => {
    for (const bad of ['0', '-5', '1.5', 'lots']) {
      let err: unknown;
      try {
        hostDecodeCaps(GIB, { SBIRTOOLS_TABLE_FILE_MAX_MB: bad });
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(DataError);
      expect((err as DataError).message).toContain('SBIRTOOLS_TABLE_FILE_MAX_MB');
    }
  });
});

describe('a table over a cap', () => {
  it('is refused with DATA_TOO_LARGE naming the file-size setting (path, bytes, worker)', async () => {
    const bytes = portfolioParquet();
    const file = join(dir, 'p.parquet');
    writeFileSync(file, bytes);
    const caps = { maxInputBytes: 100 };
    for (const err of [
      await refusal(loadTable('p', file, { cacheDir: dir, caps })),
      await refusal(loadTable('p', bytes, { cacheDir: dir, caps })),
      await refusal(decodeInWorker('p', bytes, 'p.parquet', 'parquet', caps)),
    ]) {
      expect(err.code).toBe('DATA_TOO_LARGE');
      // a cap the caller set is named as its option, not as the environment default
      expect(err.hint).toContain('caps.maxInputBytes');
      expect(err.hint).not.toContain('SBIRTOOLS_TABLE_FILE_MAX_MB');
    }
  });

  it('at the default caps, names the environment variable, its value and the option', () => {
    for (const key of ['maxInputBytes', 'maxDecodedBytes', 'heapMb'] as const) {
      const hint = capHint(key, DEFAULT_DECODE_CAPS, 'Split the file.');
      expect(hint).toContain(DECODE_CAP_ENV[key]);
      expect(hint).toContain(`caps.${key}`);
      expect(hint).toContain(
        `now ${key === 'heapMb' ? DEFAULT_DECODE_CAPS.heapMb : DEFAULT_DECODE_CAPS[key] / MIB} MiB`,
      );
    }
  });

  it('is refused at the inflate cap naming its setting (the whole file, then one page)', async () => {
    const err = await refusal(decodeInWorker('p', portfolioParquet(), 'p.parquet', 'parquet', { maxDecodedBytes: 64 }));
    expect(err.code).toBe('DATA_TOO_LARGE');
    expect(err.hint).toContain('caps.maxDecodedBytes');
    const codecs = cappedCompressors({ ...DEFAULT_DECODE_CAPS, maxPageBytes: 10 });
    let pageErr: unknown;
    try {
      codecs.SNAPPY!(new Uint8Array([20, 0]), 20);
    } catch (e) {
      pageErr = e;
    }
    expect(pageErr).toBeInstanceOf(DataError);
    expect((pageErr as DataError).message).toContain('page cap');
    const budget = cappedCompressors({ ...DEFAULT_DECODE_CAPS, maxDecodedBytes: 10 });
    let budgetErr: unknown;
    try {
      budget.SNAPPY!(new Uint8Array([20, 0]), 20);
    } catch (e) {
      budgetErr = e;
    }
    expect((budgetErr as DataError).message).toContain('inflate cap');
    expect((budgetErr as DataError).hint).toContain('caps.maxDecodedBytes');
  });

  it('loads once the setting is raised', async () => {
    const t = await decodeInWorker('p', portfolioParquet(), 'p.parquet', 'parquet', { maxInputBytes: 10 * MIB });
    expect(t.numRows).toBeGreaterThan(0);
  });
});
