import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { dataCard } from '../../../src/result/dataCard.js';
import { AWARDS, DATASET } from '../prelude/fixture.js';
import { createHarness, type Harness } from '../prelude/harness.js';

let h: Harness;
beforeAll(() => {
  h = createHarness();
});
afterAll(() => h.dispose());

describe('dataCard', () => {
  test('host and isolate compute the same card', async () => {
    const host = dataCard(AWARDS, DATASET);
    const guest = (await h.run('describeData()')).value;
    expect(guest).toEqual(JSON.parse(JSON.stringify(host)));
  });
  test('per column: type, nulls, distinct, top values or range', () => {
    const card = dataCard(AWARDS, DATASET);
    expect(card).toMatchObject({ table: 'award_data', rows: 8, dataset: { synthetic: true } });
    const by = Object.fromEntries(card.columns.map((c) => [c.name, c]));
    expect(by.Agency).toEqual({
      name: 'Agency',
      type: 'string',
      nullCount: 1,
      nullRate: 0.125,
      distinct: 3,
      top: [
        { value: 'DOD', count: 3 },
        { value: 'NASA', count: 2 },
        { value: 'NSF', count: 2 },
      ],
    });
    expect(by['Award Amount']).toMatchObject({ type: 'number', nullCount: 1, distinct: 6, min: 50000, max: 1500000 });
    expect(by['Award Amount'].top).toBeUndefined();
    expect(by['Award Year'].top![0]).toEqual({ value: 2019, count: 2 });
    expect(by['Proposal Award Date']).toMatchObject({ type: 'date', min: '2019-03-15', max: '2023-09-30' });
    expect(by.Abstract).toMatchObject({ type: 'string', distinct: 7, example: 'Line one. Line two.' });
    expect(card.summary.split('\n')[0]).toBe(
      'award_data: 8 rows x 7 columns - SYNTHETIC SAMPLE (made-up rows for trying the tools; not real awards)',
    );
  });
  test('a Dataset-like source loads its columns and uses its info', () => {
    const loaded: string[] = [];
    const ds = {
      meta: {
        name: AWARDS.name,
        numRows: AWARDS.numRows,
        columns: AWARDS.columns.map(({ name, type, kind }) => ({ name, type, kind })),
      },
      info: {
        name: 'award_data',
        synthetic: false,
        source: 'https://www.sbir.gov/awards.csv',
        identity: 'etag',
        rows: 8,
        asOf: '2025-01-31T00:00:00Z',
      },
      loadColumn: (n: string) => {
        loaded.push(n);
        return AWARDS.columns.find((c) => c.name === n)!.data;
      },
    };
    const card = dataCard(ds);
    expect(loaded).toHaveLength(7);
    expect(card.summary.split('\n')[0]).toBe(
      'award_data: 8 rows x 7 columns - real data from https://www.sbir.gov/awards.csv, as of 2025-01-31',
    );
  });
});
