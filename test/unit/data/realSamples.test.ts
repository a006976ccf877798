import { describe, expect, it } from 'vitest';
import { ingestCsv } from '../../../src/data/ingest/ingestCsv.js';
import { column, sample } from './helpers.js';

// Values below were read from the files themselves (see ../shared/data/SOURCE.md).
const current = sample('sbir-awards-real-sample.csv');
const legacy1k = sample('sbir-awards-legacy-1k-sample.csv');
const legacy5 = sample('sbir-awards-legacy-5row-sample.csv');

describe.skipIf(!current.exists)('real sample, current layout (no Abstract)', async () => {
  const { table, report } = current.exists ? await ingestCsv(current.path) : ({} as never);

  it('reads 150 rows of 41 columns as the current layout', () => {
    expect(table.numRows).toBe(150);
    expect(report).toMatchObject({
      layout: 'current',
      rows: 150,
      columns: 41,
      raggedCount: 0,
      unknownColumns: [],
      missingColumns: ['Abstract'],
    });
    expect(report.invalidCells).toEqual([]);
  });

  it('types amounts, years and dates from the schema', () => {
    expect(column(table, 'Company')[0]).toBe('ECATE LLC');
    expect(column(table, 'Award Amount')[0]).toBe(1233655);
    expect(column(table, 'Award Amount')[147]).toBe(1699936.24);
    expect(column(table, 'Award Year')[0]).toBe(2026);
    expect(column(table, 'Proposal Award Date')[0]).toBe(Date.UTC(2026, 7, 28));
    expect(table.columns.find((c) => c.name === 'Proposal Award Date')?.type).toBe('date');
  });

  it('keeps identifiers as strings with leading zeros', () => {
    expect(column(table, 'Duns')[0]).toBe('061962925');
    expect(column(table, 'Solicitation Number')[148]).toBe('25.4');
    expect(column(table, 'Agency Tracking Number')[0]).toBe('2527821');
  });

  it("keeps Y/N/U flags and turns blanks and '  ' placeholders into null", () => {
    expect(column(table, 'HUBZone Owned')[0]).toBe('N');
    expect(column(table, 'Socially and Economically Disadvantaged')[0]).toBe('Y');
    expect(new Set(column(table, 'Woman Owned'))).toEqual(new Set(['N', 'Y', 'U']));
    expect(column(table, 'Contact Name')[0]).toBeNull(); // "  "
    expect(column(table, 'Branch')[0]).toBeNull(); // empty
    expect(column(table, 'Number Employees')[12]).toBeNull(); // MEDICARBONE, INC.: blank
    expect(column(table, 'Number Employees')[0]).toBe(2);
  });

  it('keeps text untrimmed', () => {
    expect(column(table, 'PI Name')[0]).toBe('Alessandro  Maggi');
  });
});

describe.skipIf(!legacy1k.exists)('real sample, legacy layout re-saved by pandas', async () => {
  const { table, report } = legacy1k.exists ? await ingestCsv(legacy1k.path) : ({} as never);

  it('reads 891 rows, reports the extra columns and the renamed flag', () => {
    expect(table.numRows).toBe(891);
    expect(report.layout).toBe('legacy');
    expect(report.unknownColumns).toEqual(['id', 'abstract_entities']);
    expect(report.renamedColumns).toEqual([{ from: 'Women Owned', to: 'Woman Owned' }]);
    expect(report.invalidCells).toEqual([]);
    expect(table.columns.find((c) => c.name === 'id')?.type).toBe('string');
  });

  it('parses legacy amounts, M/D/YYYY dates, 2019.0 floats and quoted DUNS', () => {
    expect(column(table, 'id')[0]).toBe('16068');
    expect(column(table, 'Award Amount')[0]).toBe(139882);
    expect(column(table, 'Proposal Award Date')[0]).toBe(Date.UTC(2019, 9, 21));
    expect(column(table, 'Solicitation Year')[0]).toBe(2019);
    expect(column(table, 'Number Employees')[0]).toBe(34);
    expect(column(table, 'Duns')[0]).toBe('079179794');
    expect(column(table, 'Zip')[2]).toBe('02472');
    expect(column(table, 'Award Amount')[826]).toBeNull(); // ASTRALUX, INC.: blank, not 0
    expect(column(table, 'HUBZone Owned')[455]).toBe('U');
  });

  it('keeps bare CR inside abstracts', () => {
    const abstract = column(table, 'Abstract')[103] as string;
    expect(abstract).toContain('will be considered.\r \r The');
  });
});

describe.skipIf(!legacy5.exists)('real sample, legacy CRLF file with invalid UTF-8', async () => {
  const { table, report } = legacy5.exists ? await ingestCsv(legacy5.path) : ({} as never);

  it('reads 5 CRLF records and replaces invalid bytes with U+FFFD', () => {
    expect(table.numRows).toBe(5);
    expect(report.layout).toBe('legacy');
    expect(report.replacedInvalidUtf8).toBeGreaterThan(0);
    expect(column(table, 'Abstract')[3]).toContain('\ufffd');
    expect(column(table, 'RI POC Phone').every((v) => v === null || !String(v).endsWith('\r'))).toBe(true);
  });

  it('parses unpadded M/D/YYYY dates and comma amounts', () => {
    expect(column(table, 'Proposal Award Date')[0]).toBe(Date.UTC(2024, 4, 7));
    expect(column(table, 'Award Amount')[4]).toBe(1880681);
    expect(column(table, 'Duns')[1]).toBe('133709001');
    expect(column(table, 'Duns')[0]).toBeNull();
  });
});
