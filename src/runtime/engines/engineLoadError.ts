import { SbirtoolsError } from '../../core/errors.js';

/** Raised when no isolated-vm build loads on this Node. Host-side failure: thrown, never a result. */
export class EngineLoadError extends SbirtoolsError {
  constructor(
    message: string,
    readonly attempts: string[],
  ) {
    super('ENGINE_UNAVAILABLE', message);
    this.name = 'EngineLoadError';
  }
}
