/** Half-life of a caller's recorded run time: what it used a minute ago barely counts now. */
const USAGE_HALF_LIFE_MS = 10_000;

/**
 * The run time each caller used on this replica lately (decayed, half-life 10 s): the CPU time
 * of its ended runs (RunResult.stats.cpuMs), or their wall time where the run reported none.
 * CPU, not the time a slot was held: a slot held by a busy loop and one held by a run waiting
 * on its I/O or on a contended core cost the other callers very differently. FairScheduler
 * orders its queues by it and sends a caller over its fair share to the low-priority lane.
 */
export class RunTimeLedger {
  /** Decayed run time of ended runs; forgotten once negligible and a half-life old. */
  private readonly ended = new Map<string, { ms: number; at: number }>();
  /** Start times of each caller's runs in flight (a caller in flight is active). */
  private readonly starts = new Map<string, number[]>();

  /** A run of `key` starts now; call the returned function once when it ends, with the CPU time it used if known. */
  start(key: string): (cpuMs?: number) => void {
    const started = Date.now();
    const starts = this.starts.get(key) ?? [];
    starts.push(started);
    this.starts.set(key, starts);
    let ended = false;
    return (cpuMs) => {
      if (ended) return;
      ended = true;
      const ms = cpuMs !== undefined && Number.isFinite(cpuMs) && cpuMs >= 0 ? cpuMs : Date.now() - started;
      this.ended.set(key, { ms: this.endedMs(key) + ms, at: Date.now() });
      starts.splice(starts.indexOf(started), 1);
      if (!starts.length) this.starts.delete(key);
    };
  }

  /** `key`'s run time now (ended runs, decayed). */
  used(key: string): number {
    return this.endedMs(key);
  }

  /**
   * `key`'s run time over the average of the other callers active here (in flight, or run within
   * about a half-life): 0 when it is alone or used nothing, Infinity when only it used any.
   */
  shareRatio(key: string): number {
    let others = 0;
    let count = 0;
    let mine = 0;
    for (const k of new Set([...this.ended.keys(), ...this.starts.keys()])) {
      const ms = this.used(k);
      if (!this.ended.has(k) && !this.starts.has(k)) continue; // forgotten just now
      if (k === key) mine = ms;
      else [others, count] = [others + ms, count + 1];
    }
    if (count === 0 || mine === 0) return 0;
    return others === 0 ? Infinity : mine / (others / count);
  }

  /** Whether `key` ran here lately (it is still counted). */
  knows(key: string): boolean {
    return this.ended.has(key) || this.starts.has(key);
  }

  private endedMs(key: string): number {
    const u = this.ended.get(key);
    if (!u) return 0;
    const age = Date.now() - u.at;
    const ms = u.ms * 0.5 ** (age / USAGE_HALF_LIFE_MS);
    // kept a half-life even when tiny: a caller with short runs still counts as active
    if (ms < 1 && age > USAGE_HALF_LIFE_MS && !this.starts.has(key)) this.ended.delete(key);
    return ms;
  }
}
