import { randomUUID } from 'node:crypto';
import type { PresetName } from '../../schema/limits.js';
import type { RunResult } from '../../schema/result.js';
import type { RunOptions, Sandbox } from '../runtime/sandbox.js';
import { appendCapsule } from './capsuleLog.js';
import { capsuleRecordFor } from './capsuleRecordFor.js';
import { freshDeterminism } from './determinism.js';

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
}

/**
 * Wrap a sandbox or a run function so every run is appended to a capsule log (audit + replay),
 * and, with `deterministic: true`, gets a frozen clock and a seeded Math.random.
 * A run's own `deterministic` option wins over a fresh one.
 * @throws {Error} from the returned function when the log cannot be written.
 * @example
 * await using box = await createSandbox();
 * const runLogged = withCapsules(box, { path: 'runs.jsonl', deterministic: true });
 * await runLogged('award_data.numRows()');
 */
export function withCapsules(target: Sandbox | RunFn, options: CapsuleOptions): RunFn {
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
      await appendCapsule(options.path, capsuleRecordFor(code, result, { time, ...(session ? { session } : {}), ...(preset ? { preset } : {}), ...(deterministic ? { deterministic } : {}) }));
    }
    return result;
  };
}
