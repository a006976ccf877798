// Run a bundle the way a function platform does: a copied folder with no node_modules above it, a
// fresh process, HOME and the working directory read-only (only the temp dir writable), and the
// heap capped as on a 1024 MB function. As root (the CI container) the process drops to `nobody`
// through setpriv, since root ignores file permissions.
import { spawn } from 'node:child_process';
import { chmodSync, chownSync, cpSync, mkdirSync, mkdtempSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const NOBODY = 65534;
/** V8's old space on a 1024 MB Lambda (the platform leaves the rest to the runtime and native memory). */
export const HEAP_CAP_MB = 896;

export interface FunctionFolder {
  /** The copied, read-only function folder. */
  dir: string;
  /** The only writable folder (TMPDIR). */
  tmp: string;
  /** A writable folder for the test's own runner scripts, outside `dir`. */
  runners: string;
}

/** Copy `bundleDir` to a fresh folder under the system temp dir (nothing above it has node_modules) and make it read-only. */
export function copyReadOnly(bundleDir: string): FunctionFolder {
  const root = mkdtempSync(join(tmpdir(), 'sbirtools-fn-'));
  chmodSync(root, 0o755);
  const dir = join(root, 'fn');
  cpSync(bundleDir, dir, { recursive: true });
  readOnly(dir);
  const tmp = join(root, 'tmp');
  const runners = join(root, 'runners');
  mkdirSync(tmp);
  mkdirSync(runners);
  if (process.getuid?.() === 0) chownSync(tmp, NOBODY, NOBODY);
  return { dir, tmp, runners };
}

function readOnly(path: string): void {
  const st = statSync(path);
  if (st.isDirectory()) {
    for (const entry of readdirSync(path)) readOnly(join(path, entry));
    chmodSync(path, 0o555);
  } else {
    chmodSync(path, st.mode & 0o111 ? 0o555 : 0o444);
  }
}

export interface Spawned {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The command and environment of a function process: as `nobody` when root, cwd and HOME the read-only folder. */
export function functionCommand(
  fn: FunctionFolder,
  args: string[],
  env: Record<string, string> = {},
): { command: string; args: string[]; options: { cwd: string; env: Record<string, string> } } {
  const node = [process.execPath, `--max-old-space-size=${HEAP_CAP_MB}`, ...args];
  const asNobody = process.getuid?.() === 0;
  return {
    command: asNobody ? 'setpriv' : node[0]!,
    args: asNobody ? [`--reuid=${NOBODY}`, `--regid=${NOBODY}`, '--clear-groups', ...node] : node.slice(1),
    options: {
      cwd: fn.dir,
      // a platform's environment: no NODE_PATH, no caches, nothing of the test runner's
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        HOME: fn.dir,
        TMPDIR: fn.tmp,
        LANG: 'C.UTF-8',
        NODE_OPTIONS: `--max-old-space-size=${HEAP_CAP_MB}`,
        ...env,
      },
    },
  };
}

/** Run a script in a function process to its end (bounded by `timeoutMs`, a hang guard). */
export function runFunction(
  fn: FunctionFolder,
  args: string[],
  env: Record<string, string> = {},
  timeoutMs = 180_000,
): Promise<Spawned> {
  const { command, args: argv, options } = functionCommand(fn, args, env);
  return new Promise((resolve) => {
    const child = spawn(command, argv, {
      ...options,
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: timeoutMs,
      killSignal: 'SIGKILL',
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Each line of `stdout` that is a JSON object, parsed. */
export function jsonLines(stdout: string): Record<string, unknown>[] {
  return stdout
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}
