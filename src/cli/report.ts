import { renderReport, ReportError } from '../viewer/renderReport.js';
import { readFullText } from '../viewer/readFullText.js';
import { REPORT_MAX_BYTES, TEXT_FIELDS, type TextField } from '../viewer/renderLimits.js';
import { intFlag, parseCommandArgs, UsageError, type CliIo } from './args.js';
import { EXIT } from './exitCodes.js';
import { inputFiles, writeOutput } from './outputFile.js';
import { terminalSafe } from './terminalSafe.js';

export const REPORT_HELP = `Usage: sbirtools report <runs.jsonl> [--session <id> | --all] -o <report.html>
       sbirtools report <runs.jsonl> --line <N> --field <name> -o <file | ->

Write one self-contained HTML file of a session of a capsule log, read like a notebook: each
run's code, then its outputs (stdout, tables, charts, errors with hints). CSS, script and SVG are
inline and the page makes no request, so it opens offline in any browser and prints cleanly.
A report stays within --max-bytes: long texts, tables and charts are cut with a note, and runs
past the bound are left out with a note. The second form prints the full text of one field of
the run on log line N (what a note says was cut).

Options:
  --session <id>   the session to export ('' for the runs without a session);
                   may be omitted when the log has one session
  --all            export every run of the log
  -o, --out <file> the file to write ('-' for stdout); an existing file is kept
                   unless --force, and the log itself is never written
  --force          replace the output file if it exists
  --max-bytes <n>  size bound of the report (default ${REPORT_MAX_BYTES}, 4 MiB)
  --line <N>       with --field: the run on line N of the log
  --field <name>   with --line: ${TEXT_FIELDS.join(', ')}
  -h, --help       show this help`;

/** `sbirtools report`: returns 0 when the file was written. */
export async function reportCommand(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs('report', argv, {
    session: { type: 'string' },
    all: { type: 'boolean' },
    out: { type: 'string', short: 'o' },
    force: { type: 'boolean' },
    'max-bytes': { type: 'string' },
    line: { type: 'string' },
    field: { type: 'string' },
  });
  if (values.help) {
    io.stdout.write(`${REPORT_HELP}\n`);
    return EXIT.OK;
  }
  if (positionals.length !== 1)
    throw new UsageError(
      'report',
      positionals.length
        ? `expected one capsule log, got ${positionals.length}`
        : 'missing the capsule log (a .jsonl written with --capsule-log)',
    );
  if (values.out === undefined) throw new UsageError('report', 'missing -o <report.html> (the file to write)');
  if (values.all && values.session !== undefined)
    throw new UsageError('report', 'give either --session or --all, not both');
  const line = intFlag('report', 'line', values.line, 'lines');
  const field = values.field === undefined ? undefined : String(values.field);
  if ((line === undefined) !== (field === undefined))
    throw new UsageError('report', '--line and --field go together: --line <N> --field stdout');
  if (field !== undefined && !(TEXT_FIELDS as readonly string[]).includes(field))
    throw new UsageError('report', `--field must be one of ${TEXT_FIELDS.join(', ')}, got '${field}'`);
  const maxBytes = intFlag('report', 'max-bytes', values['max-bytes'], 'bytes');
  const out = String(values.out);
  const target = { force: values.force === true, inputs: inputFiles([positionals[0]]) };
  let page: string;
  try {
    page =
      line !== undefined
        ? await readFullText(positionals[0]!, line, field as TextField)
        : await renderReport(positionals[0]!, {
            ...(values.session !== undefined ? { session: String(values.session) } : {}),
            all: values.all === true,
            ...(maxBytes ? { maxBytes } : {}),
            logName: positionals[0]!,
          });
  } catch (err) {
    if (err instanceof ReportError) throw new UsageError('report', err.message);
    throw err;
  }
  if (out === '-') {
    io.stdout.write(io.stdoutIsTTY ? terminalSafe(page) : page); // it quotes the log: raw only into a pipe or file
    return EXIT.OK;
  }
  // never onto the log (whatever the spelling or link), never over a file without --force
  await writeOutput(out, target, (handle) => handle.writeFile(page, 'utf8'));
  io.stderr.write(
    `sbirtools report: wrote ${terminalSafe(out)} (${Buffer.byteLength(page).toLocaleString('en-US')} bytes)\n`,
  );
  return EXIT.OK;
}
