import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { SBIR_COLUMNS, SbirAwardRowSchema } from '../../../schema/sbirColumns.js';
import { COLUMNS_DOC_END, COLUMNS_DOC_START, renderColumnsTable } from '../../../src/data/columnsDoc.js';
import { DATA_ERROR_CODES } from '../../../src/data/errors.js';
import { repoRoot } from './helpers.js';

const docPath = join(repoRoot, 'docs', 'dataset.md');

describe('docs/dataset.md', () => {
  it('has the columns table generated from schema/sbirColumns.ts (UPDATE_DOCS=1 rewrites it)', () => {
    const doc = readFileSync(docPath, 'utf8');
    const start = doc.indexOf(COLUMNS_DOC_START);
    const end = doc.indexOf(COLUMNS_DOC_END);
    expect(start, `docs/dataset.md lacks the marker ${COLUMNS_DOC_START}`).toBeGreaterThanOrEqual(0);
    const expected = `${COLUMNS_DOC_START}\n${renderColumnsTable()}\n${COLUMNS_DOC_END}`;
    const actual = doc.slice(start, end + COLUMNS_DOC_END.length);
    if (actual !== expected && process.env.UPDATE_DOCS === '1') {
      writeFileSync(docPath, doc.slice(0, start) + expected + doc.slice(end + COLUMNS_DOC_END.length));
      return;
    }
    expect(
      actual,
      'the columns table is stale: run `UPDATE_DOCS=1 npx vitest run test/unit/data/datasetDoc.test.ts`',
    ).toBe(expected);
  });

  it('lists every DataError code', () => {
    const doc = readFileSync(docPath, 'utf8');
    for (const code of DATA_ERROR_CODES)
      expect(doc, `docs/dataset.md does not document ${code}`).toContain(`\`${code}\``);
  });
});

describe('schema/sbirColumns.ts', () => {
  it('describes the 42 columns of the current layout, 41 of them in the legacy one', () => {
    expect(SBIR_COLUMNS).toHaveLength(42);
    expect(SBIR_COLUMNS.filter((c) => c.layouts.includes('legacy'))).toHaveLength(41);
    expect(new Set(SBIR_COLUMNS.map((c) => c.name)).size).toBe(42);
  });

  it('gives a row schema whose JSON Schema lists every column with its meaning', () => {
    const json = z.toJSONSchema(SbirAwardRowSchema) as { properties: Record<string, { description?: string }> };
    expect(Object.keys(json.properties)).toEqual(SBIR_COLUMNS.map((c) => c.name));
    expect(json.properties['Award Amount'].description).toMatch(/US dollars/);
    expect(
      SbirAwardRowSchema.safeParse({
        ...Object.fromEntries(SBIR_COLUMNS.map((c) => [c.name, null])),
        Company: 'A',
        Agency: 'B',
        Phase: 'Phase I',
        Program: 'SBIR',
        'Award Year': 2020,
      }).success,
    ).toBe(true);
  });
});
