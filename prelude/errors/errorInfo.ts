/**
 * Turns anything the guest threw into the outcome's `error`: name, message, the line/column in the
 * user's code (frames of analysis.js only, minus lineOffset), those frames as `stack`, and a hint.
 * Every read of the thrown value (getters, Proxy traps) is wrapped: it may be hostile.
 */
import { parse } from 'acorn';
import { GuestError } from './guestError.js';
import { hintFor } from './hints.js';
import { inspect } from '../format/inspect.js';
import {
  NativeNumber,
  NativeString,
  ObjectGetOwnPropertyDescriptor,
  ObjectGetOwnPropertyNames,
} from '../intrinsics.js';
import { INSERTED_OPEN, loopError, ROW_LOOP_GLOBAL, userColumn } from '../../schema/rowLoop.js';
import { HAND_SORT_GLOBAL, nameColumn, repairMessage } from '../../schema/handSort.js';
import { ARRAY_CHAIN_GLOBAL, repairChainMessage } from '../../schema/arrayChain.js';

/** The error part of a failed GuestOutcome. */
export interface ErrorInfo {
  name: string;
  message: string;
  line?: number;
  column?: number;
  stack?: string;
  hint?: string;
}

/** The script name user code is evaluated under (`//# sourceURL=analysis.js`). */
export const SOURCE_NAME = 'analysis.js';

const safe = <T>(f: () => T, fallback: T): T => {
  try {
    return f();
  } catch {
    return fallback;
  }
};

const str = (v: unknown): string => (typeof v === 'string' ? v : safe(() => NativeString(v), '[unprintable]'));

/**
 * Describes a thrown value.
 * @param code the code that was evaluated (to locate SyntaxErrors without a stack frame)
 */
export function errorInfo(e: unknown, code: string, lineOffset: number): ErrorInfo {
  const isObj = typeof e === 'object' && e !== null;
  let name = 'Error';
  let message: string;
  let rawStack = '';
  let hint: string | undefined;
  if (isObj) {
    const n = safe(() => (e as { name?: unknown }).name, undefined);
    const m = safe(() => (e as { message?: unknown }).message, undefined);
    const isError = safe(() => e instanceof Error, false);
    name = typeof n === 'string' && n ? n : 'Error';
    message = typeof m === 'string' ? m : m === undefined ? '' : str(m);
    rawStack = str(safe(() => (e as { stack?: unknown }).stack, ''));
    if (safe(() => e instanceof GuestError, false)) hint = (e as GuestError).hint;
    if (!isError) {
      message ||= `Uncaught ${safe(() => inspect(e, { depth: 2, breakLength: Infinity }), '[object]')}`;
      hint = "The code threw a plain object, not an Error; throw new Error('...') to get a line number.";
    }
    if (!message) message = '(the error message could not be read)';
  } else {
    message = typeof e === 'string' ? e : safe(() => inspect(e), NativeString(typeof e));
    hint = `The code threw ${e === undefined ? 'undefined' : e === null ? 'null' : `a ${typeof e}`}, not an Error; throw new Error('...') to get a line number.`;
  }

  const frames = userFrames(rawStack, lineOffset, code, message);
  // a call a rewrite wrapped (sortCalls.ts): V8 named the helper; name the user's expression instead
  if (message.includes(HAND_SORT_GLOBAL)) message = safe(() => wrappedCallMessage(message, rawStack, code), message);
  // a wrapped loop (tableLoops.ts) over something not iterable: V8 named the helper; name the iterable
  if (code.includes(`${ROW_LOOP_GLOBAL}.rows(`))
    message = safe(
      () => wrappedCallMessage(message, rawStack, code, (m, line, column) => loopError(m, line, column).message),
      message,
    );
  // a fused chain (arrayChains.ts): V8 named the helper; name the user's expression instead
  if (message.includes(ARRAY_CHAIN_GLOBAL))
    message = safe(() => wrappedCallMessage(message, rawStack, code, repairChainMessage), message);
  const info: ErrorInfo = { name, message: message.slice(0, 4000) };
  if (frames.length) {
    info.line = frames[0].line;
    info.column = frames[0].column;
    info.stack = frames.map((f) => f.text).join('\n');
  } else if (name === 'SyntaxError') {
    const loc = locateSyntaxError(code);
    if (loc) {
      info.line = Math.max(1, loc.line - lineOffset);
      info.column = loc.column;
    }
  }
  hint ??= hintFor(name, message, globalNames());
  if (hint) info.hint = hint;
  return info;
}

interface Frame {
  line: number;
  column: number;
  text: string;
}

/** A user frame: `analysis.js` on V8 (sourceURL); QuickJS names indirect-eval code `<input>`. */
const FRAME = /(?:analysis\.js|<input>):(\d+):(\d+)/;

function userFrames(stack: string, lineOffset: number, code: string, message: string): Frame[] {
  const out: Frame[] = [];
  // lines of the prepared code, when the preparation inserted text into a line (a rewritten row loop)
  let lines: string[] | null | undefined = code.includes(INSERTED_OPEN) ? undefined : null;
  for (const l of stack.split('\n')) {
    if (!(l.includes(SOURCE_NAME) || l.includes('(<input>:')) || l.includes('eval at')) continue;
    const m = l.match(FRAME);
    if (!m) continue;
    const line = Math.max(1, NativeNumber(m[1]) - lineOffset);
    let column = NativeNumber(m[2]);
    if (lines !== null) {
      lines ??= code.split(/\r\n|[\n\r\u2028\u2029]/);
      const text = lines[NativeNumber(m[1]) - 1] ?? '';
      // a failed `.sort` read after a rewrite's wrapper, or a wrapped loop's iterable that is not
      // iterable: where the code as written reports it (handSort.ts, rowLoop.ts)
      column =
        out.length === 0
          ? loopError(message, text, nameColumn(message, text, column)).column
          : userColumn(text, column);
    }
    const fn = l.match(/^\s*at (?:async )?([^\s(]+) \(/);
    const where = `${SOURCE_NAME}:${line}:${column}`;
    const label = fn && fn[1] !== 'eval' && !fn[1].includes('<') ? fn[1] : '';
    out.push({ line, column, text: label ? `    at ${label} (${where})` : `    at ${where}` });
    if (out.length >= 10) break;
  }
  return out;
}

/** `message` with the helper's name replaced by the expression it wraps, on the line of the first user frame. */
function wrappedCallMessage(
  message: string,
  stack: string,
  code: string,
  repair: (message: string, line: string, column: number) => string = repairMessage,
): string {
  for (const l of stack.split('\n')) {
    if (!(l.includes(SOURCE_NAME) || l.includes('(<input>:')) || l.includes('eval at')) continue;
    const m = l.match(FRAME);
    if (!m) continue;
    const line = code.split(/\r\n|[\n\r\u2028\u2029]/)[NativeNumber(m[1]) - 1] ?? '';
    return repair(message, line, NativeNumber(m[2]));
  }
  return message;
}

function locateSyntaxError(code: string): { line: number; column: number } | undefined {
  try {
    parse(code, {
      ecmaVersion: 'latest',
      sourceType: 'script',
      allowReturnOutsideFunction: false,
      allowAwaitOutsideFunction: false,
    });
  } catch (err) {
    const loc = (err as { loc?: { line: number; column: number } }).loc;
    if (loc) return { line: loc.line, column: loc.column + 1 };
  }
  return undefined;
}

function globalNames(): string[] {
  return safe(
    () =>
      ObjectGetOwnPropertyNames(globalThis).filter(
        (k) => typeof ObjectGetOwnPropertyDescriptor(globalThis, k)?.value === 'function' || k === 'award_data',
      ),
    [],
  );
}
