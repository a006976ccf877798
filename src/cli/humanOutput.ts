import type { RunResult } from '../../schema/result.js';
import { formatError } from '../adapters/resultText.js';
import { resultNotes } from '../adapters/toolOutput.js';

/** Where human output goes. */
interface Out {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
}

/**
 * Print a result for a person at a terminal: the run's stdout, then its tables (Markdown) or
 * value text on stdout; the guest's stderr, the error (type, message, snippet, hint) and notes
 * (synthetic data, truncation) on stderr, so `> file` keeps only the analysis.
 */
export function writeHuman(result: RunResult, out: Out, opts: { chartsWritten: boolean }): void {
  const blocks: string[] = [];
  if (result.stdout) blocks.push(result.stdout.replace(/\n$/, ''));
  for (const t of result.displays ?? []) blocks.push(t.markdown);
  if (result.table) blocks.push(result.table.markdown);
  else if (result.valueText !== undefined) blocks.push(result.valueText);
  else if (result.value !== undefined) blocks.push(JSON.stringify(result.value, null, 2));
  if (blocks.length) out.stdout.write(`${blocks.join('\n\n')}\n`);

  if (result.stderr) out.stderr.write(result.stderr.endsWith('\n') ? result.stderr : `${result.stderr}\n`);
  if (result.error) out.stderr.write(`${formatError(result.error)}\n`);
  for (const note of resultNotes(result)) out.stderr.write(`sbirtools: ${note}\n`);
  const charts = result.charts?.length ?? 0;
  if (charts && !opts.chartsWritten) {
    out.stderr.write(`sbirtools: the run returned ${charts} chart${charts > 1 ? 's' : ''}; write ${charts > 1 ? 'them' : 'it'} as SVG with --svg chart.svg, or get the specs with --json.\n`);
  }
}
