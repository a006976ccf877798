import { describe, expect, it } from 'vitest';
import { resultText } from '../../../src/adapters/resultText.js';
import { toToolOutput } from '../../../src/adapters/toolOutput.js';
import { fakeResult, TABLE } from './fixtures.js';

const synthetic = {
  name: 'award_data',
  synthetic: true,
  source: 'embedded-synthetic-sample',
  identity: 'sha256:x',
  rows: 500,
};

describe('toToolOutput', () => {
  it('keeps what a model reads and drops stats and limits', () => {
    expect(toToolOutput(fakeResult({ stdout: 'hi\n', value: 42, valueText: '42' }))).toEqual({
      ok: true,
      stdout: 'hi\n',
      value: '42',
    });
    expect(toToolOutput(fakeResult({ table: TABLE, value: [{ Agency: 'DOD' }] }))).toEqual({
      ok: true,
      markdown: TABLE.markdown,
    });
  });

  it('carries the error with its hint and warns about synthetic data', () => {
    const out = toToolOutput(
      fakeResult({
        ok: false,
        dataset: synthetic,
        error: {
          type: 'RUNTIME_ERROR',
          message: 'TypeError: x is not a function (line 2)',
          line: 2,
          snippet: 'x()\n^',
          hint: 'Check the name.',
        },
      }),
    );
    expect(out).toMatchObject({
      ok: false,
      error: { type: 'RUNTIME_ERROR', line: 2, hint: 'Check the name.', snippet: 'x()\n^' },
    });
    expect(out.notes?.[0]).toMatch(/SYNTHETIC sample \(500 made-up rows\)/);
  });
});

describe('resultText', () => {
  it('renders stdout, the table and the error for a model', () => {
    expect(resultText(fakeResult({ stdout: 'n=3\n', table: TABLE }))).toBe(
      `stdout:\nn=3\n\nresult:\n${TABLE.markdown}`,
    );
    const text = resultText(
      fakeResult({
        ok: false,
        error: { type: 'TIMEOUT', message: 'The run took over 30000 ms.', hint: 'Filter first.' },
      }),
    );
    expect(text).toBe('error: TIMEOUT: The run took over 30000 ms.\nhint: Filter first.');
  });

  it('lists every policy violation', () => {
    const v = (line: number) => ({ rule: 'r', message: `bad ${line}`, line, column: 1, snippet: '', hint: 'h' });
    const text = resultText(
      fakeResult({
        ok: false,
        error: { type: 'POLICY_VIOLATION', message: 'bad 1 (and 1 more)', violations: [v(1), v(2)], hint: 'h' },
      }),
    );
    expect(text).toContain('  - line 2, col 1: bad 2 (h)');
  });
});
