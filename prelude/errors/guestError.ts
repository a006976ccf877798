/** Errors the prelude raises for the guest, carrying a `hint` that execute() reports. */

/**
 * An Error with a hint for the model that must fix the code.
 * @example throw new GuestError('KeyError', "Unknown column 'Awrd Amount'", "Did you mean 'Award Amount'?")
 */
export class GuestError extends Error {
  /** What to do instead. */
  readonly hint: string | undefined;
  constructor(name: string, message: string, hint?: string) {
    super(message);
    this.name = name;
    this.hint = hint;
  }
}
