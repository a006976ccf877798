/**
 * Wraps Arquero's table verbs so their failures read well and the closure trap fixes itself:
 * - a closure Arquero cannot compile runs as a real JavaScript closure (closure/fallback.ts);
 * - "Invalid column reference" / "Unrecognized column" become a KeyError with "did you mean".
 * Successful calls pay only a try/catch.
 */
import type { ColumnTable } from 'arquero';
import { unknownColumn } from '../errors/didYouMean.js';
import { callsValueMethods } from './valueMethods.js';
import { afterVerb, fastVerb } from '../fast/hook.js';
import {
  deriveClosure,
  escapeClosures,
  filterClosure,
  groupbyClosure,
  isClosureError,
  usesAggregateOps,
} from './fallback.js';
import { SafeSet } from '../intrinsics.js';

/** The verbs that take table expressions or column names. */
export const WRAPPED_VERBS = [
  'filter',
  'derive',
  'rollup',
  'groupby',
  'orderby',
  'spread',
  'unroll',
  'impute',
  'pivot',
  'dedupe',
  'fold',
  'select',
  'relocate',
  'join',
  'join_left',
  'join_right',
  'join_full',
  'semijoin',
  'antijoin',
  'lookup',
  'cross',
  'count',
  'sample',
] as const;

type Verb = (this: ColumnTable, ...args: unknown[]) => ColumnTable;

const CLOSURE_VERBS = new SafeSet<string>(['filter', 'derive', 'groupby', 'orderby']);

function hasValueMethodCall(arg: unknown): boolean {
  if (typeof arg === 'function') return callsValueMethods(arg) && !usesAggregateOps(arg);
  if (Array.isArray(arg)) return arg.some(hasValueMethodCall);
  if (arg && typeof arg === 'object' && typeof (arg as ColumnTable).columnNames !== 'function')
    return Object.values(arg).some(hasValueMethodCall);
  return false;
}

/** Replaces each verb on the prototype with its wrapped version (idempotent per prototype). */
export function installVerbWrappers(proto: Record<string, unknown>): void {
  for (const name of WRAPPED_VERBS) {
    const orig = proto[name] as Verb & { __sbirtools?: boolean };
    if (typeof orig !== 'function' || orig.__sbirtools) continue;
    const wrapped = {
      [name](this: ColumnTable, ...args: unknown[]) {
        const fast = fastVerb(this, name, args); // dictionary codes and typed arrays (fast/)
        if (fast) return fast;
        // a method call on a value would be miscompiled by Arquero: run it as JavaScript
        if (CLOSURE_VERBS.has(name) && args.some(hasValueMethodCall)) {
          const fixed = closureFallback(this, name, orig, args);
          if (fixed) return fixed;
        }
        try {
          return afterVerb(this, name, args, orig.apply(this, args));
        } catch (e) {
          return recover(this, name, orig, args, e);
        }
      },
    }[name] as Verb & { __sbirtools?: boolean };
    wrapped.__sbirtools = true;
    proto[name] = wrapped;
  }
}

function recover(t: ColumnTable, verb: string, orig: Verb, args: unknown[], e: unknown): ColumnTable {
  const msg = e instanceof Error ? e.message : '';
  if (isClosureError(msg)) {
    const fixed = closureFallback(t, verb, orig, args);
    if (fixed) return fixed;
  }
  const col = unknownColumnIn(t, args, msg);
  if (col !== undefined) throw unknownColumn(col, columnsOf(t, args), `${verb}()`);
  throw e;
}

function closureFallback(t: ColumnTable, verb: string, orig: Verb, args: unknown[]): ColumnTable | undefined {
  const [a, b] = args;
  if (verb === 'filter' && typeof a === 'function' && !usesAggregateOps(a)) return filterClosure(t, a as never);
  if (verb === 'derive' && a && typeof a === 'object' && !Array.isArray(a))
    return deriveClosure(t, a as Record<string, unknown>, (b ?? {}) as Record<string, unknown>);
  if (verb === 'groupby') return groupbyClosure(t, args, orig);
  if (verb === 'orderby') return orig.apply(t, escapeClosures(t, args.flat()));
  return undefined;
}

const SNIPPET =
  /(?:Invalid column reference|Unrecognized column)(?: \(must be input to an aggregate function\))?: "?([^"\n]*)"?/;

/** The unknown column named by an Arquero error, from its snippet or from the string arguments. */
function unknownColumnIn(t: ColumnTable, args: unknown[], msg: string): string | undefined {
  const m = msg.match(SNIPPET);
  if (!m) return undefined;
  if (/must be input to an aggregate/.test(msg)) return undefined;
  const known = columnsOf(t, args);
  const snip = m[1].trim();
  const fromSnippet =
    snip.match(/\[\s*(['"`])(.*)\1\s*\]$/)?.[2] ??
    snip.match(/\.([A-Za-z_$][\w$]*)$/)?.[1] ??
    (/^[A-Za-z_$][\w$ ]*$/.test(snip) ? snip : undefined);
  if (fromSnippet !== undefined && !known.includes(fromSnippet) && msg.startsWith('Unrecognized')) return fromSnippet;
  if (fromSnippet !== undefined && !known.includes(fromSnippet) && /^d\d?\s*(\.|\[)/.test(snip)) return fromSnippet;
  // Arquero's snippet for a field name is often cut ("ncy" for "agency"): look at the string arguments
  const strings: string[] = [];
  const walk = (x: unknown) => {
    if (typeof x === 'string') strings.push(x);
    else if (Array.isArray(x)) x.forEach(walk);
  };
  args.forEach(walk);
  return strings.find((s) => !known.includes(s) && !/[=>(]/.test(s)) ?? fromSnippet;
}

function columnsOf(t: ColumnTable, args: unknown[]): string[] {
  const other = args.find((a) => a && typeof a === 'object' && typeof (a as ColumnTable).columnNames === 'function') as
    ColumnTable | undefined;
  return other ? [...new Set([...t.columnNames(), ...other.columnNames()])] : t.columnNames();
}
