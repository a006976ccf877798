import { describe, expect, test } from 'vitest';
import { PRELUDE_API } from '../../../schema/preludeApi.js';
import { SBIR_COLUMNS } from '../../../schema/sbirColumns.js';
import { dataCard } from '../../../src/result/dataCard.js';
import { TOOL_DESCRIPTION_MAX_CHARS, toolDescription } from '../../../src/result/toolDescription.js';
import { AWARDS, DATASET, columnar, dict, f64, utf8 } from '../prelude/fixture.js';
import { createHarness } from '../prelude/harness.js';

/** A card with every real SBIR column and long, varied values: the worst case for the budget. */
function fullCard() {
  const n = 50;
  const cols = Object.fromEntries(
    SBIR_COLUMNS.map((s, j) => {
      if (s.type === 'number' || s.type === 'integer')
        return [
          s.name,
          f64(
            Array.from({ length: n }, (_, i) => 1000 * i + j),
            s.type,
          ),
        ];
      if (s.type === 'date')
        return [
          s.name,
          f64(
            Array.from({ length: n }, (_, i) => `20${10 + (i % 10)}-01-0${1 + (i % 9)}`),
            'date',
          ),
        ];
      if (s.encoding === 'utf8')
        return [
          s.name,
          utf8(Array.from({ length: n }, (_, i) => `A rather long free-text value number ${i} for ${s.name}`)),
        ];
      return [s.name, dict(Array.from({ length: n }, (_, i) => `${s.name} category value ${i % 7}`))];
    }),
  );
  return dataCard(columnar('award_data', cols), {
    ...DATASET,
    synthetic: false,
    source: 'https://data.www.sbir.gov/awarddatapublic/award_data.csv',
    rows: n,
    asOf: '2025-06-01',
  });
}

describe('toolDescription', () => {
  test('mentions every name the prelude installs (generated from PRELUDE_API)', () => {
    const text = toolDescription(dataCard(AWARDS, DATASET));
    for (const a of PRELUDE_API) expect(text, a.name).toContain(a.name);
  });
  test('stays under 1,500 tokens (chars / 4) even with every SBIR column', () => {
    const text = toolDescription(fullCard());
    expect(text.length).toBeLessThanOrEqual(TOOL_DESCRIPTION_MAX_CHARS);
    expect(text).toContain('Award Amount');
    for (const a of PRELUDE_API) expect(text, a.name).toContain(a.name);
  });
  test('says when the data is synthetic, and how many rows there are', () => {
    const text = toolDescription(dataCard(AWARDS, DATASET));
    expect(text).toContain('8 US SBIR/STTR awards');
    expect(text).toContain('SYNTHETIC SAMPLE');
    expect(toolDescription(fullCard())).toContain('as of 2025-06-01');
  });
  test('has three examples using real column names', () => {
    const text = toolDescription(dataCard(AWARDS, DATASET));
    const ex = text.split('Examples:\n')[1];
    expect(ex).toMatchInlineSnapshot(`
      "1. award_data['Agency'].value_counts().head(10)
      2. const recent = award_data[award_data['Award Year'].ge(2020)];
      recent.groupby('Agency')['Award Amount'].agg(['sum', 'mean', 'count']).sort_values('sum', { ascending: false })
      3. award_data[award_data['Award Title'].str.contains('quantum', { case: false })].select('Agency', 'Award Title', 'Award Amount').head(20)"
    `);
  });
  test('its examples run', async () => {
    const h = createHarness();
    try {
      const ex = toolDescription(dataCard(AWARDS, DATASET))
        .split('Examples:\n')[1]
        .split(/\n(?=\d\. )/);
      expect(ex).toHaveLength(3);
      for (const e of ex) {
        const r = await h.run(e.replace(/^\d\. /, ''));
        expect(r.ok, r.error?.message).toBe(true);
        expect(r.table!.totalRows).toBeGreaterThan(0);
      }
    } finally {
      h.dispose();
    }
  });
});
