import type { RunResult } from '../../schema/result.js';
import { formatError } from '../adapters/resultText.js';
import { resultNotes } from '../adapters/toolOutput.js';
import { terminalSafe } from './terminalSafe.js';

/** Where human output goes, and which of it is a terminal. */
interface Out {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  /** stderr is a terminal. */
  isTTY: boolean;
  /** stdout is a terminal. */
  stdoutIsTTY?: boolean;
}

/**
 * Print a result for a person at a terminal: the run's stdout, then its tables (Markdown) or
 * value text on stdout; the guest's stderr, the error (type, message, snippet, hint) and notes
 * (synthetic data, truncation) on stderr, so `> file` keeps only the analysis.
 *
 * Terminal safety: what the guest printed passes through unchanged only when its stream is a
 * pipe or a file, or with `raw` (`--raw`); on a terminal its control characters are shown as
 * escapes. Tables, values, errors and notes are always escaped unless `raw`.
 */
export function writeHuman(result: RunResult, out: Out, opts: { chartsWritten: boolean; raw?: boolean }): void {
  const raw = opts.raw === true;
  const safe = (text: string) => (raw ? text : terminalSafe(text));
  const guestOut = (text: string, tty: boolean | undefined) => (raw || !tty ? text : terminalSafe(text));
  const blocks: string[] = [];
  if (result.stdout) blocks.push(guestOut(result.stdout.replace(/\n$/, ''), out.stdoutIsTTY));
  for (const t of result.displays ?? []) blocks.push(safe(t.markdown));
  if (result.table) blocks.push(safe(result.table.markdown));
  else if (result.valueText !== undefined) blocks.push(safe(result.valueText));
  else if (result.value !== undefined) blocks.push(safe(JSON.stringify(result.value, null, 2)));
  if (blocks.length) out.stdout.write(`${blocks.join('\n\n')}\n`);

  if (result.stderr) {
    const text = guestOut(result.stderr, out.isTTY);
    out.stderr.write(text.endsWith('\n') ? text : `${text}\n`);
  }
  if (result.error) out.stderr.write(`${terminalSafe(formatError(result.error))}\n`);
  for (const note of resultNotes(result)) out.stderr.write(`sbirtools: ${terminalSafe(note)}\n`);
  const charts = result.charts?.length ?? 0;
  if (charts && !opts.chartsWritten) {
    out.stderr.write(
      `sbirtools: the run returned ${charts} chart${charts > 1 ? 's' : ''}; write ${charts > 1 ? 'them' : 'it'} as SVG with --svg chart.svg, or get the specs with --json.\n`,
    );
  }
}
