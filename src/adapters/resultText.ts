import type { RunError } from '../../schema/errors.js';
import type { RunResult } from '../../schema/result.js';
import { budgetParts, type TextBudget } from '../sandbox/textBudget.js';
import { resultNotes } from './toolOutput.js';

/**
 * An error as plain text: type and message, the snippet with its caret, every policy violation,
 * and the hint last, where a reader (or a model) looks for what to do.
 * @example formatError(result.error) // "RUNTIME_ERROR: TypeError: x is not a function (line 2)\n..."
 */
export function formatError(error: RunError): string {
  const lines = [`${error.type}: ${error.message}`];
  if (error.snippet) lines.push(indent(error.snippet));
  const violations = error.violations ?? [];
  if (violations.length > 1) {
    for (const v of violations)
      lines.push(`  - line ${v.line}, col ${v.column}: ${v.message}${v.hint ? ` (${v.hint})` : ''}`);
  }
  if (error.hint) lines.push(`hint: ${error.hint}`);
  return lines.join('\n');
}

/**
 * A whole RunResult as one text block for a model (the MCP tool's text content): stdout, the
 * tables as Markdown or the value's text, the error with its hint, then notes. The output parts
 * share a budget (`maxChars`, default 16,000 characters): past it tables show their shape and first
 * rows with how to page, long text its head and tail, and a note says what was cut.
 * @example resultText(await run("value_counts(award_data, 'Agency')"), { maxChars: 8000 })
 */
export function resultText(result: RunResult, budget: TextBudget = {}): string {
  return budgetedText(result, budget).text;
}

/** resultText() and what its budget cut (empty when everything fit). */
export function budgetedText(result: RunResult, budget: TextBudget = {}): { text: string; cuts: string[] } {
  const fit = budgetParts(result, budget);
  const parts: string[] = [];
  if (fit.stdout) parts.push(`stdout:\n${fit.stdout.replace(/\n$/, '')}`);
  if (fit.stderr) parts.push(`stderr:\n${fit.stderr.replace(/\n$/, '')}`);
  const shown = [...fit.tables];
  const returned = result.table ? shown.pop() : undefined;
  parts.push(...shown);
  if (returned !== undefined) parts.push(`result:\n${returned}`);
  else if (fit.value !== undefined) parts.push(`result:\n${fit.value}`);
  if (result.charts?.length)
    parts.push(`charts: ${result.charts.length} (Vega-Lite/Plotly specs in structuredContent.charts)`);
  if (result.files?.length)
    parts.push(`files: ${result.files.map((f) => `${f.name} (${f.mediaType}, ${f.size} bytes)`).join(', ')}`);
  if (result.error) parts.push(`error: ${formatError(result.error)}`);
  for (const note of [...resultNotes(result), ...fit.cuts]) parts.push(`note: ${note}`);
  if (parts.length === 0) parts.push(result.ok ? 'ok (no output and no value)' : 'failed (no output)');
  return { text: parts.join('\n\n'), cuts: fit.cuts };
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((l) => `  ${l}`)
    .join('\n');
}
