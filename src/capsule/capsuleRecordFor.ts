import type { PresetName } from '../../schema/limits.js';
import type { RunResult } from '../../schema/result.js';
import type { CapsuleRecord, Determinism } from './capsuleRecord.js';
import { sha256, valueHash } from './hash.js';
import { packageInfo, preludeVersion } from './packageInfo.js';

/** Where a run happened, for its capsule record. */
export interface CapsuleContext {
  /** When the run started, ISO-8601. */
  time: string;
  session?: { id: string; seq: number };
  preset?: PresetName;
  deterministic?: Determinism;
  /** Id of the API key that ran it (servers only). */
  key?: string;
}

/**
 * The capsule record of one finished run (what withCapsules() and `sbirtools serve` append).
 * @example appendCapsule('runs.jsonl', capsuleRecordFor(code, result, { time: new Date().toISOString() }))
 */
export function capsuleRecordFor(code: string, result: RunResult, ctx: CapsuleContext): CapsuleRecord {
  return {
    v: 1,
    time: ctx.time,
    code,
    codeHash: sha256(code),
    ...(ctx.session ? { session: ctx.session } : {}),
    ...(ctx.preset ? { preset: ctx.preset } : {}),
    ...(ctx.key ? { key: ctx.key } : {}),
    dataset: result.dataset ?? null,
    prelude: preludeVersion(),
    sbirtools: packageInfo().version,
    limits: result.limits,
    deterministic: ctx.deterministic ?? null,
    result: {
      ok: result.ok,
      ...(result.error ? { errorType: result.error.type } : {}),
      stdoutHash: sha256(result.stdout),
      valueHash: valueHash(result),
    },
    stats: result.stats,
  };
}
