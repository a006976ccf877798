// Test-only runtime side of the prelude contract (docs/architecture.md): one isolate, the bundle,
// a bridge with write/fetchColumn callbacks, and execute() called through a Reference.
// The lead's runtime replaces this in most tests; keep it small.
import { readFileSync } from 'node:fs';
import { loadEngine } from '../../../src/runtime/engines/isolated-vm/loadIsolatedVm.js';
import { fileURLToPath } from 'node:url';
import type { ColumnData, ColumnarTable, TextScanRequest } from '../../../schema/columnar.js';
import { AWARDS, DATASET } from './fixture.js';
import { GuestOutcomeSchema } from './outcomeSchema.js';
import { GuestOutcomeSchema as HostOutcomeSchema } from '../../../schema/guest.js';
import { textPage } from '../../../src/data/columns/textPage.js';
import { textScan } from '../../../src/data/columns/textScan.js';
import { windowOfColumn } from '../../../src/data/cache/rowWindow.js';

// whichever isolated-vm build loads on this Node (6.x, 7.x on Node 26, 5.0.4 on Node 20)
const ivm = loadIvmForTests();

export const BUNDLE_PATH = fileURLToPath(new URL('../../../dist/prelude/bundle.js', import.meta.url));

/** What execute() returned, parsed, plus the captured streams of that run. */
export interface Outcome {
  ok: boolean;
  value?: unknown;
  valueText?: string;
  table?: {
    columns: string[];
    dtypes: string[];
    rows: unknown[][];
    totalRows: number;
    truncated: boolean;
    markdown: string;
  };
  displays?: Outcome['table'][];
  charts?: Array<{ kind: string; spec: Record<string, unknown>; title?: string }>;
  error?: { name: string; message: string; line?: number; column?: number; stack?: string; hint?: string };
  truncatedValue?: boolean;
  truncatedOutput: boolean;
  stdout: string;
  stderr: string;
  raw: string;
}

export interface HarnessOptions {
  tables?: ColumnarTable[];
  dataset?: Record<string, unknown>;
  limits?: Partial<{ maxOutputBytes: number; maxResultBytes: number; maxRows: number }>;
  /** Also offer bridge.fetchColumnRange (utf8 columns then load in pages of rows). */
  paged?: boolean;
  /** Also offer bridge.fetchTextPage (utf8 columns then arrive decoded by the host, cached in the session). */
  textPages?: boolean;
  /** Also offer bridge.textScan (questions answered from the bytes by src/data/columns/textScan.ts), logged as "t/c(op:start:end)". */
  textScan?: boolean;
  /** Also offer bridge.fetchRowWindow (a few rows of a non-text column read alone, through src/data/cache/rowWindow.ts). */
  windows?: boolean;
  /** `limits.memoryLimitMb` as the bridge reports it (sizes the text cache; the isolate itself gets 256 MB). */
  memoryLimitMb?: number;
}

/** Rows [start, end) of a utf8 column with offsets rebased to 0: what fetchColumnRange returns. */
export function sliceUtf8(data: ColumnData, start: number, end: number): ColumnData {
  if (data.kind !== 'utf8') throw new Error('fetchColumnRange serves utf8 columns only');
  const base = data.offsets[start];
  const offsets = Int32Array.from({ length: end - start + 1 }, (_, i) => data.offsets[start + i] - base);
  return {
    kind: 'utf8',
    type: 'string',
    bytes: data.bytes.slice(base, data.offsets[end]),
    offsets,
    valid: data.valid.slice(start, end),
  };
}

export interface Harness {
  run(code: string, opts?: Record<string, unknown>): Promise<Outcome>;
  /** Columns the guest fetched, in order ("table/column"). */
  fetched: string[];
  dispose(): void;
}

/** The CPU time one run may use before the harness stops it (a hang in the prelude fails the test). */
const RUN_CPU_MS = 20_000;

/** Boots the prelude in a fresh isolate. */
export function createHarness(options: HarnessOptions = {}): Harness {
  const tables = options.tables ?? [AWARDS];
  const limits = {
    maxOutputBytes: 64 * 1024,
    maxResultBytes: 256 * 1024,
    maxRows: 200,
    maxFileBytes: 4 * 1024 * 1024,
    ...options.limits,
  };
  const isolate = new ivm.Isolate({ memoryLimit: 256 });
  const context = isolate.createContextSync();
  isolate.compileScriptSync(readFileSync(BUNDLE_PATH, 'utf8'), { filename: 'sbirtools-prelude.js' }).runSync(context);
  const streams = { stdout: '', stderr: '' };
  const fetched: string[] = [];
  const write = new ivm.Callback((stream: 'stdout' | 'stderr', text: string) => {
    streams[stream] += text;
  });
  // files saved by the code are counted, not kept (the runtime's FileSink is tested elsewhere)
  const saveFile = new ivm.Callback((_name: string, _type: string, bytes: Uint8Array) => {
    if (!(bytes instanceof Uint8Array)) throw new Error('not bytes');
  });
  const fetchColumn = new ivm.Callback((table: string, column: string) => {
    fetched.push(`${table}/${column}`);
    const col = tables.find((t) => t.name === table)?.columns.find((c) => c.name === column);
    if (!col) throw new Error(`no column ${table}/${column}`);
    return col.data;
  });
  const fetchColumnRange = new ivm.Callback((table: string, column: string, start: number, end: number) => {
    fetched.push(`${table}/${column}[${start}:${end}]`);
    const col = tables.find((t) => t.name === table)?.columns.find((c) => c.name === column);
    if (!col) throw new Error(`no column ${table}/${column}`);
    return sliceUtf8(col.data, start, end);
  });
  const fetchTextPage = new ivm.Callback((table: string, column: string, start: number, end: number) => {
    fetched.push(`${table}/${column}{${start}:${end}}`);
    const col = tables.find((t) => t.name === table)?.columns.find((c) => c.name === column);
    if (!col) throw new Error(`no column ${table}/${column}`);
    return textPage(col.data, start, end);
  });
  const fetchRowWindow = new ivm.Callback((table: string, column: string, start: number, end: number) => {
    fetched.push(`${table}/${column}<${start}:${end}>`);
    const col = tables.find((t) => t.name === table)?.columns.find((c) => c.name === column);
    if (!col) throw new Error(`no column ${table}/${column}`);
    return windowOfColumn(col.data, start, end);
  });
  const scanText = new ivm.Callback(
    (table: string, column: string, start: number, end: number, req: TextScanRequest) => {
      fetched.push(`${table}/${column}(${req.op}:${start}:${end})`);
      const col = tables.find((t) => t.name === table)?.columns.find((c) => c.name === column);
      if (!col) throw new Error(`no column ${table}/${column}`);
      return textScan(col.data, start, end, req);
    },
  );
  const metas = tables.map((t) => ({
    name: t.name,
    numRows: t.numRows,
    columns: t.columns.map(({ name, type, kind }) => ({ name, type, kind })),
  }));
  const bridgeLimits = options.memoryLimitMb ? { ...limits, memoryLimitMb: options.memoryLimitMb } : limits;
  const bridge = new ivm.ExternalCopy({
    tables: metas,
    dataset: options.dataset ?? DATASET,
    limits: bridgeLimits,
  }).copyInto();
  context.evalClosureSync(
    'const b = $0; b.write = $1; b.fetchColumn = $2; if ($3) b.fetchColumnRange = $3; if ($4) b.fetchTextPage = $4; b.saveFile = $5; if ($6) b.fetchRowWindow = $6; if ($7) b.textScan = $7; globalThis.__internals = __sbirtools_boot(b); delete globalThis.__sbirtools_boot;',
    [
      bridge,
      write,
      fetchColumn,
      options.paged || options.textPages ? fetchColumnRange : null,
      options.textPages ? fetchTextPage : null,
      saveFile,
      options.windows ? fetchRowWindow : null,
      options.textScan ? scanText : null,
    ],
  );
  const execute = context.evalClosureSync(
    'const x = globalThis.__internals.execute; delete globalThis.__internals; return x;',
    [],
    { result: { reference: true } },
  );
  return {
    fetched,
    async run(code, opts = {}) {
      streams.stdout = '';
      streams.stderr = '';
      // The hang guard counts CPU time, not the wall clock: on a loaded machine (CI, 2 cores, 10+
      // runnable processes) a run of 2 s of CPU took more than 20 s of wall time and timed out.
      // isolated-vm's own `timeout` and `isolate.cpuTime` both run on the wall clock while the
      // isolate works, so this reads the CPU time of this process (one test file per process).
      const cpu0 = process.cpuUsage();
      let overrun = false;
      const watch = setInterval(() => {
        const { user, system } = process.cpuUsage(cpu0);
        if ((user + system) / 1000 <= RUN_CPU_MS) return;
        overrun = true;
        isolate.dispose();
      }, 100);
      let raw: string;
      try {
        raw = await execute.apply(undefined, [code, { async: false, lineOffset: 0, resultName: false, ...opts }], {
          arguments: { copy: true },
          result: { promise: true, copy: true },
        });
      } catch (err) {
        if (overrun) throw new Error(`the run used more than ${RUN_CPU_MS} ms of CPU time: its isolate was disposed`);
        throw err;
      } finally {
        clearInterval(watch);
      }
      if (typeof raw !== 'string') throw new Error(`execute() returned ${typeof raw}, not a string`);
      const parsed = GuestOutcomeSchema.parse(JSON.parse(raw)); // every run must be a valid GuestOutcome
      HostOutcomeSchema.parse(parsed); // ... and pass the host's own check (src/result/buildResult.ts)
      return { ...parsed, stdout: streams.stdout, stderr: streams.stderr, raw } as Outcome;
    },
    dispose() {
      if (!isolate.isDisposed) isolate.dispose();
    },
  };
}

function loadIvmForTests(): any {
  return loadEngine().ivm;
}
