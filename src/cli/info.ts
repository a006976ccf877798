import { loadDataCard } from '../adapters/description.js';
import { engineStatus, engineStatusLine } from '../sandbox/engines.js';
import { parseCommandArgs, UsageError, type CliIo } from './args.js';
import { EXIT } from './exitCodes.js';
import { jsonTerminalSafe, terminalSafe } from './terminalSafe.js';

export const INFO_HELP = `Usage: sbirtools info [--json] [--data <csv>]

Print the engine that runs code here (and why, when it is the QuickJS fallback), then the data
card of award_data: where it comes from, whether it is the synthetic sample, rows, and every
column with its type, null rate, distinct count, top values or range.

Options:
  --json        print the card as JSON
  --data <csv>  describe this SBIR CSV instead of the default data
  -h, --help    show this help`;

/** `sbirtools info`: returns the exit code. */
export async function infoCommand(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs('info', argv, {
    json: { type: 'boolean' },
    data: { type: 'string' },
  });
  if (values.help) {
    io.stdout.write(`${INFO_HELP}\n`);
    return EXIT.OK;
  }
  if (positionals.length) throw new UsageError('info', `unexpected argument '${positionals[0]}'`);
  const [card, engine] = await Promise.all([
    loadDataCard(values.data !== undefined ? { dataPath: String(values.data) } : {}),
    engineStatus(),
  ]);
  // column names and top values come from the data file: escaped for the terminal
  io.stdout.write(
    values.json
      ? `${jsonTerminalSafe(JSON.stringify({ engine, ...card.json }, null, 2))}\n`
      : `Engine: ${terminalSafe(engineStatusLine(engine))}\n\n${terminalSafe(card.markdown.replace(/\n$/, ''))}\n`,
  );
  return EXIT.OK;
}
