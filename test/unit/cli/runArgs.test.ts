import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/cli/args.js';
import { parseRunArgs } from '../../../src/cli/run.js';

function usage(argv: string[]): string {
  try {
    parseRunArgs(argv);
  } catch (err) {
    expect(err).toBeInstanceOf(UsageError);
    return (err as UsageError).line();
  }
  throw new Error(`expected a UsageError for ${JSON.stringify(argv)}`);
}

describe('parseRunArgs', () => {
  it('reads --code and the sandbox flags', () => {
    expect(
      parseRunArgs([
        '--code',
        '6*7',
        '--preset',
        'strict',
        '--timeout-ms',
        '5000',
        '--memory-mb',
        '128',
        '--data',
        'a.csv',
        '--json',
      ]),
    ).toEqual({
      help: false,
      code: '6*7',
      json: true,
      force: false,
      raw: false,
      capsuleOutputs: false,
      deterministic: false,
      sandbox: { preset: 'strict', timeoutMs: 5000, memoryLimitMb: 128, dataPath: 'a.csv' },
    });
  });

  it('reads --engine', () => {
    expect(parseRunArgs(['--code', '1', '--engine', 'quickjs']).sandbox).toEqual({ engine: 'quickjs' });
  });

  it('reads a file, stdin and the capsule flags', () => {
    expect(parseRunArgs(['a.js'])).toMatchObject({ file: 'a.js', json: false });
    expect(parseRunArgs(['-'])).toMatchObject({ file: '-' });
    expect(parseRunArgs(['a.js', '--capsule-log', 'c.jsonl', '--deterministic', '--svg', 'x.svg'])).toMatchObject({
      capsuleLog: 'c.jsonl',
      deterministic: true,
      svg: 'x.svg',
    });
  });

  it('accepts --help without code', () => {
    expect(parseRunArgs(['--help']).help).toBe(true);
    expect(parseRunArgs(['-h']).help).toBe(true);
  });

  it('rejects bad usage with one line that points to --help', () => {
    const cases: Array<[string[], RegExp]> = [
      [['--code', '1', '--frobnicate'], /unknown option '--frobnicate'/],
      [[], /missing code/],
      [['a.js', '--code', '1'], /either a file \('a\.js'\) or --code, not both/],
      [['a.js', 'b.js'], /expected one file, got 2/],
      [['--code', '1', '--preset', 'lax'], /--preset must be one of permissive, standard, strict, got 'lax'/],
      [
        ['--code', '1', '--timeout-ms', 'soon'],
        /--timeout-ms expects a positive whole number of milliseconds, got 'soon'/,
      ],
      [['--code', '1', '--timeout-ms', '0'], /got '0'/],
      [['--code', '1', '--memory-mb', '1.5'], /--memory-mb expects a positive whole number of MiB, got '1.5'/],
      [['--code', '1', '--engine', 'v8'], /--engine must be one of auto, isolated-vm, quickjs, got 'v8'/],
      [['--code'], /option '--code' needs a value/],
      [['--code', '1', '--json=yes'], /option '--json' takes no value/],
    ];
    for (const [argv, message] of cases) {
      const line = usage(argv);
      expect(line).toMatch(message);
      expect(line).toMatch(/^sbirtools run: .*\(see 'sbirtools run --help'\)$/);
      expect(line).not.toContain('\n');
    }
  });
});
