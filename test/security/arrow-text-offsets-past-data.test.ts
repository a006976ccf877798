// Attack: an Arrow file whose text offsets point past the column's data buffer (or go backwards,
// or, in a LargeUtf8 column, beyond 2^31). flechette builds views over the file from these
// numbers without checking them, and a typed-array view clamps silently: a reader that trusts the
// offsets returns values cut short or taken from the wrong bytes. The columnar reader checks every
// row's offsets against its batch's text bytes before copying anything and refuses the file with
// DATA_CORRUPT naming the column and the row; the worker, the host and the next decode are fine.
import { batchType, Column, largeUtf8, tableFromColumns, tableToIPC, utf8 } from '@uwdata/flechette';
import { describe, expect, it } from 'vitest';
import { DataError } from '../../src/data/index.js';
import { decodeInWorker } from '../../src/data/formats/decodeInWorker.js';

const TEXT = new TextEncoder().encode('alphabetagamma'); // 14 bytes: 'alpha', 'beta', 'gamma'

/** An Arrow file of one text column whose offsets are written as given (flechette's writer copies them as they are). */
function file(offsets: number[], large = false): Uint8Array {
  const type = large ? largeUtf8() : utf8();
  const B = batchType(type, {});
  const batch = new B({
    type,
    length: offsets.length - 1,
    nullCount: 0,
    validity: new Uint8Array(0),
    offsets: large ? BigInt64Array.from(offsets, (o) => BigInt(o)) : Int32Array.from(offsets),
    values: TEXT,
  });
  return tableToIPC(tableFromColumns({ name: new Column([batch] as never) }), { format: 'file' })!;
}

async function refusal(bytes: Uint8Array): Promise<DataError> {
  const err = await decodeInWorker('t', bytes, 'attack.arrow', 'arrow').then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(DataError);
  return err as DataError;
}

describe('Arrow text offsets outside the text bytes', () => {
  it('the unaltered file decodes to its three values', async () => {
    const t = await decodeInWorker('t', file([0, 5, 9, 14]), 'good.arrow', 'arrow');
    const c = t.columns[0].data as { kind: string; bytes: Uint8Array; offsets: Int32Array };
    expect(c.kind).toBe('utf8');
    expect(Buffer.from(c.bytes).toString()).toBe('alphabetagamma');
    expect([...c.offsets]).toEqual([0, 5, 9, 14]);
  });

  it.each([
    [
      'the last value ends 986 bytes past the data',
      [0, 5, 9, 1000],
      /row 3 of record batch 1 spans bytes 9 to 1000 of a text buffer of \d+ bytes/,
    ],
    ['a value starts past the data', [0, 5, 500, 600], /row 2 of record batch 1 spans bytes 5 to 500/],
    ['offsets that go backwards', [0, 9, 5, 14], /row 2 of record batch 1 spans bytes 9 to 5/],
    ['a negative offset', [-4, 5, 9, 14], /row 1 of record batch 1 spans bytes -4 to 5/],
  ])('%s: DATA_CORRUPT naming the row', async (_what, offsets, message) => {
    const err = await refusal(file(offsets));
    expect(err.code).toBe('DATA_CORRUPT');
    expect(err.message).toMatch(/attack\.arrow: column 'name' is damaged/);
    expect(err.message).toMatch(message);
    expect(err.hint).toMatch(/damaged or truncated/);
  });

  it('a LargeUtf8 offset beyond 2^31 (past any text buffer): DATA_CORRUPT', async () => {
    const err = await refusal(file([0, 5, 2 ** 40, 2 ** 40 + 3], true));
    expect(err.code).toBe('DATA_CORRUPT');
    expect(err.message).toMatch(/row 2 of record batch 1 spans bytes 5 to -1/);
  });

  it('the next decode is served normally', async () => {
    const t = await decodeInWorker('t', file([0, 5, 9, 14], true), 'good.arrow', 'arrow');
    expect(t.numRows).toBe(3);
  });
});
