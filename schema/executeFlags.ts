/**
 * The `flags` argument of the prelude's executeFlat(code, flags, lineOffset, now, seed)
 * (prelude/runtime/execute.ts): execute()'s boolean options as bits, so the isolated-vm runtime
 * passes a run's options as primitives, with no structured clone of an options object.
 */
export const EXECUTE_ASYNC = 1;
/** The run's value is the global binding `result`. */
export const EXECUTE_RESULT_NAME = 2;
/** Time frozen at `now`, randomness seeded with `seed` (the two numbers after `lineOffset`). */
export const EXECUTE_DETERMINISTIC = 4;
