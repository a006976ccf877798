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

/** The helper a loop over a name or a call goes through (src/runtime/prepare/tableLoops.ts). */
const LOOP_HELPER = `${ROW_LOOP_GLOBAL}.rows(`;
/** `/*=of:<message>:<V8 column>:<QuickJS column>*\/`, the message URI-encoded (no `*\/` can end it early). */
const OF_MARKER = /\/\*=of:([^:*]*):(\d+):(\d+)\*\//;

/** The comment a wrapped loop's opening insert carries: how each engine reports its iterable, not iterable. */
export function ofMarker(where: { message: string; v8: number; quickjs: number }): string {
  return `/*=of:${encodeURIComponent(where.message)}:${where.v8}:${where.quickjs}*/`;
}

/**
 * The `of` marker of the opening insert the 1-based `column` of a prepared `line` falls in (or, with
 * `before`, the last one that starts before it), if any.
 */
function markerAt(
  line: string,
  column: number,
  before = false,
): { message: string; v8: number; quickjs: number } | undefined {
  const open = line.lastIndexOf(before ? INSERTED_OPEN + LOOP_HELPER : INSERTED_OPEN, column - 1);
  if (open < 0) return undefined;
  const close = line.indexOf(INSERTED_CLOSE, open);
  if (close < 0 || (!before && column - 1 >= close + INSERTED_CLOSE.length)) return undefined;
  const insert = line.slice(open, close);
  if (!insert.startsWith(INSERTED_OPEN + LOOP_HELPER)) return undefined;
  const m = OF_MARKER.exec(insert);
  if (!m) return undefined;
  try {
    return { message: decodeURIComponent(m[1]!), v8: Number(m[2]), quickjs: Number(m[3]) };
  } catch {
    return undefined;
  }
}

/** V8's message for a wrapped loop whose iterable is not iterable (it names the helper). */
const V8_HELPER_MESSAGE = `${ROW_LOOP_GLOBAL}.rows is not a function or its return value is not iterable`;
/** QuickJS's messages for a for-of over something not iterable (it names no expression). */
const QUICKJS_NOT_ITERABLE =
  /^(?:value is not iterable|cannot read property 'Symbol\.iterator' of (?:undefined|null))$/;

/**
 * A wrapped loop's error as the loop as written reports it (src/runtime/prepare/tableLoops.ts): when
 * the first user frame points into the helper's opening insert on prepared `line` (1-based `column`),
 * V8's message about the helper becomes the one it prints for the iterable, and the column the one
 * each engine points at; anything else comes back unchanged (`column` mapped by userColumn).
 * @example
 * loopError('__sbirtools_rowLoop.rows is not a function or its return value is not iterable', line, 37)
 * // { message: 'o.select is not a function or its return value is not iterable', column: 19 }
 */
export function loopError(message: string, line: string, column: number): { message: string; column: number } {
  const mapped = { message, column: userColumn(line, column) };
  const where = markerAt(line, column);
  if (!where) {
    // the iterable is a call whose callee is not a function: V8 names the loop's context as written
    const outer = message.endsWith(' is not a function') ? markerAt(line, column, true) : undefined;
    return outer && outer.message === `${message} or its return value is not iterable` && outer.v8 === mapped.column
      ? { message: outer.message, column: mapped.column }
      : mapped;
  }
  if (message === V8_HELPER_MESSAGE) return { message: where.message, column: where.v8 };
  if (QUICKJS_NOT_ITERABLE.test(message)) return { message, column: where.quickjs };
  return mapped;
}
