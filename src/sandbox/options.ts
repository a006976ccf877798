import { SANDBOX_OPTION_KEYS, SandboxOptionsSchema } from '../../schema/options.js';
import type { Limits, PresetName } from '../../schema/limits.js';
import type { ColumnarTable } from '../../schema/columnar.js';
import type { SessionSpec, TableSpec } from '../runtime/holder/protocol.js';
import { SbirtoolsValidationError } from '../core/errors.js';
import { ENGINE_CHOICES, ENGINE_CHOICES_TEXT, type EngineChoice } from '../../schema/engine.js';
import { resolveDataSource, tableFromArquero, tableFromRows } from '../data/index.js';
import { loadTable, type TableSource } from '../data/formats/loadTable.js';
import { tableCapsFrom } from '../data/formats/tableLimits.js';
import { uniqueDictionaries } from '../data/columns/uniqueDictionaries.js';
import { checkTableName } from './tableName.js';

/**
 * A table for `tables`: a path or http(s) URL of a CSV, Parquet, Arrow IPC, JSON or NDJSON file;
 * its bytes (Uint8Array/ArrayBuffer, format from its magic bytes); `{ path | url | bytes, format }`;
 * an Arquero table (host `arquero` package); an array of row objects; or a table already in the
 * columnar transfer format (schema/columnar.ts, e.g. from `loadTable()`), used as it is (a
 * dictionary column that holds one string twice gets one entry per string first).
 */
export type TableInput =
  | TableSource
  | ColumnarTable
  | { columnNames(): string[]; array(name: string): ArrayLike<unknown> }
  | Array<Record<string, unknown>>;

/** Options of createSandbox() and run(). Every field is optional; see docs and schema/options.ts. */
export interface SandboxOptions extends Partial<Limits> {
  /** Limit preset; explicit limits override it. @default 'standard' */
  preset?: PresetName;
  /**
   * award_data from a local SBIR CSV (either layout), a folder built by `sbirtools build-data`, or
   * the https:// URL of such a folder on a static host (docs/dataset.md "Remote data").
   * @default $SBIRTOOLS_DATA_URL, $SBIRTOOLS_CSV_PATH, the download, or the synthetic sample
   */
  dataPath?: string;
  /** How remote data is fetched: limits and permissions (src/data/remote/remoteOptions.ts). */
  remoteData?: import('../data/remote/remoteOptions.js').RemoteOptions;
  /** Cache folder. @default $SBIRTOOLS_CACHE_DIR or ~/.cache/sbirtools */
  cacheDir?: string;
  /** Expose award_data. @default true */
  awardData?: boolean;
  /** More tables, each exposed by its name and in `tables`. */
  tables?: Record<string, TableInput>;
  /**
   * Largest table file in `tables` (Parquet, Arrow, JSON, NDJSON), in MiB; a larger one is refused
   * with `DATA_TOO_LARGE` naming this option. CLI `--table-file-max-mb`.
   * @default max(512, host memory / 8), or $SBIRTOOLS_TABLE_FILE_MAX_MB (docs/dataset.md, size caps)
   */
  tableFileMaxMb?: number;
  /**
   * Most bytes the pages of one table file may inflate to, together, in MiB. CLI `--table-inflate-max-mb`.
   * @default max(2048, host memory / 2), or $SBIRTOOLS_TABLE_INFLATE_MAX_MB
   */
  tableInflateMaxMb?: number;
  /** Where isolates live. @default 'process' */
  isolation?: 'process' | 'inline';
  /** Run on this pool's holder processes (from createPool()). */
  pool?: { readonly backend: import('../runtime/holder/backend.js').Backend };
  /**
   * 'low': this sandbox's isolate lives in a holder process at a lower CPU scheduling priority
   * (`nice` 10, or the pool's `lowPriorityNice`), so when the cores are contended the kernel runs
   * other sandboxes' code first; alone on the machine it runs as fast. The server gives this to
   * callers over their fair share (docs/deploy.md, "Fairness"). Needs `isolation: 'process'`.
   * @default 'normal'
   */
  priority?: 'normal' | 'low';
  /** Freeze Date.now() and seed Math.random for every run. @default false */
  deterministic?: boolean;
  /**
   * Which engine runs the code: 'isolated-vm' (V8 isolates, a native addon), 'quickjs' (QuickJS
   * compiled to WASM: no native code; Bun, Deno, hosts without addons), or 'auto' (isolated-vm when
   * it loads, else QuickJS). Each result says which ran (`result.engine`). See docs/engines.md.
   * @default $SBIRTOOLS_ENGINE or 'auto'
   */
  engine?: EngineChoice;
}

export type ValidatedOptions = SandboxOptions;

const KNOWN = new Set(SANDBOX_OPTION_KEYS);

/**
 * Validate options up front; the message names the option and echoes the bad value.
 * @throws {SbirtoolsValidationError}
 */
export function validateOptions(options: unknown): ValidatedOptions {
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    throw new SbirtoolsValidationError(
      `Expected options to be an object, got \`${options === null ? 'null' : Array.isArray(options) ? 'array' : typeof options}\``,
    );
  }
  for (const key of Object.keys(options)) {
    if (!KNOWN.has(key))
      throw new SbirtoolsValidationError(`Unknown option \`${key}\`. Known options: ${[...KNOWN].join(', ')}.`);
  }
  const parsed = SandboxOptionsSchema.safeParse(options);
  if (!parsed.success) throw new SbirtoolsValidationError(parsed.error.issues.map((i) => i.message).join('; '));
  const o = options as SandboxOptions;
  if (o.pool !== undefined && !(o.pool && typeof o.pool === 'object' && 'backend' in o.pool)) {
    throw new SbirtoolsValidationError('Expected the `pool` option to be a pool from createPool()');
  }
  if (o.priority === 'low' && o.isolation === 'inline' && !o.pool) {
    throw new SbirtoolsValidationError(
      "The `priority: 'low'` option needs `isolation: 'process'`: an inline isolate shares this process's threads, whose priority the sandbox does not change",
    );
  }
  if (o.tables !== undefined) {
    if (o.tables === null || typeof o.tables !== 'object' || Array.isArray(o.tables)) {
      throw new SbirtoolsValidationError(
        'Expected the `tables` option to be an object mapping table names to a CSV path, an Arquero table or an array of rows',
      );
    }
    for (const [name, t] of Object.entries(o.tables)) {
      checkTableName(name);
      if (Array.isArray(t)) {
        const bad = t.findIndex((row) => row === null || typeof row !== 'object' || Array.isArray(row));
        if (bad >= 0)
          throw new SbirtoolsValidationError(
            `Expected row ${bad} of table \`${name}\` to be an object of column values, got \`${t[bad] === null ? 'null' : Array.isArray(t[bad]) ? 'array' : typeof t[bad]}\``,
          );
      }
      if (!(
        typeof t === 'string' ||
        Array.isArray(t) ||
        isColumnar(t) ||
        t instanceof Uint8Array ||
        t instanceof ArrayBuffer ||
        isFileSpec(t) ||
        (t && typeof (t as { columnNames?: unknown }).columnNames === 'function')
      )) {
        throw new SbirtoolsValidationError(
          `Expected \`tables.${name}\` to be a file path or URL (CSV, Parquet, Arrow, JSON, NDJSON), bytes, { path | url | bytes, format }, an Arquero table or an array of row objects`,
        );
      }
    }
  }
  return o;
}

/** A malformed `remoteData` option is the caller's mistake: a validation error echoing it. */
function resolveRemote<T>(f: () => T): T {
  try {
    return f();
  } catch (err) {
    if (err instanceof TypeError) throw new SbirtoolsValidationError(err.message);
    throw err;
  }
}

/** Resolve data sources and convert in-memory tables to the columnar transfer format. */
export async function resolveSessionSpec(opts: ValidatedOptions, limits: Limits): Promise<SessionSpec> {
  const data =
    opts.awardData === false
      ? null
      : resolveRemote(() =>
          resolveDataSource({
            dataPath: opts.dataPath,
            cacheDir: opts.cacheDir,
            env: process.env,
            ...(opts.remoteData ? { remote: opts.remoteData } : {}),
          }),
        );
  const tables: TableSpec[] = [];
  const cacheDir = data?.cacheDir ?? resolveDataSource({ cacheDir: opts.cacheDir, env: process.env }).cacheDir;
  const caps = tableCapsFrom(opts);
  const hasCaps = Object.keys(caps).length > 0;
  for (const [name, t] of Object.entries(opts.tables ?? {})) {
    if (Array.isArray(t)) tables.push({ name, kind: 'columnar', table: tableFromRows(name, t) });
    // a caller's columnar table may hold a string twice in a dictionary; the fast paths need it once
    else if (isColumnar(t)) tables.push({ name, kind: 'columnar', table: uniqueDictionaries({ ...t, name }) });
    else if (typeof t === 'string' || t instanceof Uint8Array || t instanceof ArrayBuffer || isFileSpec(t)) {
      // files on disk are decoded by the holder and kept there across sessions (like CSV tables)
      // a URL's whole transfer is bounded by the run's own deadline (a trickling server cannot hold it past)
      const loaded = await loadTable(name, t as TableSource, {
        cacheDir,
        caps,
        decodeLater: true,
        download: { deadlineMs: limits.timeoutMs },
      });
      tables.push(
        loaded.kind === 'columnar'
          ? { name, kind: 'columnar', table: loaded.table }
          : loaded.kind === 'file'
            ? { name, kind: 'file', path: loaded.path, format: loaded.format, ...(hasCaps ? { caps } : {}) }
            : { name, kind: 'csv', path: loaded.path },
      );
    } else tables.push({ name, kind: 'columnar', table: tableFromArquero(name, t as never) });
  }
  return { limits, data, tables, engine: engineChoice(opts.engine) };
}

/**
 * The engine option, else $SBIRTOOLS_ENGINE, else 'auto'.
 * @throws {SbirtoolsValidationError} when $SBIRTOOLS_ENGINE names no engine.
 */
export function engineChoice(option: EngineChoice | undefined, env: NodeJS.ProcessEnv = process.env): EngineChoice {
  if (option !== undefined) return option;
  const fromEnv = env.SBIRTOOLS_ENGINE;
  if (fromEnv === undefined || fromEnv === '') return 'auto';
  if (!(ENGINE_CHOICES as readonly string[]).includes(fromEnv)) {
    throw new SbirtoolsValidationError(`Expected $SBIRTOOLS_ENGINE to be ${ENGINE_CHOICES_TEXT}, got \`${fromEnv}\``);
  }
  return fromEnv as EngineChoice;
}

/** A ColumnarTable: numRows and columns whose data have a transfer `kind` and a row count that matches. */
function isColumnar(t: unknown): t is ColumnarTable {
  if (!t || typeof t !== 'object' || Array.isArray(t)) return false;
  const o = t as Partial<ColumnarTable>;
  if (!Number.isSafeInteger(o.numRows) || !Array.isArray(o.columns)) return false;
  return o.columns.every((c) => {
    const d = c?.data as unknown as Record<string, unknown> | undefined;
    const rows = d
      ? d.kind === 'dict'
        ? d.codes
        : d.kind === 'utf8'
          ? d.valid
          : d.kind === 'float64' || d.kind === 'bool'
            ? d.values
            : undefined
      : undefined;
    return typeof c?.name === 'string' && ArrayBuffer.isView(rows) && (rows as Uint8Array).length === o.numRows;
  });
}

function isFileSpec(t: unknown): boolean {
  if (
    !t ||
    typeof t !== 'object' ||
    Array.isArray(t) ||
    isColumnar(t) ||
    typeof (t as { columnNames?: unknown }).columnNames === 'function'
  )
    return false;
  const o = t as Record<string, unknown>;
  return (
    typeof o.path === 'string' ||
    typeof o.url === 'string' ||
    o.bytes instanceof Uint8Array ||
    o.bytes instanceof ArrayBuffer
  );
}
