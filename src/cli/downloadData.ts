import { dirname } from 'node:path';
import { parseArgs } from 'node:util';
import { downloadData, openDataset, DataError, OFFICIAL_CSV_URL } from '../sandbox/dataset.js';
import { progressBar, type TextOut } from '../sandbox/dataset.js';
import { envValue } from '../sandbox/dataset.js';
import { terminalSafe } from './terminalSafe.js';

/** Where the command writes, what it reads, and whether stderr is a terminal. */
export interface CommandIo {
  stdout: TextOut;
  stderr: TextOut;
  env: Record<string, string | undefined>;
  isTTY: boolean;
}

const USAGE = `Usage: sbirtools download-data [URL] [options]
       sbirtools-download-data [URL] [options]

Downloads the SBIR/STTR award CSV (~395 MB) into the cache and builds its columnar cache,
so runs use the real data instead of the synthetic sample.

  URL                     default: $SBIRTOOLS_CSV_URL, else ${OFFICIAL_CSV_URL}
  --cache-dir DIR         default: $SBIRTOOLS_CACHE_DIR, else ~/.cache/sbirtools
  --idle-timeout-ms N     fail when the server sends nothing for N ms (default 30000)
  --force                 download even if the server says the cached copy is current
  --download-only         skip building the columnar cache (done on first use instead)
  -h, --help              show this help

An interrupted download resumes on the next run. A failed one never replaces the cached file.
To use a CSV you already have, set SBIRTOOLS_CSV_PATH=/path/to/award_data.csv instead.

Exit codes: 0 done (or already up to date), 1 failed (the error's code and what to do are
printed, e.g. DOWNLOAD_STALLED, DISK_FULL; see docs/dataset.md), 2 bad usage.
`;

/**
 * The `download-data` command. Progress goes to stderr on a TTY; one summary line to stdout.
 * @returns the exit code: 0 done, 1 failed (a DataError, printed with its code), 2 bad usage.
 * @example process.exit(await runDownloadCommand(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, env: process.env, isTTY: !!process.stderr.isTTY }));
 */
export async function runDownloadCommand(argv: string[], io: CommandIo): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        'cache-dir': { type: 'string' },
        'idle-timeout-ms': { type: 'string' },
        force: { type: 'boolean' },
        'download-only': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (err) {
    io.stderr.write(`${terminalSafe((err as Error).message)}\n\n${USAGE}`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.help) {
    io.stdout.write(USAGE);
    return 0;
  }
  const idle = values['idle-timeout-ms'] === undefined ? 30_000 : Number(values['idle-timeout-ms']);
  if (positionals.length > 1 || !Number.isInteger(idle) || idle <= 0) {
    io.stderr.write(
      `${positionals.length > 1 ? `Expected at most one URL, got ${positionals.length}` : `Expected --idle-timeout-ms to be a positive integer, got \`${terminalSafe(String(values['idle-timeout-ms']), true)}\``}\n\n${USAGE}`,
    );
    return 2;
  }
  const url = positionals[0] ?? envValue(io.env, 'SBIRTOOLS_CSV_URL') ?? OFFICIAL_CSV_URL;
  const bar = io.isTTY ? progressBar(io.stderr, 'award_data.csv') : undefined;
  try {
    const started = performance.now();
    const r = await downloadData({
      url,
      cacheDir: values['cache-dir'],
      env: io.env,
      idleTimeoutMs: idle,
      force: values.force,
      onProgress: bar ? (p) => bar.update(p.receivedBytes, p.totalBytes, p.resumedFrom) : undefined,
    });
    bar?.end();
    const secs = (performance.now() - started) / 1000;
    io.stdout.write(
      r.status === 'not-modified'
        ? `Up to date: ${r.path} (${(r.bytes / 1e6).toFixed(1)} MB; the server reports no change)\n`
        : `${r.status === 'resumed' ? 'Resumed and downloaded' : 'Downloaded'} ${(r.bytes / 1e6).toFixed(1)} MB in ${secs.toFixed(1)} s to ${r.path} (${r.layout} layout)\n`,
    );
    if (values['download-only']) return 0;
    const building = io.isTTY ? progressBar(io.stderr, 'columnar cache') : undefined;
    const ds = await openDataset(
      { kind: 'csv', path: r.path, cacheDir: dirname(r.path), origin: 'download' },
      { onProgress: (p) => 'bytesRead' in p && building?.update(p.bytesRead, p.totalBytes, 0) },
    );
    building?.end();
    ds.close();
    io.stdout.write(
      `Columnar cache ready: ${ds.info.rows.toLocaleString('en-US')} rows, ${ds.meta.columns.length} columns (${ds.report.layout} layout)\n`,
    );
    return 0;
  } catch (err) {
    bar?.end();
    if (err instanceof DataError) {
      // the message may quote the server (a URL, a header, a status text): escaped for the terminal
      io.stderr.write(`error [${err.code}]: ${terminalSafe(err.message)}\n`);
      return 1;
    }
    io.stderr.write(`error: ${terminalSafe((err as Error)?.stack ?? String(err))}\n`);
    return 1;
  }
}
