/**
 * The session's compiled runs: each synchronous program is compiled once per text as a function
 * (functionForm.ts) and that function is called by every run of the same text, so its type feedback
 * and optimized code outlive the run (docs/architecture.md "A re-run keeps its compiled code"). A
 * program that must stay on eval keeps its globalized text here too (no parse when it runs again).
 * The most recently run texts are kept, up to MAX_KEPT of at most MAX_CODE characters each.
 */
import { SOURCE_NAME } from '../errors/errorInfo.js';
import { ReflectApply } from '../intrinsics.js';
import { functionForm, type FunctionForm } from './functionForm.js';
import { globalize } from './globalize.js';

/** How a synchronous program runs. */
export interface KeptRun {
  /** Runs the program once: its value, or what it threw. */
  run(): unknown;
  /** The text errors are located in (the evaluated code's lines), and the lines it adds in front of the code given. */
  code: string;
  addedLines: number;
}

/** Texts kept per session isolate; a model's session re-runs its last few programs. */
export const MAX_KEPT = 32;
/** Longer programs are prepared each run, not kept (the keys are the texts themselves). */
export const MAX_CODE = 64 * 1024;

interface Entry {
  src: string;
  resultName: boolean;
  run: KeptRun;
}

const indirectEval = globalThis.eval;
const sourceUrl = `\n//# sourceURL=${SOURCE_NAME}`;

/**
 * A store of kept runs: `get(code, resultName, given)` gives how to run `code` (a synchronous program
 * as the runtime sends it, before globalize), compiling it on first sight: from `given`, the form the
 * host's code check made of this text (schema/functionForm.ts), when it sent one, else from the form
 * made here (a parse in the isolate).
 * Only captured builtins and plain indexing are used: user code may have replaced Array and Map methods.
 * @example const kept = makeKeptRuns(); kept.get('let s = 0;\nfor (const v of xs) s += v;\ns', false).run()
 */
export function makeKeptRuns(max = MAX_KEPT): {
  get(src: string, resultName: boolean, given?: FunctionForm): KeptRun;
} {
  // most recent first
  const slots: Entry[] = [];
  return {
    get(src, resultName, given) {
      for (let i = 0; i < slots.length; i++) {
        const e = slots[i]!;
        if (e.src === src && e.resultName === resultName) {
          for (let j = i; j > 0; j--) slots[j] = slots[j - 1]!;
          slots[0] = e;
          return e.run;
        }
      }
      const run = compile(src, resultName, given);
      if (src.length > MAX_CODE) return run;
      const n = slots.length < max ? slots.length + 1 : max;
      for (let j = n - 1; j > 0; j--) slots[j] = slots[j - 1]!;
      slots[0] = { src, resultName, run };
      return run;
    },
  };
}

function compile(src: string, resultName: boolean, given: FunctionForm | undefined): KeptRun {
  const form = given ?? functionForm(src, resultName);
  const evaluated = (): KeptRun => {
    const text = globalize(src) + sourceUrl;
    return { run: () => indirectEval(text), code: src, addedLines: 0 };
  };
  if (!form) return evaluated();
  let fn: unknown;
  try {
    fn = indirectEval(form.text + sourceUrl);
  } catch {
    // a text acorn took and V8 does not: the eval reports it as it always did
    return evaluated();
  }
  if (typeof fn !== 'function') return evaluated();
  let plain: KeptRun | undefined;
  const declare = form.declare;
  return {
    run() {
      if (declare) {
        try {
          indirectEval(declare);
        } catch {
          // a name the eval cannot declare (a global lexical binding): the eval throws what it always did
          return (plain ??= evaluated()).run();
        }
      }
      return ReflectApply(fn as () => unknown, globalThis, []);
    },
    code: form.text,
    addedLines: 1,
  };
}
