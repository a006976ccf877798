import { parseArgs, type ParseArgsConfig } from 'node:util';
import { PRESET_NAMES, type PresetName } from '../../schema/limits.js';
import { terminalSafe } from './terminalSafe.js';
import { SbirtoolsError } from '../core/errors.js';

/** Streams and environment of one CLI invocation (process.* in production, fakes in tests). */
export interface CliIo {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  stdin: NodeJS.ReadableStream;
  env: NodeJS.ProcessEnv;
  /** stderr is a terminal (progress bars go there). */
  isTTY: boolean;
  /** stdout is a terminal: guest output written there is escaped unless `--raw`. @default false (a pipe or file) */
  stdoutIsTTY?: boolean;
}

/** Bad usage: the CLI prints `sbirtools <command>: <message> (see 'sbirtools <command> --help')` and exits 2. */
export class UsageError extends SbirtoolsError {
  constructor(
    readonly command: string,
    message: string,
  ) {
    super('USAGE_ERROR', message);
    this.name = 'UsageError';
  }

  /** The one line printed on stderr (control characters from names and paths in it shown as escapes). */
  line(): string {
    const cmd = this.command ? `sbirtools ${terminalSafe(this.command, true)}` : 'sbirtools';
    return `${cmd}: ${terminalSafe(this.message, true)} (see '${cmd} --help')`;
  }
}

type Options = NonNullable<ParseArgsConfig['options']>;

/**
 * parseArgs in strict mode with `--help`/`-h` added; its errors become UsageErrors that name the flag.
 * @throws {UsageError}
 */
export function parseCommandArgs(
  command: string,
  argv: string[],
  options: Options,
): { values: Record<string, string | boolean | undefined>; positionals: string[] } {
  try {
    return parseArgs({
      args: argv,
      options: { ...options, help: { type: 'boolean', short: 'h' } },
      allowPositionals: true,
      strict: true,
    }) as { values: Record<string, string | boolean | undefined>; positionals: string[] };
  } catch (err) {
    const e = err as { code?: string; message: string };
    const flag = /'(-[^' ]+)/.exec(e.message)?.[1];
    if (e.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION')
      throw new UsageError(command, `unknown option '${flag ?? e.message}'`);
    if (e.code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
      throw new UsageError(
        command,
        flag && options[flag.replace(/^-+/, '')]?.type === 'boolean'
          ? `option '${flag}' takes no value`
          : `option '${flag ?? '?'}' needs a value`,
      );
    }
    if (e.code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL')
      throw new UsageError(command, `unexpected argument: ${e.message}`);
    throw new UsageError(command, e.message);
  }
}

/**
 * A positive integer flag value, or undefined when absent.
 * @throws {UsageError} for anything else, echoing the bad value.
 */
export function intFlag(
  command: string,
  flag: string,
  value: string | boolean | undefined,
  unit: string,
): number | undefined {
  if (value === undefined) return undefined;
  const text = String(value);
  if (!/^[1-9][0-9]*$/.test(text) || !Number.isSafeInteger(Number(text))) {
    throw new UsageError(command, `--${flag} expects a positive whole number of ${unit}, got '${text}'`);
  }
  return Number(text);
}

/** @throws {UsageError} for a name that is not a preset. */
export function presetFlag(command: string, value: string | boolean | undefined): PresetName | undefined {
  if (value === undefined) return undefined;
  if (!(PRESET_NAMES as readonly string[]).includes(String(value))) {
    throw new UsageError(command, `--preset must be one of ${PRESET_NAMES.join(', ')}, got '${String(value)}'`);
  }
  return value as PresetName;
}

/** Read a whole readable stream as UTF-8. */
export async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}
