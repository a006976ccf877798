import { describe, expect, it } from 'vitest';
import { checkCode, toRunError, type CheckResult } from '../../../src/policy/index.js';

function syntax(code: string) {
  const result = checkCode(code);
  if (result.ok || result.type !== 'SYNTAX_ERROR')
    throw new Error(`expected a SYNTAX_ERROR, got ${JSON.stringify(result)}`);
  return result.syntaxError;
}

describe('syntax errors', () => {
  it('are a SYNTAX_ERROR result with 1-based line and column, a caret snippet and a hint', () => {
    expect(syntax('const a = 1;\nconst b = (2;\n')).toMatchInlineSnapshot(`
      {
        "column": 13,
        "hint": "Fix the JavaScript syntax at the caret: look for a missing comma, bracket, quote or operator just before it.",
        "line": 2,
        "message": "Unexpected token (line 2, col 13).",
        "python": false,
        "snippet": "const b = (2;
                  ^",
      }
    `);
  });

  it('count columns in UTF-16 code units and lines across \\r\\n, \\r, \\u2028', () => {
    expect(syntax('x\r\ny\rz\u2028const é = ;')).toMatchObject({ line: 4, column: 11 });
    expect(syntax('"😀"; )')).toMatchObject({ line: 1, column: 7 });
  });

  it('hint bracket access for a column name with spaces', () => {
    expect(syntax('award_data.filter(d => d.Award Amount > 1e6)').hint).toBe(
      "A column name with spaces needs brackets: write `d['Award Amount']`, not `d.Award Amount`.",
    );
    expect(syntax('award_data.filter(d => d.Proposal Award Date > 0)').hint).toContain("`d['Proposal Award Date']`");
    expect(syntax('rows.map(r => r?.Socially and Economically Disadvantaged)').hint).toContain(
      "`r?.['Socially and Economically Disadvantaged']`",
    );
    expect(syntax('const x = row.Award Amount').column).toBe(21);
  });

  it.each([
    ['TypeScript annotations', 'const total: number = 1', 'TypeScript'],
    ['TypeScript interface', 'interface Row { a: string }', 'TypeScript'],
    ['an unterminated string', "print('abc)", 'Close the string'],
    ['an unterminated template', 'print(`abc', 'backtick'],
    ['code that ends early', 'award_data.filter(d => {', 'ends early'],
    ['curly quotes', 'print(\u201Chello\u201D)', 'straight quotes'],
    ['a redeclared const', 'const a = 1; const a = 2', 'Declare each name once'],
    ['await in a plain function', 'function f() { await g() }', '`async`'],
    ['await in a plain callback', 'rows.forEach(d => { await save(d) })', '`async`'],
    [
      'a bracket left open on an earlier line',
      "const top = award_data.filter(d => d['Award Amount'] > 1e6\nprint(top)",
      'The `(` opened at line 1, col 30 is never closed: close it before line 2.',
    ],
    ['an escaped keyword', '\\u0069f (x) {}', 'without escape sequences'],
  ])('hint %s', (_what, code, hint) => {
    expect(syntax(code).hint).toContain(hint);
  });

  it('reject a Markdown fence even when its backticks happen to parse as tagged templates', () => {
    for (const code of ['```js\nprint(1)\n```', '```\nprint(1)\n```', '\n  ```javascript\nx\n```']) {
      expect(syntax(code).hint, code).toContain('without the Markdown fence');
    }
    expect(syntax('\n  ```javascript\nx\n```')).toMatchObject({ line: 2, column: 3 });
  });
});

describe('toRunError', () => {
  it('maps a syntax error to SYNTAX_ERROR with its location', () => {
    const checked = checkCode('x = (') as Exclude<CheckResult, { ok: true }>;
    expect(toRunError(checked)).toMatchObject({ type: 'SYNTAX_ERROR', line: 1, column: 6, snippet: 'x = (\n     ^' });
  });

  it('maps violations to POLICY_VIOLATION led by the first one, listing them all', () => {
    const checked = checkCode("const fs = require('fs')\neval(fs)") as Exclude<CheckResult, { ok: true }>;
    const error = toRunError(checked);
    expect(error.type).toBe('POLICY_VIOLATION');
    expect(error.message).toMatch(
      /^`fs` may not be used as a variable name \(line 1, col 7\)\. .* \(3 more violations in `violations`\)$/,
    );
    expect(error.violations?.map((v) => v.rule)).toEqual(['no-io', 'no-module-globals', 'no-dynamic-code', 'no-io']);
  });
});
