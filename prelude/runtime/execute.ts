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
import { EXECUTE_ASYNC, EXECUTE_DETERMINISTIC, EXECUTE_RESULT_NAME } from '../../schema/executeFlags.js';

/** Options the runtime passes. */
export interface ExecuteOptions {
  /** The code is wrapped in an async IIFE (its value is a promise). */
  async: boolean;
  /** Lines the runtime added before the user's first line. */
  lineOffset: number;
  /** The run's value is the global binding `result`. */
  resultName: boolean;
  deterministic?: Deterministic;
  /**
   * The code's function form, made by the host's code check (schema/functionForm.ts) so that this
   * isolate need not parse the code; absent when the host sent none (the form is then made here).
   */
  form?: { text: string; declare: string };
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
  // No named closure is made per run: the bundle is built with keepNames, which names every function
  // a variable or property holds with Object.defineProperty when it is made (a new map for each
  // function; the three this made per run were 1-3 µs of a trivial run's ~15 µs in the isolate).
  // A deterministic run's restore runs once, after the run, on every path.
  return function execute(code, opts = {}) {
    onRun();
    let restore: (() => void) | undefined;
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
          const run = kept.get(src, !!opts.resultName, givenForm(opts.form));
          ran = run.code;
          lineOffset += run.addedLines;
          value = run.run();
        }
        // an async run's `result` is set when its function settles, read then (below)
        if (opts.resultName && !opts.async) value = readResult();
      } catch (e) {
        restore = restoreOnce(restore);
        return failure(e, ran, lineOffset);
      }
      const settled = awaitNative(value);
      if (!settled) {
        restore = restoreOnce(restore);
        return success(value, limits, src, opts);
      }
      return new NativePromise<string>((resolve) => {
        const fail = (e: unknown) => {
          restore = restoreOnce(restore);
          resolve(failure(e, ran, lineOffset));
        };
        const done = (v: unknown) => {
          restore = restoreOnce(restore);
          resolve(success(v, limits, src, opts));
        };
        settled((v) => {
          if (!opts.async || !opts.resultName) return done(v);
          // `result = await ...` in an async run: its value is `result` once the function settled,
          // awaited in turn when it holds a promise (as a synchronous run's `result` is)
          let r: unknown;
          try {
            r = readResult();
          } catch (e) {
            return fail(e);
          }
          const again = awaitNative(r);
          if (again) again(done, fail);
          else done(r);
        }, fail);
      });
    } catch (e) {
      restore = restoreOnce(restore);
      try {
        return failure(e, NativeString(code), 0);
      } catch {
        return FALLBACK_OUTCOME;
      }
    }
  };
}

/** The host's form when it is one (two strings), else undefined: the form is then made here. */
function givenForm(form: unknown): { text: string; declare: string } | undefined {
  if (typeof form !== 'object' || form === null) return undefined;
  const { text, declare } = form as { text?: unknown; declare?: unknown };
  return typeof text === 'string' && typeof declare === 'string' ? { text, declare } : undefined;
}

/**
 * execute() with its options as numbers (`flags` of schema/executeFlags.ts, `lineOffset`, and `now`/`seed` when
 * EXECUTE_DETERMINISTIC is set): the isolated-vm runtime calls this one, whose arguments isolated-vm
 * passes as primitives without a structured clone of an options object on either thread (a warm
 * run's fixed cost: docs/benchmarks.md "The trivial round trip's parts on this VM (session 25)").
 */
export function makeExecuteFlat(
  execute: (code: string, opts?: Partial<ExecuteOptions>) => string | Promise<string>,
): (
  code: string,
  flags: number,
  lineOffset: number,
  now: number,
  seed: number,
  formText?: string,
  formDeclare?: string,
) => string | Promise<string> {
  // formText, formDeclare: the code's function form made by the host's code check (ExecuteOptions.form)
  return function executeFlat(code, flags, lineOffset, now, seed, formText, formDeclare) {
    const f = NativeNumber(flags) | 0;
    return execute(code, {
      form: givenForm({ text: formText, declare: formDeclare }),
      async: (f & EXECUTE_ASYNC) !== 0,
      lineOffset: NativeNumber(lineOffset) || 0,
      resultName: (f & EXECUTE_RESULT_NAME) !== 0,
      deterministic:
        (f & EXECUTE_DETERMINISTIC) !== 0 ? { now: NativeNumber(now), seed: NativeNumber(seed) } : undefined,
    });
  };
}

/** Runs a deterministic run's restore, if any, keeping the outcome when it throws; undefined, for the slot it came from. */
function restoreOnce(restore: (() => void) | undefined): undefined {
  if (restore === undefined) return undefined;
  try {
    restore();
  } catch {
    /* keep the outcome */
  }
  return undefined;
}

/** The `result` global a run assigned (its value when the code assigns `result`), undefined when it has none. */
function readResult(): unknown {
  return indirectEval('typeof result === "undefined" ? undefined : result');
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
