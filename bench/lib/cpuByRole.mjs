// CPU time of a process tree by role, from /proc (Linux only; elsewhere every snapshot is empty):
// where a bench's cores went, e.g. during a flood (replicas' own event loops, the holders at
// normal priority, the low-priority holders, Redis, the load generator).
import { readdirSync, readFileSync } from 'node:fs';

const TICKS_PER_S = 100; // USER_HZ on Linux

/** pid -> { ppid, ticks (user + system), nice } of every process. */
function allProcesses() {
  const out = new Map();
  let pids = [];
  try {
    pids = readdirSync('/proc').filter((d) => /^\d+$/.test(d));
  } catch {
    return out;
  }
  for (const pid of pids) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      // the fields after the command name, which is in parentheses and may hold spaces
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      out.set(Number(pid), { ppid: Number(f[1]), ticks: Number(f[11]) + Number(f[12]), nice: Number(f[16]) });
    } catch {
      // exited meanwhile
    }
  }
  return out;
}

/**
 * Ticks used so far by role. `roots` maps a role to pids; a root's descendants are counted under
 * `${role} children nice N` (by their nice value), so a replica's holders show apart, except for
 * the roles in `ownOnly` (a process whose children are other roles).
 */
export function cpuSnapshot(roots, ownOnly = []) {
  const procs = allProcesses();
  const byRole = {};
  const add = (role, t) => (byRole[role] = (byRole[role] ?? 0) + t);
  for (const [role, pids] of Object.entries(roots)) {
    for (const pid of pids) {
      const p = procs.get(pid);
      if (!p) continue;
      add(role, p.ticks);
      if (ownOnly.includes(role)) continue;
      const stack = [pid];
      while (stack.length) {
        const parent = stack.pop();
        for (const [cpid, c] of procs)
          if (c.ppid === parent) {
            add(`${role} children nice ${c.nice}`, c.ticks);
            stack.push(cpid);
          }
      }
    }
  }
  return byRole;
}

/** Cores used by each role between two snapshots taken `seconds` apart (a role that appeared counts from 0). */
export function coresBetween(a, b, seconds) {
  const out = {};
  for (const [role, t] of Object.entries(b)) {
    const d = t - (a[role] ?? 0);
    if (d > 0) out[role] = Math.round((d / TICKS_PER_S / seconds) * 100) / 100;
  }
  return out;
}
