import type { QuickJSContext, QuickJSHandle } from 'quickjs-emscripten-core';

/** What an exception that escaped the prelude's execute() means. */
export interface QuickJsFailure {
  /** The interrupt handler stopped the code (the deadline, an abort, a close): uncatchable in QuickJS. */
  interrupted: boolean;
  /** QuickJS could not allocate within the runtime's memory limit. */
  outOfMemory: boolean;
  /** For anything else: a GuestOutcome failure JSON, as isolated-vm's unhandled rejections get. */
  outcomeJson: string;
}

/**
 * Read an exception handle of the QuickJS engine. The prelude catches every guest error, so what
 * reaches here is nearly always a limit; the name and message are read with `dump` (a guest-made
 * error's getters run under the same interrupt handler, so they cannot outlive the deadline).
 * @example quickJsFailure(vm, errorHandle).interrupted
 */
export function quickJsFailure(vm: QuickJSContext, err: QuickJSHandle): QuickJsFailure {
  let name = 'Error';
  let message = '';
  try {
    const dumped = vm.dump(err) as unknown;
    if (dumped && typeof dumped === 'object') {
      const d = dumped as { name?: unknown; message?: unknown };
      if (typeof d.name === 'string' && /^[A-Za-z_$][\w$]{0,63}$/.test(d.name)) name = d.name;
      message = typeof d.message === 'string' ? d.message : JSON.stringify(dumped).slice(0, 2000);
    } else {
      message = String(dumped);
    }
  } catch {
    message = '(the error could not be read)';
  }
  const internal = name === 'InternalError';
  return {
    interrupted: internal && message === 'interrupted',
    outOfMemory: internal && message === 'out of memory',
    outcomeJson: JSON.stringify({
      ok: false,
      error: {
        name,
        message: `Unhandled promise rejection: ${message.slice(0, 2000)}`,
        hint: 'A promise was rejected and nothing handled it: await it inside try/catch, or add .catch(...). Only the value of the run (or an awaited promise) is waited for.',
      },
    }),
  };
}
