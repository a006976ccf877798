// Attack: control sequences (clear screen, set the window title, a C1 CSI, a right-to-left
// override) smuggled into what the CLI prints: a session id in the capsule log, a file name, a
// table name, a column name in the data, guest stdout/stderr, a table cell and an error message.
// On a terminal (a pty made with `script`) every one is shown as an escape (`\e`, `\x07`,
// `\u202e`); into a pipe or file, guest stdout passes through as it is (`--raw` forces it raw).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { terminalSafe, jsonTerminalSafe } from '../../src/cli/terminalSafe.js';
import { record, writeLog } from '../unit/viewer/fixtures.js';
import { cli } from '../e2e/helpers/cli.js';
import { CLI, cliEnv } from '../e2e/helpers/processes.js';

const dir = mkdtempSync(join(tmpdir(), 'sbirtools-tty-'));
const TITLE = '\u001b]0;pwned\u0007';
const CLEAR = '\u001b[2J\u001b[H';
const CSI = '\u009b31m';
const RLO = '\u202e';
const HOSTILE = `${TITLE}${CLEAR}${CSI}${RLO}`;
// what reaches a terminal must not hold ESC, BEL, a C1 control or a bidi override
const RAW_CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

/** Run the CLI on a pseudo-terminal (stdout and stderr are both the pty); returns what the terminal got. */
function onTerminal(args: string[]): { status: number | null; out: string } {
  const quoted = [process.execPath, CLI, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
  const r = spawnSync('script', ['-qec', quoted, '/dev/null'], { env: cliEnv(), encoding: 'utf8', timeout: 120_000 });
  return { status: r.status, out: r.stdout.replace(/\r\n/g, '\n') };
}

const hasScript = spawnSync('script', ['--version']).status === 0;

describe('terminalSafe', () => {
  it('shows every control character as an escape and keeps printable text', () => {
    expect(terminalSafe(`a${HOSTILE}b`)).toBe('a\\e]0;pwned\\x07\\e[2J\\e[H\\x9b31m\\u202eb');
    expect(terminalSafe('tab\tand\nline')).toBe('tab\tand\nline');
    expect(terminalSafe('tab\tand\nline', true)).toBe('tab\\tand\\nline');
    expect(terminalSafe('Ünïcödé ✓ 数据')).toBe('Ünïcödé ✓ 数据');
    expect(RAW_CONTROL.test(terminalSafe(String.fromCharCode(...Array.from({ length: 0xa0 }, (_, i) => i))))).toBe(
      false,
    );
  });

  it('jsonTerminalSafe keeps the JSON value and escapes C1 and bidi controls', () => {
    const value = { s: `x${HOSTILE}\u2028y` };
    const safe = jsonTerminalSafe(JSON.stringify(value));
    expect(RAW_CONTROL.test(safe)).toBe(false);
    expect(JSON.parse(safe)).toEqual(value);
  });
});

describe.skipIf(!hasScript)('on a terminal', () => {
  it('a session id from the log is escaped in the usage error', () => {
    const log = writeLog([
      record({ session: { id: `a${HOSTILE}`, seq: 1 } }),
      record({ session: { id: 'b', seq: 1 } }),
    ]);
    const r = onTerminal(['report', log, '--session', `nope${HOSTILE}`, '-o', join(dir, 'r.html')]);
    expect(r.status).toBe(2);
    expect(r.out).toMatch(/has no session 'nope\\e\]0;pwned\\x07/);
    expect(r.out).toContain('a\\e]0;pwned'); // the log's own session, listed
    expect(RAW_CONTROL.test(r.out)).toBe(false);
    expect(existsSync(join(dir, 'r.html'))).toBe(false);
  });

  it('a file name and a table name are escaped in errors', () => {
    const a = onTerminal(['run', join(dir, `missing${CLEAR}.js`)]);
    expect(a.status).toBe(2);
    expect(a.out).toContain('missing\\e[2J\\e[H.js');
    const b = onTerminal(['run', '--table', `t${TITLE}=${join(dir, 'none.csv')}`, '--code', '1']);
    expect(b.status).not.toBe(0);
    expect(RAW_CONTROL.test(a.out + b.out)).toBe(false);
  });

  it('guest stdout, stderr, a table cell, a column name and an error message are escaped', () => {
    const code = `print(${JSON.stringify(`out${HOSTILE}`)}); console.error(${JSON.stringify(`err${HOSTILE}`)}); aq.table({ [${JSON.stringify(`col${CLEAR}`)}]: [${JSON.stringify(`cell${TITLE}`)}] })`;
    const r = onTerminal(['run', '--code', code]);
    expect(r.status).toBe(0);
    for (const seen of ['out\\e]0;pwned', 'err\\e]0;pwned', 'cell\\e]0;pwned', 'col\\e[2J'])
      expect(r.out).toContain(seen);
    const failed = onTerminal(['run', '--code', `throw new Error(${JSON.stringify(`boom${HOSTILE}`)})`]);
    expect(failed.status).toBe(1);
    expect(failed.out).toContain('boom\\e]0;pwned');
    expect(RAW_CONTROL.test(r.out + failed.out)).toBe(false);
  });

  it('the data card of a CSV whose column name and values hold a C1 CSI and a bidi override', () => {
    // the CSV reader refuses C0 controls as binary; C1 and bidi controls are valid UTF-8 text
    const csv = join(dir, 'hostile.csv');
    writeFileSync(
      csv,
      `Company,Agency,Award Year,Award Amount,${JSON.stringify(`Note${RLO}`)}\n${JSON.stringify(`Acme${CSI}2J`)},DOD,2020,5,x\n`,
    );
    const r = onTerminal(['info', '--data', csv]);
    expect(r.status).toBe(0);
    expect(r.out).toContain('Note\\u202e');
    expect(r.out).toContain('Acme\\x9b31m2J');
    expect(RAW_CONTROL.test(r.out)).toBe(false);
    const json = onTerminal(['info', '--json', '--data', csv]);
    expect(json.out).toContain('Note\\u202e');
    expect(RAW_CONTROL.test(json.out)).toBe(false);
  });

  it('--raw passes guest output through as it is', () => {
    const r = onTerminal(['run', '--raw', '--code', `print(${JSON.stringify(`raw${TITLE}`)})`]);
    expect(r.out).toContain(`raw${TITLE}`);
  });
});

describe('into a pipe', () => {
  it('guest stdout passes through unchanged; the error message on stderr is still escaped', async () => {
    const r = await cli([
      'run',
      '--code',
      `print(${JSON.stringify(`piped${TITLE}`)}); throw new Error(${JSON.stringify(`bad${CLEAR}`)})`,
    ]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(`piped${TITLE}`);
    expect(r.stderr).toContain('bad\\e[2J');
    expect(RAW_CONTROL.test(r.stderr)).toBe(false);
  });

  it('--json keeps the JSON value and escapes C1 and bidi controls', async () => {
    const r = await cli(['run', '--json', '--code', `${JSON.stringify(`v${CSI}${RLO}`)}`]);
    expect(RAW_CONTROL.test(r.stdout)).toBe(false);
    expect(JSON.parse(r.stdout).value).toBe(`v${CSI}${RLO}`);
  });
});
