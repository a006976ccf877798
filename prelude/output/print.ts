/** print(), console.* and display(): notebook-like output for the guest. */
import { from, type ColumnTable } from 'arquero';
import { isTable } from '../frame/common.js';
import { inspect } from '../format/inspect.js';
import { tableText } from '../format/tableText.js';
import { emit } from './output.js';
import { addDisplay } from './results.js';
import { isChartSpec, chart } from '../charts/chart.js';

/** Formats print() arguments: tables like pandas, strings raw, everything else like util.inspect. */
export function formatArgs(args: unknown[]): string {
  return args.map((a) => (isTable(a) ? tableText(a) : typeof a === 'string' ? a : inspect(a))).join(' ');
}

/**
 * Prints values to stdout, one line per call (tables render like a pandas DataFrame).
 * @example print(award_data.head(3))
 */
export function print(...args: unknown[]): void {
  emit('stdout', formatArgs(args) + '\n');
}

/**
 * Adds a table (or a chart spec) to the result without ending the run; other values are printed.
 * Arrays of plain objects become tables.
 * @example display(value_counts(award_data, 'Agency'))
 */
export function display(x: unknown): void {
  if (isTable(x)) return addDisplay(x);
  if (Array.isArray(x) && x.length > 0 && x.every((r) => r !== null && typeof r === 'object' && !Array.isArray(r))) {
    return addDisplay(from(x as object[]) as ColumnTable);
  }
  if (isChartSpec(x)) return void chart(x as Record<string, unknown>);
  print(x);
}

/** The guest's console: log/info/debug to stdout, warn/error/trace/assert to stderr. */
export function makeConsole(): Record<string, (...args: unknown[]) => void> {
  const timers = new Map<string, number>();
  const counts = new Map<string, number>();
  const out = (...a: unknown[]) => emit('stdout', formatArgs(a) + '\n');
  const err = (...a: unknown[]) => emit('stderr', formatArgs(a) + '\n');
  return {
    log: out,
    info: out,
    debug: out,
    warn: err,
    error: err,
    trace: (...a) => err('Trace:', ...a),
    dir: (x) => emit('stdout', inspect(x) + '\n'),
    table: (x) => out(isTable(x) ? x : Array.isArray(x) ? from(x as object[]) : x),
    assert: (cond, ...a) => {
      if (!cond) err('Assertion failed' + (a.length ? ':' : ''), ...a);
    },
    time: (label = 'default') => {
      timers.set(String(label), Date.now());
    },
    timeEnd: (label = 'default') => {
      const t0 = timers.get(String(label));
      if (t0 !== undefined) {
        timers.delete(String(label));
        out(`${label}: ${Date.now() - t0}ms`);
      }
    },
    count: (label = 'default') => {
      const n = (counts.get(String(label)) ?? 0) + 1;
      counts.set(String(label), n);
      out(`${label}: ${n}`);
    },
  };
}
