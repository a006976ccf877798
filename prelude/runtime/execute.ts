/**
 * execute(code, opts): the runtime's entry point (docs/architecture.md "The runtime <-> prelude
 * contract"). Resets per-run state, runs the code as a global script named analysis.js (a synchronous
 * program through the function it was compiled to on its first run, keptRuns.ts; async code by
 * indirect eval), reads `result` when asked, awaits a native promise, and returns one GuestOutcome
 * JSON string (or a promise of one that never rejects). Guest failures become `{ ok: false, error }`.
 */
import { NativeNumber, NativePromise, NativeString, PromisePrototypeThen, ReflectApply } from '../intrinsics.js';
import { settleRows } from '../data/pendingRows.js';
import { errorInfo, SOURCE_NAME } from '../errors/errorInfo.js';
import { outputBytes, resetOutput } from '../output/output.js';
import { resetResults, runResults } from '../output/results.js';
import {
  FALLBACK_OUTCOME,
  OUT_OF_MEMORY_OUTCOME,
  failureJson,
  isOutOfMemory,
  successJson,
} from '../serialize/outcome.js';
import { enterDeterministic, type Deterministic } from './deterministic.js';
import { emptyNote } from './emptyNote.js';
import { makeKeptRuns } from './keptRuns.js';

/** Options the runtime passes. */
export interface ExecuteOptions {
  /** The code is wrapped in an async IIFE (its value is a promise). */
  async: boolean;
  /** Lines the runtime added before the user's first line. */
  lineOffset: number;
  /** The run's value is the global binding `result`. */
  resultName: boolean;
  deterministic?: Deterministic;
}

/** Limits execute() enforces inside the isolate. */
export interface ExecuteLimits {
  maxOutputBytes: number;
  maxResultBytes: number;
  maxRows: number;
}

const indirectEval = globalThis.eval;

function failure(e: unknown, code: string, lineOffset: number): string {
  // the memory limit: building its error outcome would itself need memory there is none of
  if (isOutOfMemory(e)) return OUT_OF_MEMORY_OUTCOME;
  try {
    return failureJson(errorInfo(e, code, lineOffset));
  } catch (e2) {
    return isOutOfMemory(e2) ? OUT_OF_MEMORY_OUTCOME : FALLBACK_OUTCOME;
  }
}

function success(value: unknown, limits: ExecuteLimits, code: string, opts: Partial<ExecuteOptions> = {}): string {
  try {
    const extras = runResults();
    // never a silent empty success: say why there is nothing (valueText, for the model)
    const note =
      value === undefined && outputBytes() === 0 && !extras.displays.length && !extras.charts.length
        ? emptyNote(code, !!opts.async, !!opts.resultName)
        : undefined;
    return successJson(value, extras, limits, note);
  } catch (e) {
    if (isOutOfMemory(e)) return OUT_OF_MEMORY_OUTCOME;
    try {
      const info = errorInfo(e, code, 0);
      return failureJson({
        name: 'ResultError',
        message: `The run finished but its result could not be serialized: ${info.name}: ${info.message}`,
        hint: 'Return plain data (numbers, strings, arrays, objects, tables); do not modify built-in prototypes or JSON.',
      });
    } catch (e2) {
      return isOutOfMemory(e2) ? OUT_OF_MEMORY_OUTCOME : FALLBACK_OUTCOME;
    }
  }
}

/** Builds execute() over the boot-time limits. */
export function makeExecute(
  limits: ExecuteLimits,
  /** Called as each run starts, before its code (the warm-up is refused from then on: boot.ts). */
  onRun: () => void = () => {},
): (code: string, opts?: Partial<ExecuteOptions>) => string | Promise<string> {
  const kept = makeKeptRuns();
  return function execute(code, opts = {}) {
    onRun();
    let restore = () => {};
    const done = () => {
      const r = restore;
      restore = () => {};
      try {
        r();
      } catch {
        /* keep the outcome */
      }
    };
    try {
      const src = NativeString(code);
      // where errors are located: the text that ran and the lines before the user's first line in it
      let ran = src;
      let lineOffset = NativeNumber(opts.lineOffset) || 0;
      resetOutput(limits.maxOutputBytes);
      resetResults();
      if (opts.deterministic) restore = enterDeterministic(opts.deterministic);
      let value: unknown;
      try {
        // rows a bound array of an earlier run still defers, where this code could see they are pending
        settleRows(src);
        if (opts.async) value = indirectEval(`${src}\n//# sourceURL=${SOURCE_NAME}`);
        else {
          const run = kept.get(src, !!opts.resultName);
          ran = run.code;
          lineOffset += run.addedLines;
          value = run.run();
        }
        if (opts.resultName) value = indirectEval('typeof result === "undefined" ? undefined : result');
      } catch (e) {
        done();
        return failure(e, ran, lineOffset);
      }
      const settled = awaitNative(value);
      if (!settled) {
        done();
        return success(value, limits, src, opts);
      }
      return new NativePromise<string>((resolve) => {
        settled(
          (v) => {
            done();
            resolve(success(v, limits, src, opts));
          },
          (e) => {
            done();
            resolve(failure(e, ran, lineOffset));
          },
        );
      });
    } catch (e) {
      done();
      try {
        return failure(e, NativeString(code), 0);
      } catch {
        return FALLBACK_OUTCOME;
      }
    }
  };
}

/** For a native promise, a function that subscribes to it; undefined for anything else. */
function awaitNative(v: unknown): ((ok: (v: unknown) => void, err: (e: unknown) => void) => void) | undefined {
  if (typeof v !== 'object' || v === null) return undefined;
  if (!(v instanceof NativePromise)) return undefined;
  return (ok, err) => {
    try {
      ReflectApply(PromisePrototypeThen, v, [ok, err]);
    } catch (e) {
      err(e);
    }
  };
}
