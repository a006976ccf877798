/**
 * What the code preparation (src/runtime/prepare/rowLoops.ts) and the prelude (prelude/data/rowLoop.ts,
 * prelude/errors/errorInfo.ts) agree on for row loops rewritten to build no rows.
 */

/** The guest global a rewritten loop calls (`__sbirtools_rowLoop.open(names)`). */
export const ROW_LOOP_GLOBAL = '__sbirtools_rowLoop';

/**
 * Every text the preparation inserts into a line of the user's code sits between these comments,
 * so an error's column can be mapped back to the user's (the source never contains `$sbtRow`).
 */
export const INSERTED_OPEN = '/*$sbtRow<*/';
export const INSERTED_CLOSE = '/*>$sbtRow*/';

/**
 * The column in the user's line of a 1-based `column` in a line of prepared code: minus the inserted
 * texts before it (a position inside one maps to where it was inserted).
 * @example
 * // the `+` after an inserted argument: column 48 in `t.objects(/*$sbtRow<*\/open(['x'])/*>$sbtRow*\/) + 1`
 * userColumn(preparedLine, 48) // 13, as in `t.objects() + 1`
 */
export function userColumn(preparedLine: string, column: number): number {
  let shift = 0;
  let from = 0;
  for (;;) {
    const a = preparedLine.indexOf(INSERTED_OPEN, from);
    if (a < 0 || a >= column - 1) break;
    const close = preparedLine.indexOf(INSERTED_CLOSE, a);
    if (close < 0) break;
    const b = close + INSERTED_CLOSE.length;
    if (column - 1 < b) return a - shift + 1;
    shift += b - a;
    from = b;
  }
  return column - shift;
}

/** The helper a use of a row array bound to a name goes through (src/runtime/prepare/rowArrays.ts). */
const BOUND_USE = `${ROW_LOOP_GLOBAL}.rows`;

/**
 * A V8 message about a use of a bound row array (`for (const r of rows)` became
 * `for (const r of __sbirtools_rowLoop.rows(rows, [...]))`) as the code as written reads: the helper
 * is named by the name it wraps, the last one before `column` (1-based) on the prepared `line`.
 * Other messages come back unchanged.
 * @example
 * boundUseMessage('__sbirtools_rowLoop.rows is not a function or its return value is not iterable', line, 17)
 * // 'rows is not iterable'
 */
export function boundUseMessage(message: string, line: string, column: number): string {
  if (!message.includes(BOUND_USE)) return message;
  const open = `${BOUND_USE}(${INSERTED_CLOSE}`;
  let name: string | undefined;
  for (let at = line.indexOf(open); at >= 0; at = line.indexOf(open, at + 1)) {
    if (name !== undefined && at >= column - 1) break;
    const from = at + open.length;
    const end = line.indexOf(INSERTED_OPEN, from);
    if (end > from) name = line.slice(from, end);
  }
  if (name === undefined) return message;
  return message
    .replace(`${BOUND_USE} is not a function or its return value is not iterable`, `${name} is not iterable`)
    .replace(`${BOUND_USE}(...)`, name);
}
