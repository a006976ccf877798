import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PRESET_NAMES } from '../../../schema/limits.js';
import { ViolationSchema } from '../../../schema/errors.js';
import { checkCode, collectColumnNames, RULES, type CheckResult } from '../../../src/policy/index.js';

/** Any UTF-16 string: NUL bytes, control characters, lone surrogates included. */
const anyUtf16 = fc
  .array(fc.integer({ min: 0, max: 0xffff }), { maxLength: 300 })
  .map((units) => String.fromCharCode(...units));
/** Strings made of JavaScript and Python tokens, which reach deeper into the parser than random text. */
const TOKENS = [
  'award_data',
  'd',
  '.',
  "['Award Amount']",
  '(',
  ')',
  '[',
  ']',
  '{',
  '}',
  '=>',
  ' ',
  '\n',
  ';',
  ',',
  ':',
  '=',
  '+',
  "'x'",
  '`t${',
  '}`',
  'if',
  'for',
  'in',
  'def',
  'import',
  'eval',
  'constructor',
  'this',
  'None',
  '#',
  '//',
  '/*',
  '*/',
  '\\u0065',
  'await',
  'return',
  'class',
  'function',
  '...',
  '?.',
  '"""',
];
const tokenSoup = fc.array(fc.constantFrom(...TOKENS), { maxLength: 80 }).map((t) => t.join(''));

function assertWellFormed(result: CheckResult): void {
  if (result.ok) return;
  if (result.type === 'SYNTAX_ERROR') {
    const s = result.syntaxError;
    expect(s.line).toBeGreaterThanOrEqual(1);
    expect(s.column).toBeGreaterThanOrEqual(1);
    expect(s.snippet).toContain('^');
    expect(s.message.length).toBeGreaterThan(0);
    expect(s.hint.length).toBeGreaterThan(0);
    return;
  }
  expect(result.type).toBe('POLICY_VIOLATION');
  expect(result.violations.length).toBeGreaterThan(0);
  for (const v of result.violations) {
    ViolationSchema.parse(v);
    expect(v.line).toBeGreaterThanOrEqual(1);
    expect(v.column).toBeGreaterThanOrEqual(1);
  }
}

describe('checkCode on arbitrary input', () => {
  it.each(PRESET_NAMES)('never throws and always returns a well-formed result (%s)', (preset) => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), anyUtf16, tokenSoup), (code) => assertWellFormed(checkCode(code, preset))),
      { numRuns: 400 },
    );
  });

  it('is deterministic', () => {
    fc.assert(
      fc.property(tokenSoup, (code) => {
        expect(checkCode(code)).toEqual(checkCode(code));
      }),
      { numRuns: 200 },
    );
  });

  it('only tightens: every violation found in a preset is found in the stricter ones', () => {
    const ids = (r: CheckResult) =>
      r.ok || r.type !== 'POLICY_VIOLATION' ? [] : r.violations.map((v) => `${v.rule}@${v.line}:${v.column}`);
    fc.assert(
      fc.property(tokenSoup, (code) => {
        const [p, s, t] = PRESET_NAMES.map((preset) => new Set(ids(checkCode(code, preset))));
        for (const id of p!) expect(s!.has(id)).toBe(true);
        for (const id of s!) expect(t!.has(id)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('collectColumnNames never throws either', () => {
    fc.assert(
      fc.property(fc.oneof(anyUtf16, tokenSoup), (code) => void collectColumnNames(code)),
      { numRuns: 300 },
    );
  });
});

/** Safe expressions over the table, built from parts the policy must accept. */
const safeExpr = fc.letrec<{ expr: string }>((tie) => ({
  expr: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom('award_data', 'd', 'x', '1e6', "'Phase II'", '`t`', 'null', 'aq.op.sum("Award Amount")'),
    tie('expr').map((e) => `${e}['Award Amount']`),
    tie('expr').map((e) => `${e}?.Agency`),
    tie('expr').map((e) => `(d => ${e})`),
    tie('expr').map((e) => `\`a${'${'}${e}}b\``),
    fc.tuple(tie('expr'), tie('expr')).map(([a, b]) => `(${a} + ${b})`),
    fc.tuple(tie('expr'), tie('expr')).map(([a, b]) => `${a}.filter(${b})`),
    tie('expr').map((e) => `({ module: ${e}, 'process': 1 })`),
  ),
})).expr;

describe('checkCode on generated valid code', () => {
  it('accepts safe programs in every preset', () => {
    fc.assert(
      fc.property(safeExpr, (code) => PRESET_NAMES.forEach((p) => expect(checkCode(code, p)).toEqual({ ok: true }))),
      { numRuns: 300 },
    );
  });

  const denied = RULES.flatMap((r) =>
    r.match.flatMap((m) =>
      m.on === 'identifier' && r.presets.includes('permissive') ? m.names.map((n) => [n, r.id] as const) : [],
    ),
  );
  it('flags a denylisted name wherever it is spliced into a safe program', () => {
    fc.assert(
      fc.property(safeExpr, fc.constantFrom(...denied), (code, [name, id]) => {
        const result = checkCode(code.replace(/\bx\b|$/, `(${name})`));
        expect(result.ok).toBe(false);
        if (!result.ok && result.type === 'POLICY_VIOLATION')
          expect(result.violations.map((v) => v.rule)).toContain(id);
      }),
      { numRuns: 300 },
    );
  });
});

describe('checkCode on 100 KB inputs returns (no time assertion: bounded means it comes back)', () => {
  const KB100 = 100 * 1024;
  it.each([
    ['nested parentheses', '('.repeat(KB100)],
    ['nested arrays, closed', `${'['.repeat(KB100 / 2)}${']'.repeat(KB100 / 2)}`],
    ['a long + chain', `1${'+1'.repeat(KB100 / 2)}`],
    ['an unterminated string', `'${'x'.repeat(KB100)}`],
    ['one long line of Python', `x = [${'a for a in b if '.repeat(KB100 / 17)}]`],
    ['many lines of Python', 'for x in y:\n    print(f"{x}")\n'.repeat(KB100 / 30)],
    ['many violations', 'eval(x.constructor);\n'.repeat(KB100 / 22)],
    ['NUL bytes and lone surrogates', '\u0000\uD800'.repeat(KB100 / 2)],
    ['quotes and lambdas', "lambda 'a' ".repeat(KB100 / 11)],
    ['brackets for the bracket scanner', `f(${"'('".repeat(KB100 / 3)}\nx y`],
  ])('%s', (_what, code) => {
    const result = checkCode(code);
    assertWellFormed(result);
    if (!result.ok && result.type === 'POLICY_VIOLATION') expect(result.violations.length).toBeLessThanOrEqual(100);
    expect(() => collectColumnNames(code)).not.toThrow();
  });

  it('rejects input too deep to parse as nesting-too-deep, never as a pass', () => {
    const deep = `${'['.repeat(200_000)}${']'.repeat(200_000)}`;
    const result = checkCode(deep);
    expect(result).toMatchObject({
      ok: false,
      type: 'POLICY_VIOLATION',
      violations: [{ rule: 'nesting-too-deep', line: 1 }],
    });
    expect(checkCode(`${'('.repeat(5_000)}1${')'.repeat(5_000)}`)).toMatchObject({
      violations: [{ rule: 'nesting-too-deep' }],
    });
  });
});
