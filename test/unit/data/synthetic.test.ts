import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ingestCsv } from '../../../src/data/ingest/ingestCsv.js';
import { syntheticCsv, writeSyntheticCsv } from '../../../src/data/synthetic.js';
import { column, tempDir } from './helpers.js';

describe('synthetic sample', async () => {
  const text = [...syntheticCsv()].join('');
  const { table, report } = await ingestCsv(Buffer.from(text));

  it('is the same bytes every time, and a different seed changes it', async () => {
    const dir = tempDir();
    await writeSyntheticCsv(join(dir, 'a.csv'));
    expect(readFileSync(join(dir, 'a.csv'), 'utf8')).toBe(text);
    expect([...syntheticCsv({ seed: 1 })].join('')).not.toBe(text);
    // pinned: a change here means the generator changed; bump SYNTHETIC_VERSION with it
    expect(createHash('sha256').update(text).digest('hex').slice(0, 16)).toMatchInlineSnapshot(`"a04e2e5a28454dc7"`);
  });

  it('has 5,000 rows in the current 42-column layout, all cells valid', () => {
    expect(report).toMatchObject({
      layout: 'current',
      rows: 5000,
      columns: 42,
      raggedCount: 0,
      missingColumns: [],
      unknownColumns: [],
    });
    expect(report.invalidCells).toEqual([]);
  });

  it('has realistic agencies, phases, amounts and years', () => {
    const agencies = column(table, 'Agency') as string[];
    const share = (name: string) => agencies.filter((a) => a === name).length / agencies.length;
    expect(share('Department of Defense')).toBeGreaterThan(0.4);
    expect(share('Department of Health and Human Services')).toBeGreaterThan(0.15);
    for (const a of [
      'National Aeronautics and Space Administration',
      'Department of Energy',
      'National Science Foundation',
      'Department of Agriculture',
    ])
      expect(share(a)).toBeGreaterThan(0.005);
    expect(new Set(column(table, 'Phase'))).toEqual(new Set(['Phase I', 'Phase II']));
    const amounts = column(table, 'Award Amount');
    expect(amounts.filter((v) => v === null).length).toBeGreaterThan(0);
    expect(amounts.filter((v) => v === 0).length).toBeGreaterThan(0);
    const positive = amounts.filter((v): v is number => typeof v === 'number' && v > 0);
    expect(Math.min(...positive)).toBeGreaterThanOrEqual(25_000);
    expect(Math.max(...positive)).toBeLessThanOrEqual(2_000_000);
    const years = column(table, 'Award Year') as number[];
    expect(Math.min(...years)).toBeGreaterThanOrEqual(1983);
    expect(Math.max(...years)).toBeLessThanOrEqual(2026);
  });

  it('has the quirks of the real file', () => {
    const abstracts = column(table, 'Abstract') as Array<string | null>;
    expect(abstracts.filter((a) => a === 'N/A').length).toBeGreaterThan(0);
    expect(abstracts.filter((a) => a?.includes('\n')).length / 5000).toBeGreaterThan(0.05);
    expect(abstracts.filter((a) => a?.includes('\r')).length).toBeGreaterThan(0);
    expect(abstracts.filter((a) => a?.includes('"')).length).toBeGreaterThan(0);
    expect(text).toContain(',"  ",');
    expect(new Set(column(table, 'HUBZone Owned'))).toEqual(new Set(['Y', 'N', 'U']));
    const dates = column(table, 'Proposal Award Date');
    const filled = dates.filter((d) => d !== null).length / dates.length;
    expect(filled).toBeGreaterThan(0.3);
    expect(filled).toBeLessThan(0.75);
  });

  it('writes the legacy layout too', async () => {
    const legacy = await ingestCsv(Buffer.from([...syntheticCsv({ rows: 200, layout: 'legacy' })].join('')));
    expect(legacy.report).toMatchObject({
      layout: 'legacy',
      rows: 200,
      columns: 41,
      renamedColumns: [{ from: 'Women Owned', to: 'Woman Owned' }],
    });
    expect(legacy.report.invalidCells).toEqual([]);
  });
});
