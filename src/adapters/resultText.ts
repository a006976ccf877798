import type { RunError } from '../../schema/errors.js';
import type { RunResult } from '../../schema/result.js';
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
    for (const v of violations) lines.push(`  - line ${v.line}, col ${v.column}: ${v.message}${v.hint ? ` (${v.hint})` : ''}`);
  }
  if (error.hint) lines.push(`hint: ${error.hint}`);
  return lines.join('\n');
}

/**
 * A whole RunResult as one text block for a model (the MCP tool's text content): stdout, the
 * tables as Markdown or the value's text, the error with its hint, then notes.
 * @example resultText(await run("value_counts(award_data, 'Agency')"))
 */
export function resultText(result: RunResult): string {
  const parts: string[] = [];
  if (result.stdout) parts.push(`stdout:\n${result.stdout.replace(/\n$/, '')}`);
  if (result.stderr) parts.push(`stderr:\n${result.stderr.replace(/\n$/, '')}`);
  for (const t of result.displays ?? []) parts.push(t.markdown);
  if (result.table) parts.push(`result:\n${result.table.markdown}`);
  else if (result.valueText !== undefined) parts.push(`result:\n${result.valueText}`);
  else if (result.value !== undefined) parts.push(`result:\n${JSON.stringify(result.value)}`);
  if (result.charts?.length) parts.push(`charts: ${result.charts.length} (Vega-Lite/Plotly specs in structuredContent.charts)`);
  if (result.files?.length) parts.push(`files: ${result.files.map((f) => `${f.name} (${f.mediaType}, ${f.size} bytes)`).join(', ')}`);
  if (result.error) parts.push(`error: ${formatError(result.error)}`);
  for (const note of resultNotes(result)) parts.push(`note: ${note}`);
  if (parts.length === 0) parts.push(result.ok ? 'ok (no output and no value)' : 'failed (no output)');
  return parts.join('\n\n');
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((l) => `  ${l}`)
    .join('\n');
}
