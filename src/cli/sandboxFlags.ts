import type { SandboxOptions } from '../sandbox/options.js';
import { ENGINE_CHOICES } from '../../schema/engine.js';
import { intFlag, presetFlag, UsageError } from './args.js';

/** Flags every command that opens a sandbox accepts. */
export const SANDBOX_FLAGS = {
  preset: { type: 'string' },
  'timeout-ms': { type: 'string' },
  'memory-mb': { type: 'string' },
  data: { type: 'string' },
  table: { type: 'string', multiple: true },
  'max-file-bytes': { type: 'string' },
  'table-file-max-mb': { type: 'string' },
  'table-inflate-max-mb': { type: 'string' },
  engine: { type: 'string' },
} as const;

const ENGINES = ENGINE_CHOICES;

/** Their lines of --help. */
export const SANDBOX_FLAGS_HELP = `  --preset <name>       limit preset: permissive, standard (default) or strict
  --timeout-ms <ms>     wall-clock limit of one run, in milliseconds
  --memory-mb <MiB>     heap limit of the isolate, in MiB (at least 16; with --table, a
                        quarter of host memory by default, or $SBIRTOOLS_TABLE_MEMORY_MB)
  --data <csv>          use this SBIR CSV as award_data (default: $SBIRTOOLS_CSV_PATH,
                        the downloaded file, or the synthetic sample)
  --table <name=file>   add a table (repeatable): a CSV, Parquet, Arrow, JSON or NDJSON
                        file or an http(s) URL, exposed to the code as <name>
  --max-file-bytes <n>  cap on the bytes of files one run saves (to_csv, to_parquet...)
  --table-file-max-mb <MiB>    largest --table file (Parquet, Arrow, JSON); default
                        max(512, host memory / 8), or $SBIRTOOLS_TABLE_FILE_MAX_MB
  --table-inflate-max-mb <MiB> most bytes a --table file's pages inflate to; default
                        max(2048, host memory / 2), or $SBIRTOOLS_TABLE_INFLATE_MAX_MB
  --engine <name>       auto (default: isolated-vm when it loads, else quickjs),
                        isolated-vm (V8, native) or quickjs (WASM; Bun, Deno, no addons)`;

/**
 * Sandbox options from the parsed flags.
 * @throws {UsageError} for a bad preset or a non-numeric limit.
 */
export function sandboxOptionsFrom(
  command: string,
  values: Record<string, string | boolean | undefined>,
): Omit<SandboxOptions, 'pool' | 'deterministic'> {
  const preset = presetFlag(command, values.preset);
  const timeoutMs = intFlag(command, 'timeout-ms', values['timeout-ms'], 'milliseconds');
  const memoryLimitMb = intFlag(command, 'memory-mb', values['memory-mb'], 'MiB');
  const dataPath = values.data === undefined ? undefined : String(values.data);
  const maxFileBytes = intFlag(command, 'max-file-bytes', values['max-file-bytes'] as string | undefined, 'bytes');
  const tables = tableFlags(command, (values as Record<string, unknown>).table);
  const tableFileMaxMb = intFlag(
    command,
    'table-file-max-mb',
    values['table-file-max-mb'] as string | undefined,
    'MiB',
  );
  const tableInflateMaxMb = intFlag(
    command,
    'table-inflate-max-mb',
    values['table-inflate-max-mb'] as string | undefined,
    'MiB',
  );
  const engine = values.engine === undefined ? undefined : String(values.engine);
  if (engine !== undefined && !(ENGINES as readonly string[]).includes(engine)) {
    throw new UsageError(command, `--engine must be one of ${ENGINES.join(', ')}, got '${engine}'`);
  }
  return {
    ...(tables ? { tables } : {}),
    ...(maxFileBytes !== undefined ? { maxFileBytes } : {}),
    ...(tableFileMaxMb !== undefined ? { tableFileMaxMb } : {}),
    ...(tableInflateMaxMb !== undefined ? { tableInflateMaxMb } : {}),
    ...(engine ? { engine: engine as (typeof ENGINES)[number] } : {}),
    ...(preset ? { preset } : {}),
    ...(timeoutMs !== undefined ? { timeoutMs } : {}),
    ...(memoryLimitMb !== undefined ? { memoryLimitMb } : {}),
    ...(dataPath !== undefined ? { dataPath } : {}),
  };
}

/**
 * `--table name=file` flags as the `tables` option (names are checked by the library).
 * @throws {UsageError} for a flag without `=`, or a name given twice.
 */
export function tableFlags(command: string, value: unknown): Record<string, string> | undefined {
  if (value === undefined) return undefined;
  const out: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const item of Array.isArray(value) ? value : [value]) {
    const text = String(item);
    const eq = text.indexOf('=');
    if (eq <= 0 || eq === text.length - 1)
      throw new UsageError(
        command,
        `--table expects name=file (e.g. --table portfolio=portfolio.parquet), got '${text}'`,
      );
    const name = text.slice(0, eq);
    if (name in out) throw new UsageError(command, `--table ${name} is given twice`);
    out[name] = text.slice(eq + 1);
  }
  return { ...out };
}
