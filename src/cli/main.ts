import { shutdownDefaultBackends as shutdown } from '../sandbox/defaultBackend.js';
import { packageInfo } from '../capsule/packageInfo.js';
import { UsageError, type CliIo } from './args.js';
import { EXIT, exitCodeForError } from './exitCodes.js';
import { safeWriter, terminalSafe } from './terminalSafe.js';

export const MAIN_HELP = `Usage: sbirtools <command> [options]

Run LLM-written JavaScript safely over US SBIR/STTR awards, inside V8 isolates.

Commands:
  run [file|-] | --code '<js>'   run analysis code and print the result
  info                           print the data card of award_data
  export --format parquet -o f   write award_data as Parquet, Arrow or CSV (for DuckDB, pandas)
  download-data [URL]            download the real SBIR award file to the cache
  mcp                            serve MCP over stdio (for Claude Desktop and other clients)
  serve                          serve MCP over HTTP and a REST API (scales out with Redis)
  build-data <out-dir>           write a read-only data directory (binary cache) for deployment
  bundle <out-dir> --target t    write a deployable folder for lambda, vercel, node, workers, vercel-edge
  replay <capsule.jsonl>         re-run a recorded run and compare
  view [runs.jsonl]              a local web page of the runs in a capsule log (live)
  report <runs.jsonl> -o <html>  one self-contained HTML report of a session

Run 'sbirtools <command> --help' for a command's options. Docs: docs/cli.md.`;

type Command = (argv: string[], io: CliIo) => Promise<number>;

// Each command's modules load only when it runs: a cold `sbirtools run` must not pay for the MCP
// SDK or vega.
const COMMANDS: Record<string, Command> = {
  run: async (argv, io) => (await import('./run.js')).runCommand(argv, io),
  info: async (argv, io) => (await import('./info.js')).infoCommand(argv, io),
  export: async (argv, io) => (await import('./export.js')).exportCommand(argv, io),
  mcp: async (argv, io) => (await import('./mcp.js')).mcpCommand(argv, io),
  serve: async (argv, io) => (await import('./serve.js')).serveCommand(argv, io),
  'build-data': async (argv, io) => (await import('./buildData.js')).buildDataCommand(argv, io),
  bundle: async (argv, io) => (await import('./bundle.js')).bundleCommand(argv, io),
  replay: async (argv, io) => (await import('./replay.js')).replayCommand(argv, io),
  view: async (argv, io) => (await import('./view.js')).viewCommand(argv, io),
  report: async (argv, io) => (await import('./report.js')).reportCommand(argv, io),
  'download-data': downloadData,
};

/** The io of this process. */
export function processIo(): CliIo {
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    stdin: process.stdin,
    env: process.env,
    isTTY: !!process.stderr.isTTY,
    stdoutIsTTY: !!process.stdout.isTTY,
  };
}

/**
 * Run the CLI with `argv` (without node and the script) and return the exit code. Always stops
 * the holder processes before returning, so none is left behind.
 * @example process.exitCode = await main(['run', '--code', '6*7']);
 */
export async function main(argv: string[], io: CliIo = processIo()): Promise<number> {
  const [name, ...rest] = argv;
  const restoreWarnings = warningsAsOneLine(io);
  try {
    if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
      io.stdout.write(`${MAIN_HELP}\n`);
      return name === undefined ? EXIT.USAGE : EXIT.OK;
    }
    if (name === '--version' || name === '-v') {
      io.stdout.write(`${packageInfo().version}\n`);
      return EXIT.OK;
    }
    const command = COMMANDS[name];
    if (!command) throw new UsageError('', `unknown command '${name}'; commands: ${Object.keys(COMMANDS).join(', ')}`);
    return await command(rest, io);
  } catch (err) {
    if (err instanceof UsageError) {
      io.stderr.write(`${err.line()}\n`);
      return EXIT.USAGE;
    }
    const exit = exitCodeForError(err);
    const e = err as Error & { code?: string; hint?: string };
    // Library errors carry messages written for the user; anything else is a bug worth a stack.
    const text = exit === EXIT.INTERNAL && !e.code ? (e.stack ?? String(err)) : e.message;
    // the message may quote a file, a log or the network: control characters are shown as escapes
    io.stderr.write(
      `sbirtools${name ? ` ${terminalSafe(name, true)}` : ''}: ${e.code ? `${terminalSafe(String(e.code), true)}: ` : ''}${terminalSafe(text)}\n${typeof e.hint === 'string' && e.code ? `hint: ${terminalSafe(e.hint)}\n` : ''}`,
    );
    return exit;
  } finally {
    await shutdown().catch(() => undefined);
    restoreWarnings();
  }
}

/**
 * Print process warnings (the engine fallback above all: SBIRTOOLS_ENGINE_FALLBACK) as one
 * `sbirtools: warning:` line on this command's stderr, instead of Node's two-line format with a
 * --trace-warnings hint meant for developers. Returns a function that puts Node's printer back.
 */
function warningsAsOneLine(io: CliIo): () => void {
  const previous = process.listeners('warning');
  const print = (w: Error & { code?: string }) => {
    io.stderr.write(`sbirtools: warning: ${w.message.replace(/^sbirtools: /, '')}${w.code ? ` [${w.code}]` : ''}\n`);
  };
  process.removeAllListeners('warning');
  process.on('warning', print);
  return () => {
    process.off('warning', print);
    for (const l of previous) if (!process.listeners('warning').includes(l)) process.on('warning', l);
  };
}

/** `sbirtools download-data`: the data layer's command, given this invocation's streams. */
async function downloadData(argv: string[], io: CliIo): Promise<number> {
  const { runDownloadCommand } = await import('./downloadData.js');
  return runDownloadCommand(argv, {
    stdout: safeWriter(io.stdout, false),
    stderr: io.stderr,
    env: io.env,
    isTTY: io.isTTY,
  });
}
