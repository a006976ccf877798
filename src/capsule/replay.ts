import { existsSync } from 'node:fs';
import type { RunResult } from '../../schema/result.js';
import { createSandbox } from '../sandbox/sandbox.js';
import type { Pool } from '../sandbox/pool.js';
import type { SandboxOptions } from '../sandbox/options.js';
import type { CapsuleRecord } from './capsuleRecord.js';
import { sha256, valueHash } from './hash.js';
import { preludeVersion } from './packageInfo.js';
import { readCapsules, type CapsuleEntry } from './readCapsules.js';

/** Options of replayCapsule(). */
export interface ReplayOptions {
  /** 1-based line of the record to replay. @default the last record */
  line?: number;
  /** CSV to use as award_data instead of the recorded source. */
  dataPath?: string;
  /** Run on this pool's holders. */
  pool?: Pool;
}

/** What a replay found. `match` is true when stdout, value and error type are all the same. */
export interface ReplayReport {
  line: number;
  match: boolean;
  stdoutMatch: boolean;
  valueMatch: boolean;
  errorTypeMatch: boolean;
  /** False when award_data is not the recorded data (identity differs), which explains most mismatches. */
  datasetMatch: boolean;
  preludeMatch: boolean;
  /** Runs of the same session replayed first, to rebuild its state. */
  replayedBefore: number;
  notes: string[];
  recorded: CapsuleRecord;
  result: RunResult;
}

/**
 * Re-run one capsule record with the same limits, preset, data and `{ now, seed }`, and compare.
 * For a session run, the session's earlier records in the file run first (in order) to rebuild state.
 * @throws {Error} when the log cannot be read or has no record at `line`.
 * @example const report = await replayCapsule('runs.jsonl', { line: 3 }); report.match
 */
export async function replayCapsule(path: string, options: ReplayOptions = {}): Promise<ReplayReport> {
  const entries = await readCapsules(path);
  if (entries.length === 0) throw new Error(`${path} has no capsule records.`);
  const target =
    options.line === undefined ? entries[entries.length - 1]! : entries.find((e) => e.line === options.line);
  if (!target)
    throw new Error(
      `${path} has no record on line ${options.line}; lines with records: ${entries.map((e) => e.line).join(', ')}.`,
    );
  const rec = target.record;
  const notes: string[] = [];
  if (sha256(rec.code) !== rec.codeHash)
    notes.push(`The code on line ${target.line} does not match its recorded hash: the log was edited.`);
  const before = earlierRuns(entries, target, notes);
  const box = await createSandbox(sandboxOptions(rec, options, notes));
  let result: RunResult;
  try {
    for (const e of before) await box.run(e.record.code, runOptions(e.record));
    result = await box.run(rec.code, runOptions(rec));
  } finally {
    await box.close();
  }
  const stdoutMatch = sha256(result.stdout) === rec.result.stdoutHash;
  const valueMatch = valueHash(result) === rec.result.valueHash;
  const errorTypeMatch = (result.error?.type ?? undefined) === rec.result.errorType;
  const datasetMatch = (result.dataset?.identity ?? null) === (rec.dataset?.identity ?? null);
  if (!datasetMatch) {
    notes.push(
      `award_data differs from the recorded data: recorded ${describe(rec.dataset)}, now ${describe(result.dataset ?? null)}.`,
    );
  }
  const preludeMatch = preludeVersion() === rec.prelude;
  if (!preludeMatch)
    notes.push(
      `The prelude differs from the recorded one (recorded ${rec.prelude}, now ${preludeVersion()}): sbirtools was updated.`,
    );
  if (!rec.deterministic)
    notes.push('The run was not deterministic (no { now, seed } recorded): Date.now() and Math.random() may differ.');
  const match = stdoutMatch && valueMatch && errorTypeMatch;
  return {
    line: target.line,
    match,
    stdoutMatch,
    valueMatch,
    errorTypeMatch,
    datasetMatch,
    preludeMatch,
    replayedBefore: before.length,
    notes,
    recorded: rec,
    result,
  };
}

function earlierRuns(entries: CapsuleEntry[], target: CapsuleEntry, notes: string[]): CapsuleEntry[] {
  const session = target.record.session;
  if (!session || session.seq === 1) return [];
  const before = entries.filter(
    (e) => e.line < target.line && e.record.session?.id === session.id && e.record.session.seq < session.seq,
  );
  if (before.length !== session.seq - 1) {
    notes.push(
      `Only ${before.length} of the ${session.seq - 1} earlier runs of session ${session.id} are in the log: state may differ.`,
    );
  }
  return before;
}

function sandboxOptions(rec: CapsuleRecord, options: ReplayOptions, notes: string[]): SandboxOptions {
  const out: SandboxOptions = {
    ...rec.limits,
    ...(rec.preset ? { preset: rec.preset } : {}),
    ...(options.pool ? { pool: options.pool } : {}),
  };
  if (options.dataPath) return { ...out, dataPath: options.dataPath };
  const source = rec.dataset?.source;
  if (source && !rec.dataset?.synthetic && !/^https?:/.test(source)) {
    if (existsSync(source)) return { ...out, dataPath: source };
    notes.push(`The recorded data file ${source} is gone; using the default data.`);
  }
  return out;
}

function runOptions(rec: CapsuleRecord) {
  return rec.deterministic ? { deterministic: rec.deterministic } : {};
}

function describe(d: CapsuleRecord['dataset']): string {
  if (!d) return 'no award_data';
  return `${d.synthetic ? 'SYNTHETIC sample' : d.source} (${d.rows} rows, identity ${d.identity})`;
}
