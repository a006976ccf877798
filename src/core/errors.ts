/** Base of the errors sbirtools throws to its caller (guest failures are results, never these). */
export class SbirtoolsError extends Error {
  /**
   * @param code stable, documented in docs/errors.md; never changes meaning
   * @param message what failed and what to do instead, for the reader who must fix it
   */
  constructor(
    readonly code: string,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
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
