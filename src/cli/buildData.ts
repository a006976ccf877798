import { writeDataDir } from '../sandbox/dataset.js';
import { openDataset } from '../sandbox/dataset.js';
import { resolveDataSource } from '../sandbox/dataset.js';
import { parseCommandArgs, UsageError, type CliIo } from './args.js';
import { EXIT } from './exitCodes.js';

export const BUILD_DATA_HELP = `Usage: sbirtools build-data <out-dir> [--data <csv>]

Write a self-contained, read-only data directory: award_data's binary cache and a manifest (no
CSV needed at run time). Run it at build time; at run time point --data, the dataPath option or
SBIRTOOLS_CSV_PATH at the folder: it is opened read-only and nothing is ever written (serverless
functions, read-only container images).

Options:
  --data <csv>   the SBIR CSV to build from (default: $SBIRTOOLS_CSV_PATH, the download, or the synthetic sample)
  -h, --help     show this help`;

/** `sbirtools build-data`: returns the exit code. */
export async function buildDataCommand(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs('build-data', argv, { data: { type: 'string' } });
  if (values.help) {
    io.stdout.write(`${BUILD_DATA_HELP}\n`);
    return EXIT.OK;
  }
  if (positionals.length !== 1) throw new UsageError('build-data', positionals.length ? `expected one output folder, got ${positionals.length} arguments` : 'missing the output folder');
  const source = resolveDataSource({ ...(values.data !== undefined ? { dataPath: String(values.data) } : {}), env: io.env });
  const started = performance.now();
  const { dir, bytes, info } = await writeDataDir(positionals[0]!, source, openDataset);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  io.stdout.write(`${dir}: ${info.rows.toLocaleString('en-US')} rows of ${info.synthetic ? 'the SYNTHETIC sample' : info.source}, ${(bytes / 1e6).toFixed(1)} MB, built in ${seconds} s\n`);
  io.stdout.write(`use it with: --data ${dir}   (or SBIRTOOLS_CSV_PATH=${dir}, or { dataPath: '${dir}' })\n`);
  return EXIT.OK;
}
