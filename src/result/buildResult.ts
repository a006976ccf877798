import type { z } from 'zod';
import { GuestOutcomeSchema } from '../../schema/guest.js';
import type { Limits } from '../../schema/limits.js';
import type { DatasetInfo, RunResult } from '../../schema/result.js';
import type { RunError } from '../../schema/errors.js';
import type { RawRunOutcome } from '../../schema/outcome.js';
import { caretSnippet } from '../policy/snippet.js';

interface Context {
  code: string;
  limits: Limits;
  dataset?: DatasetInfo;
  reset?: boolean;
}

/** Turn a holder's raw outcome into the public RunResult. Guest JSON is validated, never trusted. */
export function buildResult(raw: RawRunOutcome, ctx: Context): RunResult {
  const base = {
    stdout: raw.stdout,
    stderr: raw.stderr,
    stats: raw.stats,
    limits: ctx.limits,
    ...(ctx.dataset ? { dataset: ctx.dataset } : {}),
    ...(raw.engine ? { engine: raw.engine } : {}),
    ...(ctx.reset ? { sessionReset: true } : {}),
    ...(raw.codeRan === false || raw.status === 'queue_full' ? { codeRan: false as const } : {}),
    // files saved before a failure are kept: they are whole (each save is atomic) and already paid for
    ...(raw.files?.length
      ? {
          files: raw.files.map((f) => ({
            name: f.name,
            mediaType: f.mediaType,
            size: f.bytes.byteLength,
            bytes: f.bytes,
          })),
        }
      : {}),
  };
  const truncated = { stdout: raw.outputTruncated, value: false };
  if (raw.status !== 'ok') return { ...base, ok: false, truncated, error: limitError(raw, ctx.limits) };
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw.outcomeJson ?? '');
  } catch {
    return { ...base, ok: false, truncated, error: internal('the sandbox returned output that is not valid JSON') };
  }
  // the common outcome (a value and nothing else) is checked by hand; any other shape by the schema
  let o = valueOnly(parsed);
  if (!o) {
    const outcome = GuestOutcomeSchema.safeParse(parsed);
    if (!outcome.success)
      return { ...base, ok: false, truncated, error: internal('the sandbox returned a malformed result') };
    o = outcome.data;
  }
  truncated.stdout ||= !!o.truncatedOutput;
  if (!o.ok) {
    const e = o.error;
    const error: RunError = {
      type: 'RUNTIME_ERROR',
      name: e.name ?? 'Error',
      message: `${e.name ?? 'Error'}: ${e.message}${e.line ? ` (line ${e.line}${e.column ? `, col ${e.column}` : ''})` : ''}`,
      ...(e.line ? { line: e.line } : {}),
      ...(e.column ? { column: e.column } : {}),
      ...(e.line ? { snippet: caretSnippet(ctx.code, e.line, e.column ?? 1) } : {}),
      ...(e.stack ? { stack: e.stack } : {}),
      hint: e.hint ?? 'Fix the error at the line shown and run again; state from earlier runs of this session is kept.',
    };
    return { ...base, ok: false, truncated, error };
  }
  truncated.value = !!o.truncatedValue;
  return {
    ...base,
    ok: !truncated.stdout,
    truncated,
    ...(truncated.stdout ? { error: outputLimit(ctx.limits) } : {}),
    ...('value' in o && o.value !== undefined ? { value: o.value } : {}),
    ...(o.valueText !== undefined ? { valueText: o.valueText } : isSilent(o, raw) ? { valueText: SILENT_NOTE } : {}),
    ...(o.table ? { table: o.table } : {}),
    ...(o.displays?.length ? { displays: o.displays } : {}),
    ...(o.charts?.length ? { charts: o.charts } : {}),
  };
}

type GuestOutcome = z.infer<typeof GuestOutcomeSchema>;

/**
 * `parsed` when it is exactly what GuestOutcomeSchema accepts for a run that produced only a value
 * (`ok: true`, `value`, `valueText` a string, the truncation flags booleans, no other key): the
 * schema would return the same. Undefined for anything else, which the schema then checks.
 */
function valueOnly(parsed: unknown): GuestOutcome | undefined {
  if (typeof parsed !== 'object' || parsed === null) return undefined;
  const o = parsed as Record<string, unknown>;
  if (o.ok !== true) return undefined;
  for (const key of Object.keys(o)) {
    const v = o[key];
    if (key === 'valueText') {
      if (typeof v !== 'string') return undefined;
    } else if (key === 'truncatedValue' || key === 'truncatedOutput') {
      if (typeof v !== 'boolean') return undefined;
    } else if (key !== 'ok' && key !== 'value') return undefined;
  }
  return o as GuestOutcome;
}

/** Said when a run produced nothing at all and the guest gave no note of its own (never a silent empty success). */
const SILENT_NOTE =
  'The run printed nothing and returned no value (its last expression was undefined). End the code with an expression (its value is the result), assign `result = ...`, or print(...) what you want to see.';

function isSilent(
  o: { value?: unknown; table?: unknown; displays?: unknown[]; charts?: unknown[] },
  raw: RawRunOutcome,
): boolean {
  return (
    o.value === undefined &&
    !o.table &&
    !o.displays?.length &&
    !o.charts?.length &&
    raw.stdout === '' &&
    raw.stderr === ''
  );
}

function limitError(raw: RawRunOutcome, limits: Limits): RunError {
  switch (raw.status) {
    case 'timeout':
      return {
        type: 'TIMEOUT',
        message: `The code did not finish within the ${limits.timeoutMs} ms time limit and was stopped.`,
        hint: 'Make the computation cheaper: filter award_data before grouping, avoid per-row loops over all rows (use aq verbs or the prelude), and make sure every promise settles. The session state was reset.',
      };
    case 'memory':
      return {
        type: 'MEMORY_LIMIT',
        message: `The code used more than the ${limits.memoryLimitMb} MB memory limit and was stopped (${raw.message ?? 'limit exceeded'}).`,
        hint: `Work on fewer rows or columns: select() the columns you need, filter first, aggregate instead of materializing rows (objects()), and avoid building huge arrays or strings. The columns a run reads count too (a table of millions of rows: 8 bytes per number, 4 per text code): if they alone pass ${limits.memoryLimitMb} MB, raise the limit (the \`memoryLimitMb\` option, CLI --memory-mb, at most 8192; a sandbox with user tables defaults to a quarter of host memory, or SBIRTOOLS_TABLE_MEMORY_MB). The session state was reset.`,
      };
    case 'queue_full':
      return {
        type: 'QUEUE_FULL',
        message: `The sandbox pool is at capacity: ${raw.message ?? 'queue full'}.`,
        hint: 'Nothing is wrong with the code: retry after a short wait.',
      };
    case 'aborted':
      return {
        type: 'ABORTED',
        message:
          raw.codeRan === false
            ? 'The run was cancelled by the caller (AbortSignal) before the code started.'
            : 'The run was cancelled by the caller (AbortSignal).',
        hint:
          raw.codeRan === false
            ? 'Nothing to fix in the code; the session state is kept.'
            : 'Nothing to fix in the code; the session state was reset.',
      };
    default:
      return internal(raw.message ?? 'unknown failure');
  }
}

function outputLimit(limits: Limits): RunError {
  return {
    type: 'OUTPUT_LIMIT',
    message: `The code printed more than the ${limits.maxOutputBytes}-byte output limit; the output was cut (the value, if any, is still returned).`,
    hint: 'Print less: aggregate first, print head(10) instead of whole tables, or make the table the last expression so it comes back as a capped table result.',
  };
}

function internal(detail: string): RunError {
  return {
    type: 'INTERNAL_ERROR',
    message: `sbirtools failed while running the code: ${detail}.`,
    hint: 'This is not a mistake in your code as far as sbirtools can tell; retry once. The session state may have been reset.',
  };
}
