import { replayCapsule, type ReplayReport } from '../capsule/replay.js';
import { intFlag, parseCommandArgs, UsageError, type CliIo } from './args.js';
import { EXIT } from './exitCodes.js';
import { jsonTerminalSafe, terminalSafe } from './terminalSafe.js';

export const REPLAY_HELP = `Usage: sbirtools replay <capsule.jsonl> [--line N] [--data <csv>] [--json]

Re-run a run recorded with --capsule-log, with the same limits, data and { now, seed }, and
report whether its stdout and value match. Runs of a session are rebuilt from the session's
earlier records first. Exit 0 when they match, 1 when they differ.

Options:
  --line <N>    the record on line N of the file (default: the last record)
  --data <csv>  use this CSV as award_data instead of the recorded source
  --json        print the report as JSON
  -h, --help    show this help`;

/** `sbirtools replay`: returns 0 on a match, 1 on a mismatch. */
export async function replayCommand(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs('replay', argv, {
    line: { type: 'string' },
    data: { type: 'string' },
    json: { type: 'boolean' },
  });
  if (values.help) {
    io.stdout.write(`${REPLAY_HELP}\n`);
    return EXIT.OK;
  }
  if (positionals.length !== 1)
    throw new UsageError(
      'replay',
      positionals.length
        ? `expected one capsule file, got ${positionals.length}`
        : 'missing the capsule file (a .jsonl written with --capsule-log)',
    );
  const line = intFlag('replay', 'line', values.line, 'lines');
  let report: ReplayReport;
  try {
    report = await replayCapsule(positionals[0]!, {
      ...(line ? { line } : {}),
      ...(values.data !== undefined ? { dataPath: String(values.data) } : {}),
    });
  } catch (err) {
    // An unreadable log or a line without a record is the caller's to fix.
    if (err instanceof Error && /capsule|no record|not valid JSON/.test(err.message))
      throw new UsageError('replay', err.message);
    throw err;
  }
  if (values.json) {
    const { recorded: _r, result, ...summary } = report;
    io.stdout.write(`${jsonTerminalSafe(JSON.stringify({ ...summary, result }))}\n`);
  } else {
    io.stdout.write(`${terminalSafe(describe(report, positionals[0]!))}\n`);
    for (const note of report.notes) io.stderr.write(`sbirtools: ${terminalSafe(note)}\n`);
  }
  return report.match ? EXIT.OK : EXIT.GUEST_ERROR;
}

function describe(r: ReplayReport, file: string): string {
  const head = `replay of ${file} line ${r.line}${r.replayedBefore ? ` (after ${r.replayedBefore} earlier run${r.replayedBefore > 1 ? 's' : ''} of its session)` : ''}:`;
  if (r.match) return `${head} MATCH: stdout and value are the same.`;
  const diffs = [
    !r.stdoutMatch && 'stdout differs',
    !r.valueMatch && 'value differs',
    !r.errorTypeMatch &&
      `error type differs (recorded ${r.recorded.result.errorType ?? 'none'}, now ${r.result.error?.type ?? 'none'})`,
  ].filter(Boolean);
  return `${head} MISMATCH: ${diffs.join(', ')}.${r.datasetMatch ? '' : ' The data is not the recorded data.'}`;
}
