import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { resolve } from 'node:path';
import { openDataset, resolveDataSource } from '../sandbox/dataset.js';
import { csvChunks, encodeTable, type EncodeColumn, type ExportFormat } from '../sandbox/tables.js';
import { parseCommandArgs, UsageError, type CliIo } from './args.js';
import { EXIT } from './exitCodes.js';
import { terminalSafe } from './terminalSafe.js';
import { checkOutput, inputFiles, writeOutput } from './outputFile.js';

export const EXPORT_HELP = `Usage: sbirtools export --format parquet|arrow|csv [--columns a,b,...] -o <file>

Write award_data (the current dataset: --data, $SBIRTOOLS_CSV_PATH, the download or the
synthetic sample) as a file for DuckDB, Polars, pandas or a spreadsheet.

Options:
  --format <f>          parquet (default), arrow (Arrow IPC file) or csv
  --columns <list>      only these columns, comma-separated, in this order
  -o, --output <file>   the file to write (written to a temporary name, then renamed);
                        an existing file is kept unless --force, an input never replaced
  --force               replace the output file if it exists
  --no-escape-formulas  csv: write text cells that start with = + - @ tab or CR as they
                        are (default: a leading ' so a spreadsheet shows them as text)
  --data <csv>          export this SBIR CSV instead of the default data
  -h, --help            show this help

Types: integers INT64, amounts DOUBLE, dates TIMESTAMP (ms, UTC), text UTF-8 (Arrow keeps
dictionary-coded columns as dictionaries). Example:
  sbirtools export --format parquet -o awards.parquet
  duckdb -c "SELECT Agency, count(*) FROM 'awards.parquet' GROUP BY 1"`;

const FORMATS: readonly ExportFormat[] = ['parquet', 'arrow', 'csv'];

/** `sbirtools export`: returns the exit code. */
export async function exportCommand(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs('export', argv, {
    format: { type: 'string' },
    columns: { type: 'string' },
    output: { type: 'string', short: 'o' },
    data: { type: 'string' },
    force: { type: 'boolean' },
    'no-escape-formulas': { type: 'boolean' },
  });
  if (values.help) {
    io.stdout.write(`${EXPORT_HELP}\n`);
    return EXIT.OK;
  }
  if (positionals.length) throw new UsageError('export', `unexpected argument '${positionals[0]}'`);
  if (values['no-escape-formulas'] && values.format !== 'csv')
    throw new UsageError('export', '--no-escape-formulas applies to --format csv only');
  const format = String(values.format ?? 'parquet') as ExportFormat;
  if (!FORMATS.includes(format))
    throw new UsageError('export', `--format must be one of ${FORMATS.join(', ')}, got '${format}'`);
  if (values.output === undefined) throw new UsageError('export', 'missing -o <file>: where to write the export');
  const output = resolve(String(values.output));
  const source = resolveDataSource({
    ...(values.data !== undefined ? { dataPath: String(values.data) } : {}),
    env: io.env,
  });
  // what the export reads (the CSV, a build-data folder, the cache beside it): never its output
  const inputs = inputFiles([
    source.kind === 'csv' ? source.path : undefined,
    values.data === undefined ? undefined : String(values.data),
    source.cacheDir,
  ]);
  await checkOutput(output, { force: values.force === true, inputs }); // before the data is loaded
  const ds = await openDataset(source);
  try {
    const names = ds.meta.columns.map((c) => c.name);
    const wanted =
      values.columns === undefined
        ? names
        : String(values.columns)
            .split(',')
            .map((s) => s.trim())
            .filter(Boolean);
    const unknown = wanted.filter((w) => !names.includes(w));
    if (unknown.length)
      throw new UsageError(
        'export',
        `unknown column${unknown.length > 1 ? 's' : ''} ${unknown.map((u) => `'${u}'`).join(', ')}; columns: ${names.join(', ')}`,
      );
    if (!wanted.length) throw new UsageError('export', '--columns names no column');
    const columns: EncodeColumn[] = wanted.map((name) => ({
      name,
      type: ds.meta.columns.find((c) => c.name === name)!.type,
      data: ds.loadColumn(name),
    }));
    const started = performance.now();
    const escapeFormulas = values['no-escape-formulas'] !== true;
    await writeOutput(output, { force: values.force === true, inputs }, async (handle, tmp) => {
      if (format === 'csv') await writeChunks(tmp, csvChunks(columns, undefined, escapeFormulas));
      else await handle.writeFile(encodeTable(columns, format));
    });
    const ms = Math.round(performance.now() - started);
    io.stderr.write(
      `sbirtools: wrote ${terminalSafe(output)} (${format}, ${ds.meta.numRows} rows, ${columns.length} columns, ${ms} ms)${ds.info.synthetic ? ' from the SYNTHETIC sample' : ''}\n`,
    );
    return EXIT.OK;
  } finally {
    ds.close();
  }
}

async function writeChunks(path: string, chunks: Iterable<string>): Promise<void> {
  const out = createWriteStream(path);
  const failed = once(out, 'error').then(([e]) => Promise.reject(e as Error));
  for (const chunk of chunks) if (!out.write(chunk)) await Promise.race([once(out, 'drain'), failed]);
  out.end();
  await Promise.race([once(out, 'finish'), failed]);
}
