/**
 * How much of one run a page shows. A record in the log can hold anything (the log may have been
 * written by hand), so every part of a cell has a bound, and what is cut says so with a way to
 * get the full text (the live viewer's `/text` route; the CLI's `report --line N --field F`).
 */
export interface RenderLimits {
  /** Characters of stdout, stderr and the value text shown. */
  textChars: number;
  /** Characters of code highlighted and shown (a 10 MB one-line program is cut too). */
  codeChars: number;
  /** Lines of code shown. */
  codeLines: number;
  /** Characters of an error's message and of its hint. */
  messageChars: number;
  /** Characters of all the cells of one table (rows past it are counted, not shown). */
  tableChars: number;
  /** Tables (display() and the returned one) shown per run. */
  tables: number;
  /** Charts shown per run. */
  charts: number;
  /** Bytes of one chart's SVG; a larger SVG is not shown (a note says so). */
  svgBytes: number;
  /** Bytes of all the outputs of one run (parts past it are counted in a note, not shown). */
  runBytes: number;
}

/** The live viewer's bounds per run (its pages are also bounded as a whole: LIVE_PAGE_BYTES). */
export const LIVE_LIMITS: RenderLimits = {
  textChars: 100_000,
  codeChars: 200_000,
  codeLines: 5000,
  messageChars: 20_000,
  tableChars: 400_000,
  tables: 20,
  charts: 20,
  svgBytes: 1_000_000,
  runBytes: 3 * 1024 * 1024,
};

/** A report's bounds per run: smaller, since a report holds a whole session in one file. */
export const REPORT_LIMITS: RenderLimits = {
  textChars: 20_000,
  codeChars: 50_000,
  codeLines: 2000,
  messageChars: 5_000,
  tableChars: 100_000,
  tables: 10,
  charts: 10,
  svgBytes: 500_000,
  runBytes: 1024 * 1024,
};

/** Default size bound of a report file (4 MiB); `--max-bytes` / `maxBytes` changes it. */
export const REPORT_MAX_BYTES = 4 * 1024 * 1024;

/** Runs per page of the live viewer; older runs load on demand ("Show older runs"). */
export const LIVE_PAGE_RUNS = 50;

/** Bytes of run cells in one live page or one batch of older runs (at least one run is always sent). */
export const LIVE_PAGE_BYTES = 4 * 1024 * 1024;

/** Fields of a run whose full text can be had (`/text?line=N&field=F`, `report --line N --field F`). */
export const TEXT_FIELDS = ['code', 'stdout', 'stderr', 'value', 'error'] as const;
export type TextField = (typeof TEXT_FIELDS)[number];
