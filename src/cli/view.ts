import { existsSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { createViewerHandler } from '../viewer/createViewerHandler.js';
import { warmSanitizer } from '../viewer/sanitizeSvg.js';
import { intFlag, parseCommandArgs, UsageError, type CliIo } from './args.js';
import { EXIT } from './exitCodes.js';
import { terminalSafe } from './terminalSafe.js';

export const VIEW_HELP = `Usage: sbirtools view [runs.jsonl] [--port N] [--no-replay]

Open a local web page that shows every run of a capsule log like a notebook: sessions and runs
newest first, code with the error marked at its line, stdout, tables, charts, stats, and a Replay
button. It updates live as runs are appended. Record outputs with
  sbirtools run --capsule-log runs.jsonl --capsule-outputs …   (or sbirtools mcp with the same flags)
The page listens on 127.0.0.1 only; it prints its URL and opens nothing. Ctrl-C stops it.

Options:
  --port <n>      port to listen on (default: a free port)
  --no-replay     hide the Replay button (the viewer then runs no code at all)
  -h, --help      show this help`;

/** `sbirtools view`: serves until SIGINT/SIGTERM, then returns 0. */
export async function viewCommand(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs('view', argv, {
    port: { type: 'string' },
    'no-replay': { type: 'boolean' },
  });
  if (values.help) {
    io.stdout.write(`${VIEW_HELP}\n`);
    return EXIT.OK;
  }
  if (positionals.length > 1)
    throw new UsageError('view', `expected one capsule log, got ${positionals.length}: ${positionals.join(' ')}`);
  const logPath = resolve(positionals[0] ?? 'runs.jsonl');
  const port = values.port === '0' ? 0 : (intFlag('view', 'port', values.port, 'port') ?? 0);
  if (port > 65535) throw new UsageError('view', `--port must be at most 65535, got '${String(values.port)}'`);
  if (!existsSync(logPath))
    io.stderr.write(
      `sbirtools view: ${terminalSafe(logPath)} does not exist yet; runs will appear when it is written.\n`,
    );
  // filled once the port is known: only our own address is answered, so a page on another site
  // whose DNS name rebinds to 127.0.0.1 gets 421, not the log
  const allowedHosts: string[] = [];
  const handler = createViewerHandler({ logPath, replay: values['no-replay'] !== true, allowedHosts });
  const server = createServer(handler);
  await new Promise<void>((done, fail) => {
    server.once('error', (err: NodeJS.ErrnoException) =>
      fail(
        err.code === 'EADDRINUSE'
          ? new UsageError('view', `port ${port} is in use; pick another --port or omit it for a free one`)
          : err,
      ),
    );
    server.listen(port, '127.0.0.1', () => done());
  });
  const actual = (server.address() as AddressInfo).port;
  allowedHosts.push(`127.0.0.1:${actual}`, `localhost:${actual}`);
  warmSanitizer();
  io.stdout.write(`sbirtools view: http://127.0.0.1:${actual}/  (log: ${terminalSafe(logPath)}; Ctrl-C to stop)\n`);
  await new Promise<void>((done) => {
    process.once('SIGINT', done);
    process.once('SIGTERM', done);
  });
  await handler.close();
  await new Promise<void>((done) => {
    server.close(() => done());
    server.closeAllConnections();
  });
  return EXIT.OK;
}
