// A decode worker that decoded a file cleanly is kept warm for the next file (spareWorker.ts);
// one that failed in any way never decodes another file. Real worker threads, real files.
import { describe, expect, it } from 'vitest';
import { decodeInWorker } from '../../../../src/data/formats/decodeInWorker.js';
import { spareState } from '../../../../src/data/formats/spareWorker.js';
import { columnValues } from '../../../../src/data/formats/columnValues.js';
import { DataError } from '../../../../src/data/errors.js';
import { portfolioParquet, PORTFOLIO } from '../../../helpers/tableFiles.js';
import { waitFor } from '../../../helpers/waitFor.js';

/** A spare is started shortly after a decode: wait until it is there and has decoded nothing. */
const settle = () => waitFor(() => spareState()?.decodes === 0, { what: 'a warm spare decode worker' });

async function decodeOk(): Promise<void> {
  const t = await decodeInWorker('p', portfolioParquet(), 'p.parquet', 'parquet');
  expect(t.numRows).toBe(PORTFOLIO.Agency.length);
  expect(columnValues(t.columns[0]!.data)).toEqual(PORTFOLIO.Agency);
  expect(columnValues(t.columns[1]!.data)).toEqual(PORTFOLIO.target);
}

describe('decode workers are reused only after clean decodes', () => {
  it('a spare that decoded a file comes back warm; after a failed decode the next file gets a new worker', async () => {
    await decodeOk(); // a fresh worker (no spare yet); a spare is started shortly after
    await settle();
    expect(spareState()).toEqual({ decodes: 0 });
    await decodeOk(); // through the spare, which then comes back
    expect(spareState()).toEqual({ decodes: 1 });
    await decodeOk();
    expect(spareState()).toEqual({ decodes: 2 });
    // a damaged file: refused, and the worker that read it is not kept
    const broken = portfolioParquet().slice();
    broken.fill(7, 8, broken.length - 8);
    await expect(decodeInWorker('p', broken, 'broken.parquet', 'parquet')).rejects.toBeInstanceOf(DataError);
    expect(spareState()).toBeUndefined();
    await settle();
    expect(spareState()).toEqual({ decodes: 0 }); // a new spare, not the one that failed
    await decodeOk();
  }, 60_000);
});
