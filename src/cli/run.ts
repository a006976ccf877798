import { readFile } from 'node:fs/promises';
import { run } from '../sandbox/sandbox.js';
import type { RunResult } from '../../schema/result.js';
import { withCapsules, type RunFn } from '../capsule/withCapsules.js';
import { parseCommandArgs, readAll, UsageError, type CliIo } from './args.js';
import { EXIT, exitCodeFor } from './exitCodes.js';
import { writeHuman } from './humanOutput.js';
import { SANDBOX_FLAGS, SANDBOX_FLAGS_HELP, sandboxOptionsFrom } from './sandboxFlags.js';
import { ChartRenderError } from '../sandbox/charts.js';
import { writeSvgs } from './writeSvgs.js';
import { writeRunFiles } from './writeFiles.js';
import { inputFiles } from './outputFile.js';
import { jsonTerminalSafe, terminalSafe } from './terminalSafe.js';

export const RUN_HELP = `Usage: sbirtools run [options] <file.js | ->
       sbirtools run [options] --code '<JavaScript>'

Run analysis code over award_data (US SBIR/STTR awards) in a sandbox and print the result.
'-' reads the code from stdin.

Options:
  --code <js>           the code to run (instead of a file)
  --json                print the whole RunResult as one JSON document on stdout
${SANDBOX_FLAGS_HELP}
  --svg <file.svg>      write the returned chart as SVG (several: file-1.svg, file-2.svg...)
  --out <dir>           write the files the run saves (to_csv, to_parquet, to_arrow,
                        to_json, save_chart) into this folder
  --force               let --out and --svg replace files that exist (never an input)
  --raw                 print the run's output as it is, control characters included
                        (default: escaped on a terminal, raw into a pipe or file)
  --capsule-log <file>  append a capsule record of the run (JSONL) for audit and replay
  --capsule-outputs     also keep the run's outputs in the record (for 'sbirtools view')
  --deterministic       freeze Date.now() and seed Math.random (recorded in the capsule)
  -h, --help            show this help

Exit codes: 0 ok, 1 the code failed, 2 bad usage, 3 a limit was hit, 4 data unavailable,
70 internal error, 130 interrupted. See docs/cli.md.

Example:
  sbirtools run --code "value_counts(award_data, 'Agency').head(5)"`;

/** Parsed `sbirtools run` arguments. */
export interface RunArgs {
  help: boolean;
  code?: string;
  file?: string;
  json: boolean;
  svg?: string;
  out?: string;
  force: boolean;
  raw: boolean;
  capsuleLog?: string;
  capsuleOutputs: boolean;
  deterministic: boolean;
  sandbox: ReturnType<typeof sandboxOptionsFrom>;
}

/**
 * Parse `sbirtools run` arguments (pure: reads no file).
 * @throws {UsageError} for unknown flags, bad values, no code, or both a file and --code.
 */
export function parseRunArgs(argv: string[]): RunArgs {
  const { values, positionals } = parseCommandArgs('run', argv, {
    code: { type: 'string' },
    json: { type: 'boolean' },
    svg: { type: 'string' },
    out: { type: 'string' },
    force: { type: 'boolean' },
    raw: { type: 'boolean' },
    'capsule-log': { type: 'string' },
    'capsule-outputs': { type: 'boolean' },
    deterministic: { type: 'boolean' },
    ...SANDBOX_FLAGS,
  });
  const help = values.help === true;
  if (help)
    return { help, json: false, force: false, raw: false, capsuleOutputs: false, deterministic: false, sandbox: {} };
  if (positionals.length > 1)
    throw new UsageError('run', `expected one file, got ${positionals.length}: ${positionals.join(' ')}`);
  const code = values.code as string | undefined;
  const file = positionals[0];
  if (code !== undefined && file !== undefined)
    throw new UsageError('run', `give either a file ('${file}') or --code, not both`);
  if (values['capsule-outputs'] && values['capsule-log'] === undefined)
    throw new UsageError('run', '--capsule-outputs needs --capsule-log <file> (the log the outputs go to)');
  if (code === undefined && file === undefined)
    throw new UsageError('run', "missing code: pass a file, '-' to read stdin, or --code '<JavaScript>'");
  return {
    help,
    ...(code !== undefined ? { code } : {}),
    ...(file !== undefined ? { file } : {}),
    json: values.json === true,
    ...(values.svg !== undefined ? { svg: String(values.svg) } : {}),
    ...(values.out !== undefined ? { out: String(values.out) } : {}),
    force: values.force === true,
    raw: values.raw === true,
    ...(values['capsule-log'] !== undefined ? { capsuleLog: String(values['capsule-log']) } : {}),
    capsuleOutputs: values['capsule-outputs'] === true,
    deterministic: values.deterministic === true,
    sandbox: sandboxOptionsFrom('run', values),
  };
}

/** `sbirtools run`: returns the exit code. */
export async function runCommand(argv: string[], io: CliIo): Promise<number> {
  const args = parseRunArgs(argv);
  if (args.help) {
    io.stdout.write(`${RUN_HELP}\n`);
    return EXIT.OK;
  }
  const code = args.code ?? (await readCode(args.file!, io));
  const oneShot: RunFn = (c, o) => run(c, { ...args.sandbox, ...o } as Parameters<typeof run>[1]);
  const runFn =
    args.capsuleLog || args.deterministic
      ? withCapsules(oneShot, {
          path: args.capsuleLog,
          deterministic: args.deterministic,
          outputs: args.capsuleOutputs,
          ...(args.sandbox.preset ? { preset: args.sandbox.preset } : {}),
        })
      : oneShot;
  // Ctrl-C cancels the run (ABORTED, exit 130) and still shuts the holder down cleanly.
  const abort = new AbortController();
  const onSigint = () => abort.abort();
  process.once('SIGINT', onSigint);
  if ((globalThis as { __sbirtoolsSigint?: boolean }).__sbirtoolsSigint) abort.abort(); // pressed during start-up (bin/sbirtools.js)
  let result: RunResult;
  try {
    result = await runFn(code, { signal: abort.signal });
  } finally {
    process.off('SIGINT', onSigint);
  }
  let exit = exitCodeFor(result);
  let chartsWritten = false;
  // what this run read: no file it writes may land on one of them, whatever the spelling or link
  const inputs = inputFiles([
    args.file === '-' ? undefined : args.file,
    args.sandbox.dataPath,
    ...Object.values(args.sandbox.tables ?? {}).map(String),
    args.capsuleLog,
    io.env.SBIRTOOLS_CSV_PATH,
  ]);
  const written = { force: args.force, inputs };
  if (args.svg) {
    if (result.charts?.length) {
      try {
        const files = await writeSvgs(result.charts, args.svg, written);
        chartsWritten = true;
        io.stderr.write(`sbirtools: wrote ${terminalSafe(files.join(', '))}\n`);
      } catch (err) {
        // A chart that cannot be drawn is the code's to fix (exit 1); an unwritable path is the caller's (exit 2).
        const unrenderable = err instanceof ChartRenderError;
        const code = (err as { code?: string }).code;
        io.stderr.write(
          `sbirtools run: ${unrenderable ? 'could not render the chart as SVG: ' : code?.startsWith('OUTPUT_') ? `${code}: ` : `could not write ${args.svg}: `}${terminalSafe((err as Error).message)}\n`,
        );
        if (exit === EXIT.OK) exit = unrenderable ? EXIT.GUEST_ERROR : EXIT.USAGE;
      }
    } else if (result.ok) {
      io.stderr.write(
        'sbirtools: --svg given but the run returned no chart; return one, e.g. the value of a chart helper as the last expression.\n',
      );
    }
  }
  const saved = result.files ?? [];
  if (saved.length) {
    if (args.out) {
      try {
        const files = await writeRunFiles(saved, args.out, written);
        result = { ...result, files };
        io.stderr.write(`sbirtools: wrote ${terminalSafe(files.map((f) => f.path).join(', '))}\n`);
      } catch (err) {
        const code = (err as { code?: string }).code;
        io.stderr.write(
          `sbirtools run: ${code?.startsWith('OUTPUT_') ? `${code}: ` : `could not write the files to ${args.out}: `}${terminalSafe((err as Error).message)}\n`,
        );
        if (exit === EXIT.OK) exit = EXIT.USAGE;
        result = { ...result, files: saved.map(({ bytes: _b, ...f }) => f) };
      }
    } else {
      io.stderr.write(
        `sbirtools: the run saved ${saved.map((f) => `${f.name} (${f.size} bytes)`).join(', ')}; write them with --out <dir>.\n`,
      );
      result = { ...result, files: saved.map(({ bytes: _b, ...f }) => f) };
    }
  }
  if (args.json) io.stdout.write(`${args.raw ? JSON.stringify(result) : jsonTerminalSafe(JSON.stringify(result))}\n`);
  else writeHuman(result, io, { chartsWritten, raw: args.raw });
  if (args.json && result.dataset?.synthetic)
    io.stderr.write(
      'sbirtools: award_data is the SYNTHETIC sample, not real SBIR awards (run `sbirtools download-data`).\n',
    );
  return exit;
}

async function readCode(file: string, io: CliIo): Promise<string> {
  if (file === '-') return readAll(io.stdin);
  try {
    return await readFile(file, 'utf8');
  } catch (err) {
    throw new UsageError(
      'run',
      `cannot read '${file}': ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
    );
  }
}
