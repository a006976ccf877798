// Attack: a Parquet file cut short (a half-finished upload or download), at every kind of boundary:
// inside the data pages, inside the footer, and with the magic missing. Each is refused with
// DATA_CORRUPT and a hint before any page is decoded; the host and an open session carry on.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, run, type Sandbox } from '../../src/index.js';
import { DataError } from '../../src/data/index.js';
import { portfolioParquet } from '../helpers/tableFiles.js';
import { expectHealthy } from './helpers.js';

const whole = portfolioParquet();
let box: Sandbox;
beforeAll(async () => {
  box = await createSandbox();
});
afterAll(async () => {
  await box.close();
});

const cuts: Array<[string, Uint8Array]> = [
  ['half the file', whole.subarray(0, Math.floor(whole.byteLength / 2))],
  ['the last byte missing', whole.subarray(0, whole.byteLength - 1)],
  ['only the magic', whole.subarray(0, 4)],
  [
    'the footer length kept but the footer cut',
    Buffer.concat([whole.subarray(0, 40), whole.subarray(whole.byteLength - 8)]),
  ],
];

describe('truncated Parquet', () => {
  for (const [what, bytes] of cuts) {
    it(`${what}: DATA_CORRUPT with a hint, nothing decoded`, async () => {
      const err = await run('t.numRows()', { awardData: false, tables: { t: { bytes, format: 'parquet' } } }).then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(DataError);
      expect((err as DataError).code).toBe('DATA_CORRUPT');
      expect((err as DataError).hint).toMatch(/damaged or truncated/);
    });
  }

  it('the host and a session opened before are unharmed', async () => {
    await expectHealthy(box);
  });
});
