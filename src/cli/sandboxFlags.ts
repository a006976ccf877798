import type { SandboxOptions } from '../index.js';
import { intFlag, presetFlag, UsageError } from './args.js';

/** Flags every command that opens a sandbox accepts. */
export const SANDBOX_FLAGS = {
  preset: { type: 'string' },
  'timeout-ms': { type: 'string' },
  'memory-mb': { type: 'string' },
  data: { type: 'string' },
  engine: { type: 'string' },
} as const;

const ENGINES = ['auto', 'isolated-vm', 'quickjs'] as const;

/** Their lines of --help. */
export const SANDBOX_FLAGS_HELP = `  --preset <name>       limit preset: permissive, standard (default) or strict
  --timeout-ms <ms>     wall-clock limit of one run, in milliseconds
  --memory-mb <MiB>     heap limit of the isolate, in MiB (at least 16)
  --data <csv>          use this SBIR CSV as award_data (default: $SBIRTOOLS_CSV_PATH,
                        the downloaded file, or the synthetic sample)
  --engine <name>       auto (default: isolated-vm when it loads, else quickjs),
                        isolated-vm (V8, native) or quickjs (WASM; Bun, Deno, no addons)`;

/**
 * Sandbox options from the parsed flags.
 * @throws {UsageError} for a bad preset or a non-numeric limit.
 */
export function sandboxOptionsFrom(command: string, values: Record<string, string | boolean | undefined>): Omit<SandboxOptions, 'pool' | 'deterministic'> {
  const preset = presetFlag(command, values.preset);
  const timeoutMs = intFlag(command, 'timeout-ms', values['timeout-ms'], 'milliseconds');
  const memoryLimitMb = intFlag(command, 'memory-mb', values['memory-mb'], 'MiB');
  const dataPath = values.data === undefined ? undefined : String(values.data);
  const engine = values.engine === undefined ? undefined : String(values.engine);
  if (engine !== undefined && !(ENGINES as readonly string[]).includes(engine)) {
    throw new UsageError(command, `--engine must be one of ${ENGINES.join(', ')}, got '${engine}'`);
  }
  return {
    ...(engine ? { engine: engine as (typeof ENGINES)[number] } : {}),
    ...(preset ? { preset } : {}),
    ...(timeoutMs !== undefined ? { timeoutMs } : {}),
    ...(memoryLimitMb !== undefined ? { memoryLimitMb } : {}),
    ...(dataPath !== undefined ? { dataPath } : {}),
  };
}
