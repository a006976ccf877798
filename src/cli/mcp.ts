import { createPool, type Pool } from '../sandbox/pool.js';
import { serveStdio } from '../mcp/serveStdio.js';
import { intFlag, parseCommandArgs, UsageError, type CliIo } from './args.js';
import { EXIT } from './exitCodes.js';
import { SANDBOX_FLAGS, SANDBOX_FLAGS_HELP, sandboxOptionsFrom } from './sandboxFlags.js';

export const MCP_HELP = `Usage: sbirtools mcp [options]

Serve the Model Context Protocol over stdio: tools run_analysis, describe_dataset and add_table,
resources with the data card, the prelude reference, added tables and the files runs saved. Stops when stdin closes or on SIGINT/SIGTERM.

Options:
${SANDBOX_FLAGS_HELP}
  --max-sessions <n>       most sessions open at once (default 16)
  --idle-timeout-ms <ms>   close a session after this long unused (default 600000)
  --pool-size <n>          spread isolates over n holder processes (default: one holder)
  --capsule-log <file>     append a capsule record of every run (JSONL)
  --capsule-outputs        also keep each run's outputs in the capsule log (for 'sbirtools view')
  --max-upload-bytes <n>   largest table add_table accepts (default 33554432, 32 MiB)
  --max-result-chars <n>   characters of run output the model reads per call (default 16000, or
                           $SBIRTOOLS_MAX_RESULT_CHARS; a call's max_chars overrides it)
  --allow-table-urls       add_table may download a url the model names (default: refused, so a
                           prompt-injected model cannot make this host fetch internal addresses)
  --allow-private-table-urls
                           with --allow-table-urls: also fetch loopback, private and link-local
                           addresses (default: public internet addresses only)
  --deny-table-urls        the default; kept so older client configs still start
  --deterministic          freeze Date.now() and seed Math.random per run (recorded)
  -h, --help               show this help

Client config (e.g. Claude Desktop):
  {"mcpServers": {"sbirtools": {"command": "npx", "args": ["sbirtools", "mcp"]}}}`;

/** `sbirtools mcp`: serves until stdin closes or a signal; returns the exit code. */
export async function mcpCommand(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs('mcp', argv, {
    ...SANDBOX_FLAGS,
    'max-sessions': { type: 'string' },
    'idle-timeout-ms': { type: 'string' },
    'pool-size': { type: 'string' },
    'capsule-log': { type: 'string' },
    'capsule-outputs': { type: 'boolean' },
    'max-upload-bytes': { type: 'string' },
    'allow-table-urls': { type: 'boolean' },
    'deny-table-urls': { type: 'boolean' },
    'allow-private-table-urls': { type: 'boolean' },
    'max-result-chars': { type: 'string' },
    deterministic: { type: 'boolean' },
  });
  if (values.help) {
    io.stdout.write(`${MCP_HELP}\n`);
    return EXIT.OK;
  }
  if (positionals.length) throw new UsageError('mcp', `unexpected argument '${positionals[0]}'`);
  if (values['allow-table-urls'] && values['deny-table-urls'])
    throw new UsageError(
      'mcp',
      '--allow-table-urls and --deny-table-urls contradict each other; give one (urls are refused by default)',
    );
  if (values['allow-private-table-urls'] && !values['allow-table-urls'])
    throw new UsageError('mcp', '--allow-private-table-urls needs --allow-table-urls (urls are refused by default)');
  if (values['capsule-outputs'] && values['capsule-log'] === undefined)
    throw new UsageError('mcp', '--capsule-outputs needs --capsule-log <file> (the log the outputs go to)');
  const sandbox = sandboxOptionsFrom('mcp', values);
  const maxSessions = intFlag('mcp', 'max-sessions', values['max-sessions'], 'sessions');
  const idleTimeoutMs = intFlag('mcp', 'idle-timeout-ms', values['idle-timeout-ms'], 'milliseconds');
  const poolSize = intFlag('mcp', 'pool-size', values['pool-size'], 'processes');
  const maxUploadBytes = intFlag('mcp', 'max-upload-bytes', values['max-upload-bytes'], 'bytes');
  const maxResultChars = intFlag('mcp', 'max-result-chars', values['max-result-chars'], 'characters');
  const pool: Pool | undefined = poolSize ? createPool({ size: poolSize }) : undefined;
  try {
    await serveStdio({
      sandbox,
      ...(pool ? { pool } : {}),
      ...(maxSessions ? { maxSessions } : {}),
      ...(idleTimeoutMs ? { idleTimeoutMs } : {}),
      ...(maxUploadBytes ? { maxUploadBytes } : {}),
      ...(maxResultChars ? { maxResultChars } : {}),
      allowTableUrls: values['allow-table-urls'] === true,
      allowPrivateTableUrls: values['allow-private-table-urls'] === true,
      ...(values['capsule-log'] !== undefined ? { capsuleLog: String(values['capsule-log']) } : {}),
      capsuleOutputs: values['capsule-outputs'] === true,
      deterministic: values.deterministic === true,
    });
  } finally {
    await pool?.close();
  }
  return EXIT.OK;
}
