import { describe, expect, it } from 'vitest';
import { budgetedText, resultText } from '../../../src/adapters/resultText.js';
import { toToolOutput } from '../../../src/adapters/toolOutput.js';
import { capStructured } from '../../../src/mcp/capStructured.js';
import { RunAnalysisOutputSchema } from '../../../src/mcp/outputSchema.js';
import { budgetParts, DEFAULT_MAX_RESULT_CHARS, resolveMaxChars } from '../../../src/result/textBudget.js';
import { fakeResult } from '../adapters/fixtures.js';

/** A table result of `n` rows and 4 columns, its markdown rendered as the runtime would. */
function bigTable(n: number, cell = (i: number, c: number) => (c === 0 ? `Agency ${i}` : i * c)) {
  const columns = ['Agency', 'a', 'b', 'c'];
  const rows = Array.from({ length: n }, (_, i) => columns.map((_, c) => cell(i, c)));
  const markdown = [
    '| Agency | a | b | c |',
    '| --- | ---: | ---: | ---: |',
    ...rows.map((r) => `| ${r.join(' | ')} |`),
  ].join('\n');
  return {
    columns,
    dtypes: ['string', 'integer', 'integer', 'integer'],
    rows,
    totalRows: n,
    truncated: false,
    markdown,
  };
}

describe('the result text budget', () => {
  it('leaves a result that fits whole', () => {
    const r = fakeResult({ stdout: 'hi\n', table: bigTable(3) });
    expect(budgetParts(r).cuts).toEqual([]);
    expect(resultText(r)).toBe(`stdout:\nhi\n\nresult:\n${bigTable(3).markdown}`);
  });

  it('cuts a large table to its shape, first rows and how to page, within the default budget', () => {
    const r = fakeResult({ table: bigTable(20_000) });
    expect(r.table!.markdown.length).toBeGreaterThan(10 * DEFAULT_MAX_RESULT_CHARS);
    const { text, cuts } = budgetedText(r);
    expect(text.length).toBeLessThanOrEqual(DEFAULT_MAX_RESULT_CHARS + 1000);
    expect(text).toContain('table: 20,000 rows × 4 columns: Agency (string), a (integer), b (integer), c (integer)');
    expect(text).toContain('| Agency 0 | 0 | 0 | 0 |');
    expect(text).toMatch(/Rows 1–(\d+) of 20,000 shown\. Next rows: call run_analysis again with row_offset: \1/);
    expect(cuts.join(' ')).toMatch(/A table was cut to rows 1–\d+ of 20,000/);
    expect(text).toMatch(/note: A table was cut/);
  });

  it('pages with rowOffset', () => {
    const text = resultText(fakeResult({ table: bigTable(20_000) }), { rowOffset: 500, maxChars: 4000 });
    expect(text).toContain('| Agency 500 | 500 | 1000 | 1500 |');
    expect(text).not.toContain('| Agency 499 |');
    expect(text).toMatch(/Rows 501–\d+ of 20,000 shown/);
    expect(text.length).toBeLessThanOrEqual(5000);
  });

  it('honors a smaller and a larger budget', () => {
    const r = fakeResult({ table: bigTable(20_000) });
    const small = resultText(r, { maxChars: 2000 });
    const large = resultText(r, { maxChars: 100_000 });
    expect(small.length).toBeLessThanOrEqual(3000);
    expect(large.length).toBeGreaterThan(50_000);
    expect(large.length).toBeLessThanOrEqual(101_000);
  });

  it('cuts long cells with a note, keeping the structured value whole', () => {
    const r = fakeResult({ table: bigTable(400, (i, c) => (c === 0 ? 'x'.repeat(5000) : i)) });
    const { text, cuts } = budgetedText(r);
    expect(text).toContain('… [+4800 chars]');
    expect(cuts.join(' ')).toMatch(/Cells over 200 characters were cut/);
  });

  it('keeps the head and tail of long stdout and says what was cut', () => {
    const stdout = Array.from({ length: 5000 }, (_, i) => `line ${i}`).join('\n');
    const text = resultText(fakeResult({ stdout, value: 1, valueText: '1' }), { maxChars: 3000 });
    expect(text).toContain('line 0\n');
    expect(text).toContain('line 4999');
    expect(text).toMatch(/characters of stdout cut/);
    expect(text).toMatch(/note: [\d,]+ of [\d,]+ characters of stdout were cut from the middle/);
    expect(text).toContain('result:\n1');
    expect(text.length).toBeLessThanOrEqual(4000);
  });

  it("applies the same budget to the adapters' tool output", () => {
    const out = toToolOutput(fakeResult({ stdout: 'x'.repeat(50_000), table: bigTable(20_000) }));
    expect(JSON.stringify(out).length).toBeLessThanOrEqual(DEFAULT_MAX_RESULT_CHARS + 2000);
    expect(out.markdown).toMatch(/table: 20,000 rows × 4 columns/);
    expect(out.notes!.join(' ')).toMatch(/stdout were cut/);
    expect(toToolOutput(fakeResult({ value: { a: [1, 2] } }))).toEqual({ ok: true, value: { a: [1, 2] } });
  });

  it('rejects budgets outside 1000..200000 with a message naming the setting', () => {
    expect(resolveMaxChars(undefined)).toBe(16_000);
    expect(resolveMaxChars('5000')).toBe(5000);
    expect(() => resolveMaxChars(10)).toThrow(
      /Expected `maxResultChars` to be an integer from 1000 to 200000 \(characters of result text\), got `10`/,
    );
    expect(() => resolveMaxChars('lots', 'SBIRTOOLS_MAX_RESULT_CHARS')).toThrow(
      /`SBIRTOOLS_MAX_RESULT_CHARS`.*got `lots`/,
    );
  });
});

describe('the structured result cap', () => {
  it('drops rows from the end, keeps the shape, lists the cut, and still matches the output schema', () => {
    const r = fakeResult({ table: bigTable(20_000), stdout: 'ok\n' });
    const capped = capStructured(r, 100_000);
    expect(JSON.stringify(capped).length).toBeLessThanOrEqual(100_000);
    expect(capped.table!.totalRows).toBe(20_000);
    expect(capped.table!.rows.length).toBeGreaterThan(0);
    expect(capped.table!.rows.length).toBeLessThan(20_000);
    expect(capped.table!.truncated).toBe(true);
    expect(capped.cut!.join(' ')).toMatch(/The returned table: \d+ of 20000 rows kept/);
    expect(RunAnalysisOutputSchema.safeParse(capped).success).toBe(true);
    expect(capStructured(fakeResult({ value: 1 }), 100_000)).toEqual(fakeResult({ value: 1 }));
  });

  it('cuts a huge value and stdout when there is no table', () => {
    const capped = capStructured(
      fakeResult({ value: 'v'.repeat(300_000), valueText: 'v'.repeat(300_000), stdout: 's'.repeat(300_000) }),
      50_000,
    );
    expect(JSON.stringify(capped).length).toBeLessThanOrEqual(50_000);
    expect(capped.value).toBeUndefined();
    expect(capped.cut!.length).toBeGreaterThanOrEqual(2);
  });
});
