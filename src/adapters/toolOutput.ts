import type { RunResult } from '../../schema/result.js';
import { budgetParts, type TextBudget } from '../sandbox/textBudget.js';

/** The error part of a tool output: enough for a model to fix its code. */
export interface ToolOutputError {
  type: string;
  message: string;
  hint?: string;
  line?: number;
  column?: number;
  snippet?: string;
}

/** What a model sees from one run: compact and JSON-safe (no stats, limits or raw rows). */
export interface ToolOutput {
  ok: boolean;
  /** Text the code printed (print(), console.log). */
  stdout?: string;
  stderr?: string;
  /** The returned table and any display() tables, as Markdown. */
  markdown?: string;
  /** The returned value, as text (valueText) or JSON, when it is not a table. */
  value?: unknown;
  /** Titles of charts the run returned (the charts themselves are in the full RunResult). */
  charts?: string[];
  /** Files the run saved (to_csv, to_parquet...), as "name (media type, size bytes)"; the bytes are in the full RunResult. */
  files?: string[];
  error?: ToolOutputError;
  /** Things the model should know: synthetic data, truncation, a reset session. */
  notes?: string[];
}

/**
 * Shrink a RunResult to what a model needs to read, within the same text budget as the MCP tool
 * (resultText): stdout, tables and the value share `maxChars` (default 16,000 characters).
 * @example toToolOutput(await run('6*7')) // { ok: true, value: '42' }
 */
export function toToolOutput(result: RunResult, budget: TextBudget = {}): ToolOutput {
  const out: ToolOutput = { ok: result.ok };
  const fit = budgetParts(result, budget);
  if (fit.stdout) out.stdout = fit.stdout;
  if (fit.stderr) out.stderr = fit.stderr;
  if (fit.tables.length) out.markdown = fit.tables.join('\n\n');
  if (!result.table && fit.value !== undefined) {
    // a value that fit whole stays JSON (as before); a cut one is its text
    out.value = fit.valueCut || result.valueText !== undefined ? fit.value : result.value;
  }
  if (result.charts?.length) out.charts = result.charts.map((c, i) => c.title ?? `chart ${i + 1} (${c.kind})`);
  if (result.files?.length) out.files = result.files.map((f) => `${f.name} (${f.mediaType}, ${f.size} bytes)`);
  if (result.error) {
    const e = result.error;
    out.error = {
      type: e.type,
      message: e.message,
      ...(e.hint ? { hint: e.hint } : {}),
      ...(e.line ? { line: e.line } : {}),
      ...(e.column ? { column: e.column } : {}),
      ...(e.snippet ? { snippet: e.snippet } : {}),
    };
  }
  const notes = [...resultNotes(result), ...fit.cuts];
  if (notes.length) out.notes = notes;
  return out;
}

/** Notes a reader of any surface should see next to the output. */
export function resultNotes(result: RunResult): string[] {
  const notes: string[] = [];
  if (result.dataset?.synthetic) {
    notes.push(
      `award_data is the SYNTHETIC sample (${result.dataset.rows} made-up rows), not real SBIR awards: ` +
        'do not report its figures as facts. Run `sbirtools download-data` to use the real file.',
    );
  }
  if (result.sessionReset) {
    notes.push(
      'This session was reset before this run (after a timeout, memory limit or crash): variables from earlier runs are gone.',
    );
  }
  if (result.truncated.stdout)
    notes.push(
      `Output was cut at ${result.limits.maxOutputBytes} bytes (maxOutputBytes): print less, or summarize first.`,
    );
  if (result.truncated.value)
    notes.push(
      `The returned value was truncated (maxRows ${result.limits.maxRows}, maxResultBytes ${result.limits.maxResultBytes}): aggregate or .slice() before returning.`,
    );
  return notes;
}
