// Paged text: with bridge.fetchColumnRange, utf8 columns load in pages of 4096 rows, only where read.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { dataCard } from '../../../src/result/dataCard.js';
import { createHarness, type Harness } from './harness.js';
import { AWARDS, DATASET, columnar, dict, utf8 } from './fixture.js';

const n = 10_000;
const BIG = columnar('award_data', {
  Agency: dict(Array.from({ length: n }, (_, i) => ['DOD', 'NASA', null][i % 3])),
  Abstract: utf8(Array.from({ length: n }, (_, i) => (i % 7 === 0 ? null : `Abstract ${i} ü ${'x'.repeat(i % 50)}`))),
});

let h: Harness;
beforeAll(() => {
  h = createHarness({ tables: [BIG], paged: true });
});
afterAll(() => h.dispose());

describe('paged text columns', () => {
  test('only the pages that are read are fetched', async () => {
    expect((await h.run("award_data.get('Abstract', 1)")).value).toBe('Abstract 1 ü x');
    expect(h.fetched).toEqual(['award_data/Abstract[0:4096]']);
    expect((await h.run("award_data.get('Abstract', 9999)")).value).toBe(`Abstract 9999 ü ${'x'.repeat(49)}`);
    expect(h.fetched).toEqual(['award_data/Abstract[0:4096]', 'award_data/Abstract[8192:10000]']);
  });
  test('values equal the whole-column path, nulls included', async () => {
    const r = await h.run(
      "award_data.filter(d => d.Abstract === null).numRows() + ':' + award_data.filter(d => contains(d.Abstract, 'ü 9')).numRows()",
    );
    expect(r.value).toBe(
      `${Math.ceil(n / 7)}:${Array.from({ length: n }, (_, i) => i).filter((i) => i % 7 !== 0 && `Abstract ${i} ü`.includes('ü 9')).length}`,
    );
  });
  test('describeData streams the pages and agrees with the host card', async () => {
    const guest = (await h.run('describeData()')).value;
    expect(guest).toEqual(JSON.parse(JSON.stringify(dataCard(BIG, DATASET))));
  });
  test('the fixture behaves the same paged or not', async () => {
    const paged = createHarness({ tables: [AWARDS], paged: true });
    const whole = createHarness({ tables: [AWARDS] });
    try {
      for (const code of ['award_data', 'describeData().summary', "value_counts(award_data, 'Abstract')"]) {
        expect((await paged.run(code)).raw).toBe((await whole.run(code)).raw);
      }
    } finally {
      paged.dispose();
      whole.dispose();
    }
  });
});
