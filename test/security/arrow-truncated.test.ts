// Attack: Arrow IPC files and streams cut short or with garbage after the magic. flechette is not
// hardened against this: every Arrow input is decoded in a worker thread and each column's length
// is checked against the table's row count, so the result is DATA_CORRUPT, never short or wrong
// columns, and the host and an open session carry on.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, run, type Sandbox } from '../../src/index.js';
import { DataError } from '../../src/data/index.js';
import { portfolioArrow } from '../helpers/tableFiles.js';
import { decodeArrow } from '../../src/data/formats/arrow.js';
import { DEFAULT_DECODE_CAPS } from '../../src/data/formats/decodeCaps.js';
import { expectHealthy } from './helpers.js';

let box: Sandbox;
beforeAll(async () => {
  box = await createSandbox();
});
afterAll(async () => {
  await box.close();
});

const file = portfolioArrow('file');
const stream = portfolioArrow('stream');
const cases: Array<[string, Uint8Array]> = [
  ['an Arrow file without its end', file.subarray(0, file.byteLength - 20)],
  ['an Arrow file cut in half', file.subarray(0, Math.floor(file.byteLength / 2))],
  ['an Arrow stream cut in half', stream.subarray(0, Math.floor(stream.byteLength / 2))],
  [
    'ARROW1 magic followed by random bytes',
    Buffer.concat([Buffer.from('ARROW1\0\0'), randomBytes(2048), Buffer.from('ARROW1')]),
  ],
  [
    'a stream marker followed by random bytes',
    Buffer.concat([Buffer.from([0xff, 0xff, 0xff, 0xff]), randomBytes(4096)]),
  ],
];

describe('truncated or garbage Arrow IPC', () => {
  it('the whole file and stream load', async () => {
    const r = await run('[f.numRows(), s.numRows(), f.array("big")[0]]', {
      awardData: false,
      tables: { f: file, s: stream },
    });
    expect(r.value).toEqual([4, 4, '9007199254740993']);
  });

  for (const [what, bytes] of cases) {
    it(`${what}: a typed DataError`, async () => {
      const err = await run('t.numRows()', { awardData: false, tables: { t: { bytes, format: 'arrow' } } }).then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(DataError);
      expect(['DATA_CORRUPT', 'DATA_UNSUPPORTED', 'DATA_DECODE_FAILED']).toContain((err as DataError).code);
      expect((err as DataError).hint).toBeTruthy();
    });
  }

  it('random bytes after a stream marker never decode to a table (a read of an empty stream is refused too)', () => {
    for (let i = 0; i < 100; i++) {
      const garbage = Buffer.concat([Buffer.from([0xff, 0xff, 0xff, 0xff]), randomBytes(1024)]);
      expect(() => decodeArrow('t', garbage, 'garbage.arrow', DEFAULT_DECODE_CAPS)).toThrow(DataError);
    }
  });

  it('the host and a session opened before are unharmed', async () => {
    await expectHealthy(box);
  });
});
