import { INSERTED_CLOSE, INSERTED_OPEN, ROW_LOOP_GLOBAL, ofMarker } from '../../../schema/rowLoop.js';
import type { LocalEdit } from './localize.js';
import type { AnyNode } from './patternNames.js';
import { bodyReads } from './rowReads.js';
import { calleeText } from './v8CalleeText.js';

/**
 * The edits that put `for (const|let r of X)` through `__sbirtools_rowLoop.rows(X, [fields])` when its
 * body only reads fields of `r` (rowReads.ts) and X is a name or a call (`t.select('Agency')`,
 * `f(x)`; not `?.`); the caller takes only loops outside any loop or function (rowLoops.ts): the guest then reads a table's rows (`for (const r of award_data)`) or a bound
 * row array's (rowArrays.ts) as one reused row over the kept values, and hands anything else back to
 * the loop as it is. The opening insert carries what V8 and QuickJS would report for an X that is not
 * iterable, the message V8 prints and the user column each engine points at (schema/rowLoop.ts
 * `ofMarker`), so the error reads as the loop's as written. Undefined when the loop does not qualify.
 * @example
 * tableLoopEdits(parse("for (const r of award_data.select('Agency')) n += r.Agency === 'x'").body[0], source)
 * // two inserts around `award_data.select('Agency')`
 */
export function tableLoopEdits(loop: AnyNode, source: string): LocalEdit[] | undefined {
  if (loop.type !== 'ForOfStatement' || loop.await) return undefined;
  const left = loop.left;
  if (left.type !== 'VariableDeclaration' || left.kind === 'var' || left.declarations.length !== 1) return undefined;
  const id = left.declarations[0].id;
  if (id.type !== 'Identifier') return undefined;
  const x = loop.right as AnyNode;
  const where = v8Where(x, source);
  if (!where) return undefined;
  const reads = bodyReads(loop.body, id.name);
  if (!reads) return undefined;
  return wrapIterable(x, where, JSON.stringify(reads));
}

/**
 * The edits that make a destructured loop over a bound row list, `for (const [a, b] of NAME)`
 * (rowArrays.ts: `NAME = t.tolist()`), `for (const [a, b] of __sbirtools_rowLoop.rows(NAME, [], ["array"]))`:
 * each row built as the loop reaches it when NAME is a deferred bound list, else NAME itself.
 */
export function listLoopEdits(loop: AnyNode, source: string): LocalEdit[] | undefined {
  const x = loop.right as AnyNode;
  const where = v8Where(x, source);
  return where && wrapIterable(x, where, '[], ["array"]');
}

/**
 * The edits that make a keyed accumulation loop over a name or a call (keyedLoops.ts),
 * `for (const r of award_data.select('Agency'))`, `for (const r of __sbirtools_rowLoop.rows(X, fields, ["keyed"], [spec, o]))`:
 * the guest answers it from the columns when X is a table (else as tableLoopEdits would).
 */
export function keyedTableEdits(loop: AnyNode, source: string, args: string): LocalEdit[] | undefined {
  const x = loop.right as AnyNode;
  const where = v8Where(x, source);
  return where && wrapIterable(x, where, args);
}

function wrapIterable(x: AnyNode, where: { message: string; v8: number; quickjs: number }, args: string): LocalEdit[] {
  return [
    {
      start: x.start,
      end: x.start,
      text: `${INSERTED_OPEN}${ROW_LOOP_GLOBAL}.rows(${ofMarker(where)}${INSERTED_CLOSE}`,
    },
    { start: x.end, end: x.end, text: `${INSERTED_OPEN}, ${args})${INSERTED_CLOSE}` },
  ];
}

/** How each engine reports an X that is not iterable, as written: V8's message and the columns. */
function v8Where(x: AnyNode, source: string): { message: string; v8: number; quickjs: number } | undefined {
  const col = (at: number) => at - (source.lastIndexOf('\n', at - 1) + 1) + 1;
  if (x.type === 'Identifier') return { message: `${x.name} is not iterable`, v8: col(x.start), quickjs: col(x.start) };
  if (x.type !== 'CallExpression' || x.optional) return undefined;
  const callee = x.callee as AnyNode;
  const text = calleeText(callee);
  // V8 points at the called name; QuickJS at the call's parenthesis (written right after the callee)
  if (text === undefined || source[callee.end] !== '(') return undefined;
  let name: number;
  if (callee.type === 'Identifier') name = callee.start;
  else if (callee.type === 'MemberExpression' && !callee.computed && !callee.optional) name = callee.property.start;
  else return undefined;
  return {
    message: `${text} is not a function or its return value is not iterable`,
    v8: col(name),
    quickjs: col(callee.end),
  };
}
