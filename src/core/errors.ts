/** Base of the errors sbirtools throws to its caller (guest failures are results, never these). */
export class SbirtoolsError extends Error {
  constructor(readonly code: string, message: string) {
    super(message);
    this.name = new.target.name;
  }
}

/** Bad options or arguments from the caller (VALIDATION_ERROR in docs/errors.md). */
export class SbirtoolsValidationError extends SbirtoolsError {
  constructor(message: string) {
    super('VALIDATION_ERROR', message);
  }
}

/** `run()` on a sandbox after `close()`. */
export class SandboxClosedError extends SbirtoolsError {
  constructor() {
    super('SANDBOX_CLOSED', 'This sandbox is closed: create a new one with createSandbox().');
  }
}
