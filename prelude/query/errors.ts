/** Errors of t.query(): a ValueError quoting the query with a caret under the problem. */
import { GuestError } from '../errors/guestError.js';

const HINT =
  'pandas query syntax: t.query("Phase == \'Phase II\' and `Award Amount` > 1e6"); quote text with \' or ", put column names with spaces in backticks, use and / or / not, in [...], @name for a variable.';

/** A syntax error at offset `at` of `src`. */
export function querySyntaxError(src: string, at: number, what: string): GuestError {
  return new GuestError('ValueError', `query(): ${what} at position ${at + 1}\n  ${src}\n  ${' '.repeat(at)}^`, HINT);
}
