// The CLI's usage errors and help (split from cli.test.ts, the suite's slowest file).
import { describe, expect, it } from 'vitest';
import { cli } from './helpers/cli.js';

describe('sbirtools usage', () => {
  it('bad usage: exit 2 with one line pointing to --help', async () => {
    const cases = [
      ['run', '--code', '1', '--bogus'],
      ['run'],
      ['run', 'a.js', '--code', '1'],
      ['run', '--code', '1', '--preset', 'huge'],
      ['run', '--code', '1', '--timeout-ms', 'ten'],
      ['run', 'missing-file.js'],
      ['frobnicate'],
      ['replay'],
    ];
    for (const args of cases) {
      const r = await cli(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr.trim().split('\n'), args.join(' ')).toHaveLength(1);
      expect(r.stderr).toMatch(/--help'\)$/m);
    }
  });

  it('--help works on every command', async () => {
    // --help starts no holder, so the commands are asked at once
    const commands = [
      ['--help'],
      ['run', '--help'],
      ['info', '--help'],
      ['mcp', '--help'],
      ['replay', '--help'],
      ['download-data', '--help'],
    ];
    const answers = await Promise.all(commands.map((args) => cli(args)));
    answers.forEach((r, n) => {
      expect(r.code, commands[n]!.join(' ')).toBe(0);
      expect(r.stdout, commands[n]!.join(' ')).toMatch(/usage/i);
    });
  });
});
