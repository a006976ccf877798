// Attack: a Parquet footer that lies: a metadata length past the start of the file, a column
// chunk whose pages point outside the file, a row count that disagrees with the row groups, and
// random bytes in the footer. Each is caught by the checks that run before decoding (offsets and
// counts are verified, never trusted) and refused with DATA_CORRUPT; the host carries on.
import { describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { DataError } from '../../src/data/index.js';
import { decodeInWorker } from '../../src/data/formats/decodeInWorker.js';
import { portfolioParquet } from '../helpers/tableFiles.js';
import { withFooter } from '../helpers/parquetSurgery.js';
import { expectHealthy } from './helpers.js';

const whole = portfolioParquet();

async function code(bytes: Uint8Array): Promise<string | undefined> {
  return decodeInWorker('t', bytes, 'attack.parquet', 'parquet').then(
    () => undefined,
    (e: unknown) => (e instanceof DataError ? e.code : `not a DataError: ${String(e)}`),
  );
}

describe('Parquet footers that lie', () => {
  it('a metadata length larger than the file', async () => {
    const bad = whole.slice();
    new DataView(bad.buffer).setUint32(bad.byteLength - 8, 0x7fffffff, true);
    expect(await code(bad)).toBe('DATA_CORRUPT');
  });

  it('a column chunk whose pages start past the end of the file', async () => {
    const bad = withFooter(whole, (f) => {
      f.field_4[0].field_1[1].field_3.field_9 = BigInt(whole.byteLength * 10);
    });
    expect(await code(bad)).toBe('DATA_CORRUPT');
  });

  it('a column chunk that claims more bytes than the file has', async () => {
    const bad = withFooter(whole, (f) => {
      f.field_4[0].field_1[0].field_3.field_7 = 10_000_000_000n; // total_compressed_size
    });
    expect(await code(bad)).toBe('DATA_CORRUPT');
  });

  it('a row count that disagrees with the row groups (a reader would return short columns)', async () => {
    const bad = withFooter(whole, (f) => {
      f.field_3 = 1_000_000n;
    });
    expect(await code(bad)).toBe('DATA_CORRUPT');
  });

  it('a row group that declares more rows than its pages hold', async () => {
    const bad = withFooter(whole, (f) => {
      f.field_3 = 40n;
      f.field_4[0].field_3 = 40n;
    });
    expect(await code(bad)).toBe('DATA_CORRUPT');
  });

  it('random bytes in place of the footer', async () => {
    const bad = whole.slice();
    const len = new DataView(bad.buffer).getUint32(bad.byteLength - 8, true);
    bad.set(randomBytes(len), bad.byteLength - 8 - len);
    const c = await code(bad);
    expect([
      'DATA_CORRUPT',
      'DATA_UNSUPPORTED',
      'DATA_SCHEMA_MISMATCH',
      'DATA_TOO_LARGE',
      'DATA_DECODE_FAILED',
    ]).toContain(c);
  });

  it('the host is unharmed', async () => {
    await expectHealthy();
  });
});
