// Memory of processes from /proc (Linux): VmRSS (now) and VmHWM (peak), and a sampler of sums.
import { readFileSync, readdirSync } from 'node:fs';

const MB = 1e6;

/** { rssMb, hwmMb } of a pid, or undefined when it is gone. */
export function memOf(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (key) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
    return { rssMb: (kb('VmRSS') * 1024) / MB, hwmMb: (kb('VmHWM') * 1024) / MB };
  } catch {
    return undefined;
  }
}

/** Pids whose parent is `pid` (scans /proc; works without CONFIG_PROC_CHILDREN). */
export function childPids(pid) {
  const out = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      // the command may hold spaces and parentheses: the ppid is the 2nd field after the last ')'
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid) out.push(Number(name));
    } catch {
      // the process ended while we looked
    }
  }
  return out;
}

/**
 * Samples the summed VmRSS of `pids()` every `intervalMs`; stop() returns the peak sum, and the
 * summed VmHWM (each process's own peak) of the pids seen at the last sample.
 */
export function rssSampler(pids, intervalMs = 50) {
  let peakSumMb = 0;
  let last = [];
  const sample = () => {
    last = pids();
    let sum = 0;
    for (const pid of last) sum += memOf(pid)?.rssMb ?? 0;
    peakSumMb = Math.max(peakSumMb, sum);
  };
  sample();
  const timer = setInterval(sample, intervalMs);
  return {
    stop() {
      clearInterval(timer);
      sample();
      const per = last.map((pid) => ({ pid, ...memOf(pid) }));
      return {
        peakSumMb,
        hwmSumMb: per.reduce((a, p) => a + (p.hwmMb ?? 0), 0),
        rssSumMb: per.reduce((a, p) => a + (p.rssMb ?? 0), 0),
        processes: per,
      };
    },
  };
}
