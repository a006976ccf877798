import { execFile } from 'node:child_process';
import { CLI, cliEnv, ROOT } from './processes.js';

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Run `node bin/sbirtools.js ...args` as a real process and collect its exit code and output. */
export function cli(args: string[], opts: { input?: string; env?: Record<string, string> } = {}): Promise<CliRun> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [CLI, ...args],
      { cwd: ROOT, env: opts.env ?? cliEnv(), maxBuffer: 64 * 1024 * 1024 },
      (err, stdout, stderr) => {
        const code = err ? ((err as { code?: number }).code ?? 1) : 0;
        resolve({ code: typeof code === 'number' ? code : 1, stdout, stderr });
      },
    );
    if (opts.input !== undefined) child.stdin!.end(opts.input);
    else child.stdin!.end();
  });
}
