// A table file the holder has read is read again when it changes on disk: the holder keeps a
// decoded table per path while its size and modification time stay the same, for CSV as for
// Parquet and Arrow, so a user who rewrites a CSV between sessions never gets the old rows.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createSandbox, shutdown } from '../../../src/index.js';

const dir = mkdtempSync(join(tmpdir(), 'sbt-changed-'));
afterAll(async () => {
  await shutdown();
  rmSync(dir, { recursive: true, force: true });
});

async function answer(path: string, code: string): Promise<unknown> {
  await using box = await createSandbox({ awardData: false, tables: { t: path } });
  const r = await box.run(code);
  expect(r.ok, JSON.stringify(r.error)).toBe(true);
  return r.value;
}

describe('a table file rewritten between sessions', () => {
  it('a CSV rewritten with other rows is read again by the same holder', async () => {
    const path = join(dir, 'awards.csv');
    writeFileSync(path, 'name,amount\na,1\nb,2\n');
    expect(await answer(path, "[t.numRows(), t.array('amount').reduce((s, x) => s + x, 0)]")).toEqual([2, 3]);
    writeFileSync(path, 'name,amount\na,10\nb,20\nc,30\n');
    expect(await answer(path, "[t.numRows(), t.array('amount').reduce((s, x) => s + x, 0)]")).toEqual([3, 60]);
    // unchanged: the kept table answers (same rows)
    expect(await answer(path, 't.numRows()')).toBe(3);
  });
});
