/**
 * The spare isolate's warm-up (opt-in; docs/architecture.md "Spare isolates and the warm-up"): a few
 * questions in the styles models write, once each, on a small synthetic table (warmTable.ts), so
 * the session that takes the spare finds the prelude's common paths compiled (V8 compiles a
 * function on its first call) and with type feedback, instead of paying that on its first question.
 *
 * It runs only in an isolate no user code has touched: the host calls it on a spare before the
 * spare is handed to a session (holder/warmSessions.ts), and the prelude refuses once any run has
 * started (boot.ts), so no function a user wrote (a FinalizationRegistry callback, a replaced
 * builtin) can ever run inside it. It leaves nothing a run can see: no global, no output, no
 * result; the mask tokens and row-cache entries it made are put back, the table is dropped.
 */
import * as aq from 'arquero';
import { rowsCheckpoint } from '../data/rowCache.js';
import { maskCheckpoint } from '../series/maskRegistry.js';
import { warmTable } from './warmTable.js';
import { NativeString } from '../intrinsics.js';

/** The installed prelude on a table: its methods, column access and Series are added at run time. */
type T = any;

/** Arquero's ops as table expressions call them. */
const op: T = aq.op;

/**
 * One question each: the first questions models write, in the four styles (bench/model-styles.mjs).
 * No `value_counts`: after one on this table's small dictionaries, the session's first
 * `value_counts` on award_data was slower than in a cold isolate (docs/benchmarks.md).
 */
const QUESTIONS: Array<(t: T) => unknown> = [
  (t) => [t.amount.sum(), t.amount.mean(), t.year.sum(), t.year.min(), t.amount.max()],
  (t) => [t.phase.eq('Phase II').sum(), t.amount.gt(1e6).sum()],
  (t) => t[t.agency.eq('NASA').and(t.year.ge(2015))].amount.sum(),
  (t) => t.groupby('agency').amount.sum().sort_values({ ascending: false }).head(5),
  (t) => [t.date.max(), t.date.dt.year.eq(2021).sum()],
  (t) => t.title.str.contains('quantum', { case: false }).sum(),
  (t) =>
    t
      .groupby('agency')
      .rollup({ total: op.sum('amount'), n: op.count() })
      .orderby(aq.desc('total'))
      .slice(0, 5)
      .objects(),
  (t) =>
    t
      .filter((d: T) => d.phase === 'Phase II')
      .rollup({ s: op.sum('amount'), m: op.mean('amount') })
      .objects(),
  (t) => {
    let s = 0;
    for (const r of t.select('agency', 'amount').objects()) if (r.agency === 'NASA') s += r.amount || 0;
    for (const r of t.select('phase', 'amount').tolist()) if (r[0] === 'Phase I') s += r[1] || 0;
    const a = t.array('amount');
    for (let i = 0; i < a.length; i++) s += a[i] || 0;
    return s;
  },
];

/**
 * Runs every question once; returns the ones that threw, as `index: message` (a question that
 * fails warms less, and the session is unaffected: tests require none).
 */
export function warmUp(): string[] {
  const failed: string[] = [];
  const undoMasks = maskCheckpoint();
  const undoRows = rowsCheckpoint();
  try {
    const table = warmTable();
    for (let q = 0; q < QUESTIONS.length; q++) {
      try {
        QUESTIONS[q]!(table);
      } catch (e) {
        failed.push(`${q}: ${NativeString((e as Error)?.message ?? e)}`);
      }
    }
  } finally {
    undoMasks();
    undoRows();
  }
  return failed;
}
