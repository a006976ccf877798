// Bad input: the code itself: not a string, empty, 10 MB, NUL bytes, lone surrogates, BOMs,
// control characters. Each gets a typed answer (a thrown VALIDATION_ERROR for a non-string, the
// caller's bug; a SYNTAX_ERROR or POLICY_VIOLATION result; or the plain value) and the session
// keeps working.
import { describe, expect, it } from 'vitest';
import { createSandbox, SbirtoolsValidationError } from '../../src/index.js';
import { expectHealthy } from './helpers.js';
import { expectNoHang } from '../helpers/hangGuard.js';

const MB = 1024 * 1024;

describe('bad code', () => {
  it('code that is not a string: VALIDATION_ERROR naming its type', async () => {
    await using box = await createSandbox();
    for (const [code, type] of [
      [5, 'number'],
      [null, 'null'],
      [undefined, 'undefined'],
      [{ toString: () => '1' }, 'object'],
      [new String('1'), 'object'],
    ] as const) {
      const err = await box.run(code as never).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(SbirtoolsValidationError);
      expect((err as Error).message).toContain(`got \`${type}\``);
    }
    expect((await box.run('1 + 1')).value).toBe(2);
  });

  it('empty and whitespace-only code: ok, no value', async () => {
    await using box = await createSandbox();
    for (const code of ['', '   \n\t ', '\uFEFF', '// only a comment']) {
      const r = await box.run(code);
      expect(r.ok, JSON.stringify(code)).toBe(true);
      expect(r.value).toBeUndefined();
    }
  });

  it('a BOM in front is an editor artefact: ignored', async () => {
    await using box = await createSandbox();
    expect((await box.run('\uFEFF1 + 1')).value).toBe(2);
    expect((await box.run('\uFEFF\uFEFF7')).value).toBe(7);
  });

  it('NUL bytes, control characters and lone surrogates outside strings: SYNTAX_ERROR with a position', async () => {
    await using box = await createSandbox();
    for (const code of ['1\u0000+1', '\u0001', '\uD800', 'x\uDC00 = 1']) {
      const r = await box.run(code);
      expect(r.error?.type, JSON.stringify(code)).toBe('SYNTAX_ERROR');
      expect(r.error?.line).toBe(1);
      expect(r.error?.column).toBeGreaterThanOrEqual(1);
    }
  });

  it('NUL bytes and lone surrogates inside strings are data and come back intact', async () => {
    await using box = await createSandbox();
    expect((await box.run("'a\u0000b'")).value).toBe('a\u0000b');
    expect((await box.run("'\uD800' + 'x'")).value).toBe('\uD800x');
  });

  it('10 MB of code over the default limit: POLICY_VIOLATION max-code-bytes, decided without parsing', async () => {
    await using box = await createSandbox();
    const r = await box.run('x'.repeat(10 * MB));
    expect(r.error?.type).toBe('POLICY_VIOLATION');
    expect(r.error?.violations?.[0]?.rule).toBe('max-code-bytes');
  });

  it('10 MB of code under a 10 MB maxCodeBytes: a string literal and a comment run; one byte over is refused', async () => {
    await using box = await createSandbox({ maxCodeBytes: 10 * MB, timeoutMs: 10_000 });
    expect((await box.run("'" + 'x'.repeat(10 * MB - 20) + "'.length")).value).toBe(10 * MB - 20);
    expect((await box.run('//' + 'x'.repeat(10 * MB - 20) + '\n7')).value).toBe(7);
    expect((await box.run('x'.repeat(10 * MB + 1))).error?.type).toBe('POLICY_VIOLATION');
    await expectHealthy(box);
  });

  it('line and paragraph separators, CRLF and CR line ends parse', async () => {
    await using box = await createSandbox();
    expect((await box.run('1\u2028+2')).value).toBe(3);
    expect((await box.run('1\r\n+2\r+3')).value).toBe(6);
  });

  // The policy check and the notebook transform share one parse, done where the session lives and
  // inside the deadline; a large program is parsed in a worker thread that the deadline cuts off
  // (src/runtime/prepare/codeChecker.ts). test/security/huge-program-parse.test.ts has the details.
  it('a maximal program is checked off the host thread and ends within its deadline + 1 s', async () => {
    await using box = await createSandbox({ maxCodeBytes: 4 * MB, timeoutMs: 1500 });
    const t0 = performance.now();
    await box.run('1;\n'.repeat(Math.floor((4 * MB) / 3) - 10));
    expectNoHang(performance.now() - t0, 1500, 'the check of a maximal program');
  });
});
