import { describe, it, expect } from 'vitest';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import * as aq from 'arquero';
import { createSandbox, run, SbirtoolsValidationError } from '../../../src/index.js';

const REAL = resolve(__dirname, '../../../../shared/data/sbir-awards-real-sample.csv');

describe('more tables', () => {
  it('exposes rows, an Arquero table and a CSV by name and in `tables`, beside award_data', async () => {
    const tables: Record<string, unknown> = {
      people: [
        { name: 'a', n: 1, d: new Date('2020-01-02T00:00:00Z') },
        { name: 'b', n: null },
      ],
      small: aq.table({ x: [1, 2, 3], s: ['u', 'v', null] }),
    };
    if (existsSync(REAL)) tables.sample = REAL;
    else console.warn(`skipping the CSV table: ${REAL} is absent`);
    const box = await createSandbox({ tables: tables as never });
    try {
      expect((await box.run('people.numRows()')).value).toBe(2);
      expect((await box.run('people.objects()')).value).toEqual([
        { name: 'a', n: 1, d: '2020-01-02T00:00:00.000Z' },
        { name: 'b', n: null, d: null },
      ]);
      expect((await box.run("small.rollup({ s: op.sum('x') }).object()")).value).toEqual({ s: 6 });
      expect((await box.run('Object.keys(tables)')).value).toEqual(['award_data', ...Object.keys(tables)]);
      if (tables.sample) expect((await box.run('tables.sample.numRows()')).value).toBe(150);
      expect((await box.run('award_data.numRows() > 0')).value).toBe(true);
    } finally {
      await box.close();
    }
  });

  it('can leave award_data out', async () => {
    const r = await run('typeof award_data', { awardData: false, tables: { t: [{ a: 1 }] } });
    expect(r.value).toBe('undefined');
  });

  it('rejects bad table names and values', async () => {
    await expect(createSandbox({ tables: { award_data: [] } })).rejects.toThrow(SbirtoolsValidationError);
    await expect(createSandbox({ tables: { 'not an identifier': [] } })).rejects.toThrow(/Invalid table name/);
    await expect(createSandbox({ tables: { t: 42 as never } })).rejects.toThrow(
      /file path or URL \(CSV, Parquet, Arrow, JSON, NDJSON\), bytes, .*an Arquero table or an array of row objects/,
    );
    await expect(createSandbox({ tables: { t: '/nonexistent/file.csv' } })).rejects.toMatchObject({
      code: 'DATA_NOT_FOUND',
    });
  });
});
