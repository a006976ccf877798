/**
 * The GuestOutcome JSON string that execute() returns: built by string concatenation from pieces
 * produced with captured builtins, so whatever the guest did to prototypes or globals the result is
 * valid JSON of the documented shape, or (if building it throws) a fixed error outcome.
 */
import { JSONStringify, NativeString, NumberIsFinite } from '../intrinsics.js';
import type { ErrorInfo } from '../errors/errorInfo.js';
import { isTable } from '../frame/common.js';
import { isSeries } from '../series/brand.js';
import { inspect } from '../format/inspect.js';
import { outputTruncated } from '../output/output.js';
import type { Displayed, PendingChart } from '../output/results.js';
import { Budget, JsonOut } from './jsonOut.js';
import { tableResultJson } from './tableResult.js';
import { writeJson } from './writeJson.js';

/** The limits the serializer needs. */
export interface ResultLimits {
  maxResultBytes: number;
  maxRows: number;
}

/** Returned when even the error outcome cannot be built. */
export const FALLBACK_OUTCOME =
  '{"ok":false,"error":{"name":"InternalError","message":"The prelude could not build the outcome of this run."},"truncatedOutput":false}';

/**
 * Returned when building an outcome ran out of memory (QuickJS throws a catchable InternalError
 * "out of memory" at its allocation limit; V8 never does): a constant, so nothing is allocated,
 * and the host reads it as the run's memory limit (src/runtime/engines/quickjs/quickjsSession.ts).
 */
export const OUT_OF_MEMORY_OUTCOME =
  '{"ok":false,"error":{"name":"InternalError","message":"out of memory"},"truncatedOutput":false}';

/** True for QuickJS's out-of-memory error (its own property reads allocate nothing). */
export function isOutOfMemory(e: unknown): boolean {
  try {
    if (typeof e !== 'object' || e === null) return false;
    const err = e as { name?: unknown; message?: unknown };
    return err.name === 'InternalError' && err.message === 'out of memory';
  } catch {
    return false;
  }
}

/** valueText gets at most this share of the budget (and 256 KiB), before `value`. */
const TEXT_SHARE = 0.5;
const TEXT_MAX = 256 * 1024;

/** The outcome of a successful run; `note` is the valueText of a run that produced nothing (runtime/emptyNote.ts). */
export function successJson(
  value: unknown,
  extras: { displays: Displayed[]; charts: PendingChart[] },
  limits: ResultLimits,
  note?: string,
): string {
  const budget = new Budget(limits.maxResultBytes);
  let s = '{"ok":true';
  if (isSeries(value)) value = value.to_frame(); // a Series result is its one-column table
  if (isTable(value)) {
    const tj = tableResultJson(value, budget, limits.maxRows);
    if (tj) s += ',"table":' + tj;
  } else if (value === undefined && note) {
    s += ',"valueText":' + JSONStringify(note);
    budget.remaining -= note.length;
  } else if (value !== undefined) {
    const share = new Budget(Math.min(TEXT_MAX, Math.floor(budget.remaining * TEXT_SHARE)));
    const text = new JsonOut(share);
    const start = share.remaining;
    if (text.string(typeof value === 'string' ? value : inspect(value))) s += ',"valueText":' + text.text();
    budget.remaining -= start - share.remaining;
    if (share.truncated) budget.truncated = true;
    const out = new JsonOut(budget);
    if (writeJson(value, out, { maxRows: limits.maxRows })) s += ',"value":' + out.text();
  }
  const displays: string[] = [];
  for (const d of extras.displays) {
    const tj = tableResultJson(d.table, budget, limits.maxRows);
    if (!tj) {
      budget.truncated = true;
      break;
    }
    displays.push(tj);
  }
  if (displays.length) s += ',"displays":[' + displays.join(',') + ']';
  const charts: string[] = [];
  for (const c of extras.charts) {
    const sub = new Budget(budget.remaining);
    const out = new JsonOut(sub);
    out.push(
      '{"kind":' +
        JSONStringify(c.kind) +
        (c.title !== undefined ? ',"title":' + JSONStringify(NativeString(c.title)) : '') +
        (c.file !== undefined ? ',"file":' + JSONStringify(NativeString(c.file)) : '') +
        ',"spec":',
    );
    if (!writeJson(c.spec, out, { maxDepth: 64 }) || sub.truncated) {
      budget.truncated = true;
      continue;
    } // a cut spec is not a chart
    out.push('}');
    budget.remaining = sub.remaining;
    charts.push(out.text());
  }
  if (charts.length) s += ',"charts":[' + charts.join(',') + ']';
  return (
    s +
    ',"truncatedValue":' +
    (budget.truncated ? 'true' : 'false') +
    ',"truncatedOutput":' +
    (outputTruncated() ? 'true' : 'false') +
    '}'
  );
}

/** The outcome of a failed run. */
export function failureJson(info: ErrorInfo): string {
  let e =
    '{"name":' +
    JSONStringify(NativeString(info.name).slice(0, 200)) +
    ',"message":' +
    JSONStringify(NativeString(info.message).slice(0, 4000));
  if (typeof info.line === 'number' && NumberIsFinite(info.line)) e += ',"line":' + Math.trunc(info.line);
  if (typeof info.column === 'number' && NumberIsFinite(info.column)) e += ',"column":' + Math.trunc(info.column);
  if (typeof info.stack === 'string' && info.stack) e += ',"stack":' + JSONStringify(info.stack.slice(0, 4000));
  if (typeof info.hint === 'string' && info.hint) e += ',"hint":' + JSONStringify(info.hint.slice(0, 2000));
  return '{"ok":false,"error":' + e + '},"truncatedOutput":' + (outputTruncated() ? 'true' : 'false') + '}';
}
