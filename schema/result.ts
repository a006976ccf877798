import { z } from 'zod';
import { LimitsSchema } from './limits.js';
import { RunErrorSchema } from './errors.js';
import { EngineLabelSchema } from './engine.js';

/** A table result: JSON for programs; `markdown` is the rendering for models. */
export const TableResultSchema = z.object({
  columns: z.array(z.string()),
  /** One of 'number' | 'integer' | 'string' | 'date' | 'boolean' | 'object' per column. */
  dtypes: z.array(z.string()),
  /** Row-major cells; dates as ISO-8601 strings, non-finite numbers as null. */
  rows: z.array(z.array(z.unknown())),
  totalRows: z.number().int(),
  truncated: z.boolean(),
  markdown: z.string(),
});
export type TableResult = z.infer<typeof TableResultSchema>;

/** A chart: a Vega-Lite spec (data inlined) or a Plotly-style { data, layout } figure. */
export const ChartSchema = z.object({
  kind: z.enum(['vega-lite', 'plotly']),
  spec: z.record(z.string(), z.unknown()),
  title: z.string().optional(),
  /** Set by save_chart(): the host renders this chart to SVG and returns it in `files` under this name. */
  file: z.string().optional(),
});
export type Chart = z.infer<typeof ChartSchema>;

/**
 * A file the run saved (to_csv, to_parquet, to_arrow, to_json, save_chart). The library returns
 * its `bytes`; the CLI (`--out`) and MCP write it and give its `path` or a resource URI instead.
 */
export const RunFileSchema = z.object({
  /** A plain file name (no folders), unique within the run. */
  name: z.string(),
  /** e.g. 'text/csv', 'application/vnd.apache.parquet', 'image/svg+xml'. */
  mediaType: z.string(),
  size: z.number().int().nonnegative(),
  bytes: z.custom<Uint8Array>((v) => v instanceof Uint8Array).optional(),
  /** The bytes as base64, where the result travels as JSON (the HTTP handler). */
  base64: z.string().optional(),
  /** Where a surface wrote it (CLI --out, MCP), when it did. */
  path: z.string().optional(),
  /** A resource URI (MCP). */
  uri: z.string().optional(),
});
export type RunFile = z.infer<typeof RunFileSchema>;

/** What the run could see: which dataset, and whether it is the synthetic sample. */
export const DatasetInfoSchema = z.object({
  name: z.string(),
  synthetic: z.boolean(),
  /** Where the data came from: 'embedded-synthetic-sample', a file path or a URL. */
  source: z.string(),
  /** Identity of the data (content hash, or ETag/Last-Modified of a download). */
  identity: z.string(),
  rows: z.number().int(),
  /** Date of the download or of the file, ISO-8601, when known. */
  asOf: z.string().optional(),
});
export type DatasetInfo = z.infer<typeof DatasetInfoSchema>;

export const RunStatsSchema = z.object({
  wallMs: z.number(),
  cpuMs: z.number(),
  heapUsedMb: z.number(),
});

export const RunResultSchema = z.object({
  ok: z.boolean(),
  stdout: z.string(),
  stderr: z.string(),
  /** The run's value: the last expression statement, `result`, or a top-level `return`. JSON only. */
  value: z.unknown().optional(),
  /** Markdown/text rendering of `value` for an LLM. */
  valueText: z.string().optional(),
  table: TableResultSchema.optional(),
  /** Tables added with display(), in order. */
  displays: z.array(TableResultSchema).optional(),
  charts: z.array(ChartSchema).optional(),
  /** Files saved by the run, in the order saved (a name saved twice keeps its last content). */
  files: z.array(RunFileSchema).optional(),
  error: RunErrorSchema.optional(),
  stats: RunStatsSchema,
  truncated: z.object({ stdout: z.boolean(), value: z.boolean() }),
  limits: LimitsSchema,
  dataset: DatasetInfoSchema.optional(),
  /** The engine that ran the code: isolated-vm (V8) or quickjs (WASM), and its package version. Absent when no engine ran (a policy or syntax error). */
  engine: EngineLabelSchema.optional(),
  /** True when this session's state was reset before this run (after a TIMEOUT, MEMORY_LIMIT or crash). */
  sessionReset: z.boolean().optional(),
  /**
   * False when the code never started: refused by a check (syntax, policy, size), out of time while
   * it was checked or while the columns it names were decoded, cancelled before it started, or not
   * admitted (QUEUE_FULL). The session's state is then as it was. Absent when the code started.
   */
  codeRan: z.literal(false).optional(),
});
export type RunResult = z.infer<typeof RunResultSchema>;
