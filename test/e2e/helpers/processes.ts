import { readdirSync, readFileSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The repository root (tests run the compiled CLI from here). */
export const ROOT = join(import.meta.dirname, '..', '..', '..');
export const CLI = join(ROOT, 'bin', 'sbirtools.js');

/** Env for a CLI child: an empty cache folder, so award_data is the embedded synthetic sample. */
export function cliEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && k !== 'SBIRTOOLS_CSV_PATH') env[k] = v;
  return { ...env, SBIRTOOLS_CACHE_DIR: mkdtempSync(join(tmpdir(), 'sbirtools-e2e-cache-')), ...extra };
}

/** Pids whose parent is `pid`, read from /proc (what `ps --ppid` shows). */
export function childPids(pid: number): number[] {
  const out: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // Field 4 is the parent pid; the command name (field 2) may contain spaces, so split after ')'.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid) out.push(Number(entry));
    } catch {
      // the process exited while we looked
    }
  }
  return out;
}

/** True while `pid` exists and is not a zombie. */
export function isAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

/** Wait (polling, bounded) until none of `pids` is alive; returns those still alive. */
export async function waitGone(pids: number[]): Promise<number[]> {
  for (let i = 0; i < 200; i++) {
    const alive = pids.filter(isAlive);
    if (alive.length === 0) return [];
    await new Promise((r) => setTimeout(r, 50));
  }
  return pids.filter(isAlive);
}

/** A free loopback port (bound then released). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/** How many free ports retryOnPortTaken tries when another process takes the one picked before it is bound. */
const PORT_TRIES = 5;

/**
 * `start` again (it picks another free port) while what it started failed with EADDRINUSE: a port
 * free when picked was taken before the process bound it. Any other failure is thrown at once.
 */
export async function retryOnPortTaken<T>(start: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await start();
    } catch (e) {
      if (attempt >= PORT_TRIES || !/EADDRINUSE|Address already in use/.test(String(e))) throw e;
    }
  }
}
