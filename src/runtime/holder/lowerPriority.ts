import { readdirSync } from 'node:fs';
import { setPriority } from 'node:os';

/**
 * Lower this process's CPU scheduling priority to `nice` (1-19) for good. On Linux a nice value
 * belongs to a thread, not a process, so every thread alive now is lowered by its id; threads
 * started later (isolated-vm's, libuv's) inherit it from the thread that starts them. Elsewhere
 * `setpriority` on the process does it. One-way by design: raising a priority back needs
 * CAP_SYS_NICE, which containers rarely grant, so a low-priority holder stays low for its life.
 * @throws never: a platform that refuses leaves the process at its priority (runs are still correct).
 */
export function lowerPriority(nice: number): void {
  let tids: string[] = [];
  try {
    tids = readdirSync('/proc/self/task');
  } catch {
    // no /proc (macOS, Windows): the process-wide call below
  }
  for (const tid of tids) {
    try {
      setPriority(Number(tid), nice);
    } catch {
      // the thread ended meanwhile
    }
  }
  try {
    setPriority(0, nice);
  } catch {
    // not permitted here: the holder runs at the priority it was given
  }
}
