import { renderReport, ReportError } from '../viewer/renderReport.js';
import { parseCommandArgs, UsageError, type CliIo } from './args.js';
import { EXIT } from './exitCodes.js';
import { checkOutput, inputFiles, writeOutput } from './outputFile.js';
import { terminalSafe } from './terminalSafe.js';

export const REPORT_HELP = `Usage: sbirtools report <runs.jsonl> [--session <id> | --all] -o <report.html>

Write one self-contained HTML file of a session of a capsule log, read like a notebook: each
run's code, then its outputs (stdout, tables, charts, errors with hints). CSS, script and SVG are
inline and the page makes no request, so it opens offline in any browser and prints cleanly.

Options:
  --session <id>   the session to export ('' for the runs without a session);
                   may be omitted when the log has one session
  --all            export every run of the log
  -o, --out <file> the HTML file to write ('-' for stdout); an existing file is kept
                   unless --force, and the log itself is never written
  --force          replace the output file if it exists
  -h, --help       show this help`;

/** `sbirtools report`: returns 0 when the file was written. */
export async function reportCommand(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs('report', argv, { session: { type: 'string' }, all: { type: 'boolean' }, out: { type: 'string', short: 'o' }, force: { type: 'boolean' } });
  if (values.help) {
    io.stdout.write(`${REPORT_HELP}\n`);
    return EXIT.OK;
  }
  if (positionals.length !== 1) throw new UsageError('report', positionals.length ? `expected one capsule log, got ${positionals.length}` : 'missing the capsule log (a .jsonl written with --capsule-log)');
  if (values.out === undefined) throw new UsageError('report', 'missing -o <report.html> (the file to write)');
  if (values.all && values.session !== undefined) throw new UsageError('report', 'give either --session or --all, not both');
  const out = String(values.out);
  const target = { force: values.force === true, inputs: inputFiles([positionals[0]]) };
  if (out !== '-') await checkOutput(out, target); // before the work: never onto the log, never over a file without --force
  let page: string;
  try {
    page = await renderReport(positionals[0]!, { ...(values.session !== undefined ? { session: String(values.session) } : {}), all: values.all === true });
  } catch (err) {
    if (err instanceof ReportError) throw new UsageError('report', err.message);
    throw err;
  }
  if (out === '-') {
    io.stdout.write(io.stdoutIsTTY ? terminalSafe(page) : page); // the page quotes the log: raw only into a pipe or file
    return EXIT.OK;
  }
  await writeOutput(out, target, (handle) => handle.writeFile(page, 'utf8'));
  io.stderr.write(`sbirtools report: wrote ${terminalSafe(out)} (${Buffer.byteLength(page).toLocaleString('en-US')} bytes)\n`);
  return EXIT.OK;
}
