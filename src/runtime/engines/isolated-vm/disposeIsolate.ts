/**
 * How long after the last `dispose()` an exiting process waits for isolated-vm to finish tearing the
 * isolate down. 5 ms was enough in every trial on an idle 2-core VM; the margin is for a loaded one.
 */
const TEARDOWN_GRACE_MS = 100;

let lastDispose = Number.NEGATIVE_INFINITY;
let guarded = false;

/** The part of an isolated-vm isolate disposing needs (5.x, 6.x and 7.x alike). */
interface Disposable {
  readonly isDisposed: boolean;
  dispose(): void;
}

/**
 * Disposes `isolate` and keeps a `process.exit()` that follows from crashing the process.
 *
 * Why: `dispose()` returns at once, but the isolate is often deleted a moment later on one of
 * isolated-vm's pool threads (the thread that ran its last task still holds it). A process that
 * calls `process.exit()` in that moment (`await box.close(); process.exit(0)`) has Node dispose
 * the V8 platform while that thread is still inside `Isolate::Deinit`, and it ends with SIGSEGV
 * (exit code 139, 4-6 of 16 trials) instead of the code it asked for. A natural exit is safe:
 * isolated-vm keeps the event loop alive until the deletion is done and joins it at cleanup, which
 * `process.exit()` skips. So a process that disposed an isolate listens for `exit` once and, when
 * it exits within TEARDOWN_GRACE_MS of the last dispose, blocks for the rest of that time (an
 * `exit` listener can only wait synchronously). Any other exit pays nothing.
 * @example disposeIsolate(isolate);
 */
export function disposeIsolate(isolate: Disposable): void {
  if (!isolate.isDisposed) isolate.dispose();
  lastDispose = performance.now();
  if (guarded) return;
  guarded = true;
  process.on('exit', waitForTeardown);
}

function waitForTeardown(): void {
  const left = lastDispose + TEARDOWN_GRACE_MS - performance.now();
  if (left > 0) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, Math.ceil(left));
}
