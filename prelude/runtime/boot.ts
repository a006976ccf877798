/**
 * globalThis.__sbirtools_boot(bridge): called once per context by the runtime. Captures the bridge,
 * builds the host tables over lazy columns, installs the prelude and returns the internals.
 */
import type { TableMeta } from '../../schema/columnar.js';
import type { CardDataset } from '../../schema/dataCard.js';
import {
  hostTables,
  type ColumnKindOf,
  type FetchRowWindow,
  type FetchColumn,
  type FetchColumnRange,
  type FetchTextPageOf,
  type TextScanOf,
  type TextCodesOf,
} from '../data/hostTables.js';
import { TextCache, textBudgets } from '../data/textCache.js';
import { setRowCacheBudget } from '../data/rowCache.js';
import { install } from '../install.js';
import { setWriter, type Write } from '../output/output.js';
import { setFileSink, type SaveFile } from '../output/files.js';
import { makeDescribeData } from './describeData.js';
import { makeExecute, makeExecuteFlat, type ExecuteOptions } from './execute.js';
import { endWarmUp, warmSlice, warmUp, type WarmSliceOutcome } from './warmUp.js';
import { NativeNumber } from '../intrinsics.js';

/** What the runtime passes to boot (docs/architecture.md). */
export interface Bridge {
  tables: TableMeta[];
  dataset?: CardDataset;
  fetchColumn: FetchColumn;
  /**
   * Optional: rows [start, end) of a utf8 column, offsets rebased to 0. When present, long text
   * columns are fetched in pages of 4096 rows instead of whole (see data/pagedText.ts).
   */
  fetchColumnRange?: FetchColumnRange;
  /**
   * Optional: rows [start, end) of a utf8 column decoded by the host into strings (TextPage).
   * When present, text is never decoded in the isolate and decoded pages stay cached in the
   * session between runs, within a budget from `limits.memoryLimitMb` (see data/textCache.ts).
   */
  fetchTextPage?: FetchTextPageOf;
  textScan?: TextScanOf;
  /** Optional: a long text column's dictionary codes built by the host (data/lazyColumn.ts hostCodes). */
  textCodes?: TextCodesOf;
  /** Optional: the kind of a column whose meta has `kindPending` (the host decodes it now). */
  columnKind?: ColumnKindOf;
  /** Optional: rows [start, end) of a non-text column not loaded yet, read alone; null: load it whole. */
  fetchRowWindow?: FetchRowWindow;
  write: Write;
  /** Optional: receives each file the run saves (to_csv, to_parquet...); without it saving fails with a clear error. */
  saveFile?: SaveFile;
  limits: {
    maxOutputBytes: number;
    maxResultBytes: number;
    maxRows: number;
    memoryLimitMb?: number;
    maxFileBytes?: number;
  };
}

/** What boot returns. */
export interface Internals {
  execute(code: string, opts?: Partial<ExecuteOptions>): string | Promise<string>;
  /** execute() with its options as numbers (execute.ts makeExecuteFlat): what isolated-vm calls. */
  executeFlat(code: string, flags: number, lineOffset: number, now: number, seed: number): string | Promise<string>;
  /**
   * The isolate's warm-up (warmUp.ts): the questions that threw, or null when refused because a
   * run has started in this context (user code may have run: it is never warmed then).
   */
  warm(): string[] | null;
  /**
   * One slice of the warm-up (warmUp.ts warmSlice), for a session warmed in idle time: null when
   * refused, as `warm`.
   */
  warmSlice(slice: number): WarmSliceOutcome | null;
}

let booted = false;

/**
 * Boots the prelude in this context.
 * @throws when called twice, or when the bridge lacks a callback
 */
export function boot(bridge: Bridge): Internals {
  if (booted) throw new Error('__sbirtools_boot: already booted in this context');
  if (!bridge || typeof bridge.fetchColumn !== 'function' || typeof bridge.write !== 'function') {
    throw new TypeError('__sbirtools_boot: bridge.fetchColumn and bridge.write must be functions');
  }
  booted = true;
  // Arquero's parser recurses deeply; keep enough frames to reach the user's line in analysis.js
  (Error as { stackTraceLimit?: number }).stackTraceLimit = 64;
  // copy what we keep: later changes to the bridge object (it is reachable by nobody else) cannot matter
  const write = bridge.write;
  const fetchColumn = bridge.fetchColumn;
  const limits = {
    maxOutputBytes: NativeNumber(bridge.limits?.maxOutputBytes) || 1 << 20,
    maxResultBytes: NativeNumber(bridge.limits?.maxResultBytes) || 1 << 20,
    maxRows: NativeNumber(bridge.limits?.maxRows) || 1000,
  };
  setWriter((stream, text) => write(stream, text));
  const save = typeof bridge.saveFile === 'function' ? bridge.saveFile : null;
  setFileSink(
    save && ((name, mediaType, bytes) => save(name, mediaType, bytes)),
    NativeNumber(bridge.limits?.maxFileBytes) || 0,
  );
  const fetchRange = typeof bridge.fetchColumnRange === 'function' ? bridge.fetchColumnRange : undefined;
  const fetchText = typeof bridge.fetchTextPage === 'function' ? bridge.fetchTextPage : undefined;
  const scanText = typeof bridge.textScan === 'function' ? bridge.textScan : undefined;
  const textCodes = typeof bridge.textCodes === 'function' ? bridge.textCodes : undefined;
  const columnKind = typeof bridge.columnKind === 'function' ? bridge.columnKind : undefined;
  const fetchWindow = typeof bridge.fetchRowWindow === 'function' ? bridge.fetchRowWindow : undefined;
  const budgets = textBudgets(bridge.limits?.memoryLimitMb);
  setRowCacheBudget(bridge.limits?.memoryLimitMb);
  const tables = hostTables(bridge.tables ?? [], (t, c) => fetchColumn(t, c), {
    fetchRange: fetchRange && ((t, c, s, e) => fetchRange(t, c, s, e)),
    fetchText: fetchText && ((t, c, s, e) => fetchText(t, c, s, e)),
    scanText: scanText && ((t, c, s, e, q) => scanText(t, c, s, e, q)),
    textCodes: textCodes && ((t, c) => textCodes(t, c)),
    columnKind: columnKind && ((t, c) => columnKind(t, c)),
    fetchWindow: fetchWindow && ((t, c, s, e) => fetchWindow(t, c, s, e)),
    textCache: new TextCache(budgets.budgetBytes, budgets.idleBytes),
  });
  const extra: Record<string, unknown> = {
    award_data: undefined,
    describeData: makeDescribeData(tables, bridge.dataset),
  };
  for (const [name, t] of Object.entries(tables)) extra[name] = t;
  install(extra);
  for (const [name, t] of Object.entries(tables))
    if (name !== 'award_data')
      Object.defineProperty(globalThis, name, { value: t, writable: true, configurable: true });
  // every table also in one `tables` object (the Python runner spec had `dfs` beside per-table globals)
  Object.defineProperty(globalThis, 'tables', {
    value: Object.freeze({ ...tables }),
    writable: true,
    configurable: true,
  });
  let ran = false;
  const execute = makeExecute(limits, () => {
    ran = true;
    endWarmUp();
  });
  return {
    execute,
    executeFlat: makeExecuteFlat(execute),
    warm: () => (ran ? null : warmUp()),
    warmSlice: (slice) => (ran ? null : warmSlice(NativeNumber(slice))),
  };
}
