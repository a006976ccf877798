import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { tempDir } from './helpers.js';

// Count the hash workers started: a user's CSV table needs no sha256, the award data does.
const started = vi.hoisted(() => ({ count: 0 }));
vi.mock('../../../src/data/ingest/hashFile.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../../src/data/ingest/hashFile.js')>();
  return {
    hashFileInWorker: (path: string) => {
      started.count++;
      return real.hashFileInWorker(path);
    },
  };
});

const { ingestCsv, ingestCsvTable } = await import('../../../src/data/ingest/ingestCsv.js');
const { ingestCsvInParts } = await import('../../../src/data/ingest/csvInParts.js');

const dir = tempDir('sbt-csvhash-');
const csv = join(dir, 'small.csv');
writeFileSync(csv, 'name,amount\nalpha,1\nbeta,2\n');

describe('the sha256 of a CSV', () => {
  it('is computed for the award data (its identity) and not for a user table', async () => {
    started.count = 0;
    const award = await ingestCsv(csv);
    expect(award.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(started.count).toBe(1);

    const table = await ingestCsvTable(csv, { name: 'small' });
    expect('sha256' in table).toBe(false);
    expect(table.table.numRows).toBe(2);
    const parts = await ingestCsvInParts(csv, { name: 'small' });
    expect(parts.parts).toBe(1);
    expect(parts.table.numRows).toBe(2);
    expect(started.count).toBe(1); // neither started a hash worker
  });
});
