import { randomUUID } from 'node:crypto';
import type { PresetName } from '../../schema/limits.js';
import type { RunResult } from '../../schema/result.js';
import type { RunOptions, Sandbox } from '../sandbox/sandbox.js';
import { appendCapsule } from './capsuleLog.js';
import { capsuleRecordFor } from './capsuleRecordFor.js';
import { freshDeterminism } from './determinism.js';
import { DEFAULT_OUTPUTS_MAX_BYTES, recordOutputs } from './recordOutputs.js';
import { SbirtoolsValidationError } from '../core/errors.js';

/** Anything that runs code: `sandbox.run`, `pool.run`, or `(code, o) => run(code, { ...opts, ...o })`. */
export type RunFn = (code: string, options?: RunOptions) => Promise<RunResult>;

/** Options of withCapsules(). */
export interface CapsuleOptions {
  /** JSONL file the records are appended to. */
  path?: string;
  /** Give each run a fresh `{ now: Date.now(), seed }` (recorded) so it can be replayed exactly. @default false */
  deterministic?: boolean;
  /** Session id written in the records. @default a random id for a Sandbox; none for a function */
  session?: string;
  /** Preset the target was created with, recorded so a replay applies the same policy rules. */
  preset?: PresetName;
  /**
   * Also keep what came out (stdout, value, tables, charts with their SVG, the error) in each
   * record, for `sbirtools view` and `sbirtools report`. Off by default: outputs can be large and
   * may hold data you do not want in an audit log. @default false
   */
  outputs?: boolean;
  /** Byte cap of one record's outputs (JSON); larger outputs are cut with an explicit marker. @default 262144 (256 KiB) */
  outputsMaxBytes?: number;
}

/**
 * Wrap a sandbox or a run function so every run is appended to a capsule log (audit + replay),
 * and, with `deterministic: true`, gets a frozen clock and a seeded Math.random.
 * A run's own `deterministic` option wins over a fresh one.
 * @throws {SbirtoolsValidationError} for an `outputsMaxBytes` that is not a whole number >= 1024.
 * @throws {Error} from the returned function when the log cannot be written.
 * @example
 * await using box = await createSandbox();
 * const runLogged = withCapsules(box, { path: 'runs.jsonl', deterministic: true, outputs: true });
 * await runLogged('award_data.numRows()');
 */
export function withCapsules(target: Sandbox | RunFn, options: CapsuleOptions): RunFn {
  const maxBytes = options.outputsMaxBytes ?? DEFAULT_OUTPUTS_MAX_BYTES;
  if (!Number.isSafeInteger(maxBytes) || maxBytes < 1024) {
    throw new SbirtoolsValidationError(
      `Expected the \`outputsMaxBytes\` option to be a whole number of bytes, at least 1024, got \`${String(options.outputsMaxBytes)}\``,
    );
  }
  const isSandbox = typeof target !== 'function';
  const runFn: RunFn = isSandbox ? (code, o) => target.run(code, o) : target;
  const sessionId = options.session ?? (isSandbox ? randomUUID() : undefined);
  const preset = options.preset ?? (isSandbox ? target.preset : undefined);
  let seq = 0;
  return async (code, runOptions = {}) => {
    const deterministic = runOptions.deterministic ?? (options.deterministic ? freshDeterminism() : undefined);
    const time = new Date().toISOString();
    const position = ++seq;
    const result = await runFn(code, { ...runOptions, ...(deterministic ? { deterministic } : {}) });
    if (options.path) {
      const session = sessionId !== undefined ? { id: sessionId, seq: position } : undefined;
      const record = capsuleRecordFor(code, result, {
        time,
        ...(session ? { session } : {}),
        ...(preset ? { preset } : {}),
        ...(deterministic ? { deterministic } : {}),
      });
      if (options.outputs) record.outputs = await recordOutputs(result, maxBytes);
      await appendCapsule(options.path, record);
    }
    return result;
  };
}
