// Attack: a table of a million rows, straight in the log and through a run's capsule with outputs.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readCapsules } from '../../src/capsule/readCapsules.js';
import { withCapsules } from '../../src/capsule/withCapsules.js';
import { SHOW_MAX_ROWS } from '../../src/viewer/renderTable.js';
import { fakeResult } from '../unit/adapters/fixtures.js';
import { activeContent, bothPages, record } from '../unit/viewer/fixtures.js';

const MILLION = 1_000_000;
const rows = () => Array.from({ length: MILLION }, (_, i) => [`r${i}`, i]);

describe('viewer: a million-row table', () => {
  it('shows at most SHOW_MAX_ROWS rows and the real shape', async () => {
    const rec = record({
      outputs: {
        table: {
          columns: ['id', 'n'],
          dtypes: ['string', 'integer'],
          rows: rows(),
          totalRows: MILLION,
          truncated: false,
        },
      },
    });
    for (const page of await bothPages([rec])) {
      expect(activeContent(page.doc), page.name).toEqual([]);
      expect(page.doc.querySelectorAll('tbody tr')).toHaveLength(SHOW_MAX_ROWS);
      expect(page.doc.querySelector('.sb-shape')!.textContent).toContain('1,000,000 rows × 2 columns');
    }
  });

  it('is cut to the byte cap when a run returns it with outputs on', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'sbirtools-million-')), 'runs.jsonl');
    const table = {
      columns: ['id', 'n'],
      dtypes: ['string', 'integer'],
      rows: rows(),
      totalRows: MILLION,
      truncated: false,
      markdown: '',
    };
    await withCapsules(async () => fakeResult({ table }), { path, outputs: true })('award_data');
    const out = (await readCapsules(path))[0]!.record.outputs!;
    expect(Buffer.byteLength(JSON.stringify(out))).toBeLessThanOrEqual(256 * 1024 + 512);
    expect(out.table!.totalRows).toBe(MILLION);
    expect(out.table!.rows.length).toBeLessThanOrEqual(1000);
    expect(out.table!.truncated).toBe(true);
  });
});
