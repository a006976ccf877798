import { writeDataDir } from '../sandbox/dataset.js';
import { openDataset } from '../sandbox/dataset.js';
import { resolveDataSource } from '../sandbox/dataset.js';
import { parseCommandArgs, UsageError, type CliIo } from './args.js';
import { EXIT } from './exitCodes.js';
import { terminalSafe } from './terminalSafe.js';

export const BUILD_DATA_HELP = `Usage: sbirtools build-data <out-dir> [--data <csv|folder>]

Write a self-contained, read-only data folder: a manifest and one gzip-compressed file per column
of award_data (no CSV needed at run time; the full dataset is ~120 MB). Run it at build time; at
run time point --data, the dataPath option or SBIRTOOLS_CSV_PATH at the folder (opened read-only,
nothing is ever written: serverless functions, read-only container images), or upload the folder
to a static host (S3, R2, any web server) and point them, or SBIRTOOLS_DATA_URL, at its https://
URL: columns are then fetched on first use, verified and cached in the temp directory.

Options:
  --data <csv|folder>   the SBIR CSV to build from, or an older data folder to rebuild (default:
                        $SBIRTOOLS_CSV_PATH, the download, or the synthetic sample)
  -h, --help     show this help`;

/** `sbirtools build-data`: returns the exit code. */
export async function buildDataCommand(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs('build-data', argv, { data: { type: 'string' } });
  if (values.help) {
    io.stdout.write(`${BUILD_DATA_HELP}\n`);
    return EXIT.OK;
  }
  if (positionals.length !== 1)
    throw new UsageError(
      'build-data',
      positionals.length
        ? `expected one output folder, got ${positionals.length} arguments`
        : 'missing the output folder',
    );
  const source = resolveDataSource({
    ...(values.data !== undefined ? { dataPath: String(values.data) } : {}),
    env: io.env,
  });
  const started = performance.now();
  const { dir, bytes, info } = await writeDataDir(positionals[0]!, source, openDataset);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  io.stdout.write(
    `${terminalSafe(dir)}: ${info.rows.toLocaleString('en-US')} rows of ${info.synthetic ? 'the SYNTHETIC sample' : terminalSafe(info.source)}, ${(bytes / 1e6).toFixed(1)} MB, built in ${seconds} s\n`,
  );
  io.stdout.write(
    terminalSafe(`use it with: --data ${dir}   (or SBIRTOOLS_CSV_PATH=${dir}, or { dataPath: '${dir}' })\n`),
  );
  io.stdout.write(
    'or upload the folder as is and use its URL: --data https://<host>/<folder>/   (or SBIRTOOLS_DATA_URL)\n',
  );
  return EXIT.OK;
}
