/**
 * The isolate's warm-up (docs/architecture.md "Spare isolates and the warm-up"): a few questions in
 * the styles models write, once each, on a small synthetic table (warmTable.ts), so the session
 * finds the prelude's common paths compiled (V8 compiles a function on its first call) and with
 * type feedback, instead of paying that on its first question. It runs in a session's isolate built
 * at its open, before the open returns (holder/sessionHost.ts, opt-in), in a spare when spares are
 * warmed (opt-in), and one slice at a time (warmSlice) in a session built at its open, in idle
 * time before its first run (holder/idleWarmUp.ts).
 *
 * It runs only in an isolate no user code has touched: the host calls it before any run (on a spare
 * before the spare is handed to a session, holder/warmSessions.ts), and the prelude refuses once any run has
 * started (boot.ts), so no function a user wrote (a FinalizationRegistry callback, a replaced
 * builtin) can ever run inside it. It leaves nothing a run can see: no global, no output, no
 * result; the mask tokens and row-cache entries it made are put back, the table is dropped.
 */
import * as aq from 'arquero';
import { rowsCheckpoint } from '../data/rowCache.js';
import { maskCheckpoint } from '../series/maskRegistry.js';
import { warmTable } from './warmTable.js';
import { ROW_LOOP_GLOBAL } from '../../schema/rowLoop.js';
import { HAND_SORT_GLOBAL } from '../../schema/handSort.js';
import { ARRAY_CHAIN_GLOBAL } from '../../schema/arrayChain.js';
import { NativeString } from '../intrinsics.js';

/** The installed prelude on a table: its methods, column access and Series are added at run time. */
type T = any;

/** Arquero's ops as table expressions call them. */
const op: T = aq.op;

/**
 * The entries the host's transform inserts into a program (src/runtime/prepare/: row loops, keyed
 * loops, array chains, sorts), installed at boot; read when the warm-up runs.
 */
const rowLoop = (): T => (globalThis as T)[ROW_LOOP_GLOBAL];
const sort = (): T => (globalThis as T)[HAND_SORT_GLOBAL];
const chain = (): T => (globalThis as T)[ARRAY_CHAIN_GLOBAL];

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
  // The same styles as the host's transform rewrites them (bench/model-styles.mjs prepared by
  // src/runtime/prepare/transform.ts): a row loop, keyed counts and sums over objects() and
  // array(), an index loop into a Map, row and array chains, tolist() rows, a loop over the table,
  // sorts and min/max of a spread.
  (t) => {
    let s = 0;
    for (const r of t.select('amount').objects(rowLoop().open(['amount']))) s += r.amount || 0;
    const c: Record<string, number> = {};
    for (const r of t
      .select('agency')
      .objects(rowLoop().open(['agency'], ['keyed'], [['object', '||', ['f', 0], null, ['n', 1]], c])))
      c[r.agency] = (c[r.agency] || 0) + 1;
    const d: Record<string, number> = {};
    for (const r of t
      .select('agency', 'amount')
      .objects(
        rowLoop().open(
          ['agency', 'amount'],
          ['keyed'],
          [['object', '||', ['f', 0], null, ['L', '||', ['f', 1], ['n', 0]]], d],
        ),
      ))
      d[r.agency] = (d[r.agency] || 0) + (r.amount || 0);
    const by = sort().by(Object.entries(c), 1, '1') as Array<[string, number]>;
    return [s, by.sort((x, y) => y[1] - x[1]).slice(0, 5), Object.keys(d).length];
  },
  (t) => {
    const m = new Map<unknown, number>();
    for (const y of t.array('year', rowLoop().open(['y'], ['keyed'], [['map', '||', ['f', 0], null, ['n', 1]], m])))
      m.set(y, (m.get(y) || 0) + 1);
    const p = t.array('phase');
    const a = t.array('amount');
    const acc = new Map<unknown, number[]>();
    const spec = [
      'map',
      'entry',
      ['f', 0],
      ['!', ['b', '==', ['f', 1], ['l', null]]],
      [
        'e',
        'a',
        ['0', '1'],
        [
          ['n', 0],
          ['n', 0],
        ],
        [
          [0, ['f', 1]],
          [1, ['n', 1]],
        ],
      ],
    ];
    if (!rowLoop().keyed(spec, acc, [p, a]))
      for (let i = 0; i < p.length; i++) {
        if (a[i] == null) continue;
        const e = acc.get(p[i]) || [0, 0];
        e[0]! += a[i];
        e[1]!++;
        acc.set(p[i], e);
      }
    return [(sort().by([...m], 0, '0') as Array<[number, number]>).sort((x, y) => x[0] - y[0]), [...acc]];
  },
  (t) => {
    const n = t
      .select('phase')
      .objects(rowLoop().open(['phase'], ['filter', 'length']))
      .filter((r: T) => r.phase === 'Phase II').length;
    const y = chain().e(
      chain()
        .a(chain().t(t).array('year'))
        .filter((v: T) => v != null),
    );
    // `year` has no nulls: its 4,096 values reach the hand sort (HAND_SORT_MIN_LENGTH), as a column of award_data does
    const sorted = (
      sort().by(
        chain().e(
          chain()
            .a(chain().t(t).array('year'))
            .filter((v: T) => v != null),
        ),
        0,
      ) as number[]
    ).sort((x, z) => x - z);
    const plucked = (
      sort().by(
        chain().e(
          chain()
            .a(
              t
                .select('year')
                // the token's `pluck` promises the transform's shape: one `map(r => r.F)`
                .objects(rowLoop().open(['year'], ['pluck']))
                .map((r: T) => r.year),
            )
            .filter((v: T) => v != null),
        ),
        1,
      ) as number[]
    ).sort((x, z) => z - x);
    const big = chain()
      .a(chain().t(t).array('amount'))
      .filter((v: T) => v > 1e6).length;
    let s = 0;
    for (const [phase, amount] of t.select('phase', 'amount').tolist(rowLoop().open([], ['rows'])))
      if (phase === 'Phase I') s += amount || 0;
    let k = 0;
    for (const r of rowLoop().rows(t.select('agency'), ['agency'])) if (r.agency === 'NASA') k++;
    return [
      n,
      Math.min(...sort().min(y)),
      Math.max(...sort().max(y)),
      sorted[sorted.length >> 1],
      plucked[0],
      big,
      s,
      k,
    ];
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
    for (let q = 0; q < QUESTIONS.length; q++) ask(q, table, failed);
  } finally {
    undoMasks();
    undoRows();
  }
  return failed;
}

/** What one slice of the warm-up reports: the questions that threw, and whether it was the last. */
export interface WarmSliceOutcome {
  failed: string[];
  done: boolean;
}

/** The synthetic table of a sliced warm-up, kept between its slices; dropped after the last or by endWarmUp. */
let sliceTable: T | undefined;

/**
 * One slice of the warm-up, for a session warmed in idle time (holder/idleWarmUp.ts): slice 0
 * makes the synthetic table, slice `q + 1` asks question `q`, so the host can stop between any two
 * and a run waits at most for one. Each slice puts back the mask tokens and row-cache entries it
 * made, so the session between two slices is as a cold one plus compiled code and the table.
 */
export function warmSlice(slice: number): WarmSliceOutcome {
  const failed: string[] = [];
  const undoMasks = maskCheckpoint();
  const undoRows = rowsCheckpoint();
  try {
    if (slice === 0 || sliceTable === undefined) sliceTable = warmTable();
    if (slice > 0) ask(slice - 1, sliceTable, failed);
  } finally {
    undoMasks();
    undoRows();
  }
  const done = slice >= QUESTIONS.length;
  if (done) sliceTable = undefined;
  return { failed, done };
}

/** Drops a sliced warm-up's table (the first run of the session calls it: no slice runs after). */
export function endWarmUp(): void {
  sliceTable = undefined;
}

function ask(q: number, table: T, failed: string[]): void {
  try {
    QUESTIONS[q]!(table);
  } catch (e) {
    failed.push(`${q}: ${NativeString((e as Error)?.message ?? e)}`);
  }
}
