/**
 * The warm-up (docs/architecture.md "The warm prelude"): the code models write, run on a synthetic
 * table (warmTable.ts) in idle time, so that a session's first question finds the prelude's loops
 * already compiled and optimised by V8 instead of paying the interpreter, lazy compilation and
 * on-stack replacement over 219,590 rows. The runtime calls `warm('step')` repeatedly while the
 * isolate is idle (each step is one question, a few milliseconds); a run arriving waits for at
 * most the step in flight.
 *
 * It leaves nothing a user can see: no global, no output (nothing here prints), no file, no
 * result; the mask tokens and the row cache entries a step made are taken back after it; the
 * synthetic table has its own text cache and is dropped when a run starts (execute() calls
 * `releaseWarmUp`) and when the warm-up ends. Once a run has changed a builtin (realmSnapshot.ts)
 * the session is not warmed again: the warm-up never calls a function the user's code wrote.
 */
import * as aq from 'arquero';
import type { ColumnTable } from 'arquero';
import { rowsCheckpoint } from '../data/rowCache.js';
import { maskCheckpoint } from '../series/maskRegistry.js';
import { snapshotRealm } from './realmSnapshot.js';
import { warmTable } from './warmTable.js';

/** The installed prelude on a table: its methods, column access and Series are added at run time. */
type T = any;

/** Arquero's ops as table expressions call them (with any column value). */
const op: T = aq.op;

/** One question each, in the four styles the bench measures (bench/model-styles.mjs). */
const QUESTIONS: Array<(t: T) => unknown> = [
  // Series reductions and masks
  (t) => t.amount.sum() + t.amount.mean() + t.staff.mean(),
  (t) => [t.amount.min(), t.amount.max(), t.year.min(), t.year.max(), t.amount.idxmax()],
  (t) => [t.amount.median(), t.amount.quantile(0.9), t.amount.std()],
  (t) => t.amount.describe(),
  (t) => [t.phase.eq('Phase II').sum(), t.flag.eq('Y').mean(), t.amount.gt(1e6).sum()],
  (t) => t[t.agency.eq('NASA').and(t.year.ge(2015))].amount.sum(),
  (t) => t[t.flag.eq('Y')].amount.mean(),
  (t) => [t.agency.value_counts().head(5), t.year.value_counts().sort_index(), t.company.nunique()],
  (t) => t[t.phase.eq('Phase II')].agency.value_counts().head(3),
  // group-by
  (t) => t.groupby('agency').amount.sum().sort_values({ ascending: false }).head(5),
  (t) => [t.groupby('company').amount.sum().nlargest(5), t.groupby('phase').amount.mean()],
  (t) => t.groupby(['agency', 'phase']).size().sort_values('size', { ascending: false }).head(5).objects(),
  (t) => t[t.year.ge(2018)].groupby('year').amount.sum(),
  // dates
  (t) => [t.date.max(), t.date.dt.year.eq(2021).sum()],
  (t) => t[t.date.dt.year.eq(2021)].date.dt.month.value_counts(),
  // text
  (t) => t.title.str.contains('quantum', { case: false }).sum(),
  (t) => {
    const len = t.abstract.str.len();
    return len.filter(len.ge(100)).mean();
  },
  (t) => [t.abstract.str.contains('machine learning', { regex: false }).sum(), t.abstract.isna().sum()],
  // sorting
  (t) => [t.sort_values('amount', { ascending: false }).head(5).objects(), t.nlargest(3, 'amount').objects()],
  // Arquero verbs
  (t) =>
    t
      .rollup({
        s: op.sum('amount'),
        m: op.mean('amount'),
        lo: op.min('year'),
        hi: op.max('year'),
        md: op.median('amount'),
      })
      .objects(),
  (t) => [t.filter((d: T) => d.phase === 'Phase II').numRows(), t.filter((d: T) => d.amount > 1e6).numRows()],
  (t) =>
    t
      .filter((d: T) => d.agency === 'NASA' && d.year >= 2015)
      .rollup({ s: op.sum('amount') })
      .get('s', 0),
  (t) => t.groupby('agency').count().orderby(aq.desc('count')).slice(0, 5).objects(),
  (t) =>
    t
      .groupby('agency')
      .rollup({ total: op.sum('amount') })
      .orderby(aq.desc('total'))
      .slice(0, 5)
      .objects(),
  (t) =>
    t
      .groupby('phase')
      .rollup({ mean: op.mean('amount') })
      .orderby('phase')
      .objects(),
  (t) =>
    t
      .filter((d: T) => d.company != null)
      .rollup({ n: op.distinct('company') })
      .get('n', 0),
  (t) => t.orderby(aq.desc('amount')).slice(0, 1).objects()[0],
  (t) =>
    t
      .derive({ m: (d: T) => d.amount / 1e6 })
      .filter((d: T) => d.m > 1)
      .objects().length,
  (t) => t.filter((d: T) => op.includes(op.lower(d.title), 'quantum')).numRows(),
  (t) =>
    t
      .derive({ len: (d: T) => op.length(d.abstract) })
      .filter((d: T) => d.len >= 100)
      .rollup({ m: op.mean('len') })
      .get('m', 0),
  // rows: objects(), tolist(), array(), a loop over the table
  (t) => {
    let s = 0;
    for (const r of t.select('amount').objects()) s += r.amount || 0;
    for (const r of t.select('agency', 'amount').objects()) if (r.agency === 'NASA') s += r.amount || 0;
    return s;
  },
  (t) => {
    let s = 0;
    for (const r of t.select('phase', 'amount').tolist()) if (r[0] === 'Phase I') s += r[1] || 0;
    const a = t.array('amount');
    for (let i = 0; i < a.length; i++) s += a[i] || 0;
    const k = t.array('agency');
    for (let i = 0; i < k.length; i++) if (k[i] === 'NASA') s++;
    return s + t.get('company', 7);
  },
  (t) => {
    let n = 0;
    for (const r of t) if (r.agency === 'NASA') n++;
    return [n, t.filter((d: T) => d.phase === 'Phase II').objects({ limit: 20 })];
  },
];

/** Rounds over QUESTIONS: the first compiles, the later ones give V8 the calls it optimises on. */
const ROUNDS = 3;

/** What execute() and the runtime call (boot.ts). */
export interface WarmUp {
  /**
   * 'step': runs the next question; true while more remain (false: done, or the session is not
   * warmed any more). 'record': records the builtins (the runtime calls it once, after hardening
   * the globals and before any user code).
   */
  warm(what: 'step' | 'record'): boolean;
  /** The questions that threw, as `index: message` (tests: every question must run). */
  failures(): string[];
  /** A run starts: drop the synthetic table, and check the builtins before the next step. */
  release(): void;
}

/** The warm-up state of one session. */
export function makeWarmUp(): WarmUp {
  let next = 0;
  let table: ColumnTable | null = null;
  let unchanged: (() => boolean) | null = null;
  let ranSince = false;
  const failed: string[] = [];
  const end = () => {
    next = ROUNDS * QUESTIONS.length;
    table = null;
    return false;
  };
  return {
    warm(what) {
      if (what === 'record') {
        unchanged ??= snapshotRealm();
        return true;
      }
      if (next >= ROUNDS * QUESTIONS.length || !unchanged) return end();
      if (ranSince) {
        if (!unchanged()) return end();
        ranSince = false;
      }
      if (!table) {
        // the table alone is a step: the questions' steps stay short
        table = warmTable();
        return true;
      }
      const q = QUESTIONS[next % QUESTIONS.length]!;
      next++;
      const undoMasks = maskCheckpoint();
      const undoRows = rowsCheckpoint();
      try {
        q(table);
      } catch (e) {
        // a question that fails warms less; the session is unaffected (nothing of it is kept)
        if (failed.length < 100) failed.push(`${(next - 1) % QUESTIONS.length}: ${String((e as Error)?.message ?? e)}`);
      } finally {
        undoMasks();
        undoRows();
      }
      return next < ROUNDS * QUESTIONS.length || end();
    },
    failures: () => failed.slice(),
    release() {
      ranSince = true;
      table = null;
    },
  };
}
