/** A text sink (process.stderr, or a test buffer). */
export interface TextOut {
  write(text: string): unknown;
}

const MB = (n: number) => (n / 1e6).toFixed(1);

function clock(secs: number): string {
  if (!Number.isFinite(secs) || secs < 0) return '--:--';
  const s = Math.round(secs);
  const h = Math.floor(s / 3600);
  const mm = String(Math.floor((s % 3600) / 60)).padStart(2, '0');
  const ss = String(s % 60).padStart(2, '0');
  return h > 0 ? `${h}:${mm}:${ss}` : `${mm}:${ss}`;
}

/**
 * A one-line progress bar for a TTY: bytes, percent, rate and ETA, redrawn at most 10 times a
 * second with `\r`. `end()` clears the line. Rate and ETA count only this session's bytes.
 * @example const bar = progressBar(process.stderr, 'award_data.csv'); bar.update(5e6, 4e8, 0); bar.end();
 */
export function progressBar(out: TextOut, label: string, now: () => number = performance.now.bind(performance)) {
  const started = now();
  let last = 0;
  let drawn = false;
  return {
    update(received: number, total: number | undefined, resumedFrom: number): void {
      const t = now();
      if (drawn && t - last < 100 && received !== total) return;
      last = t;
      drawn = true;
      const rate = (received - resumedFrom) / Math.max(0.001, (t - started) / 1000);
      const width = 24;
      const frac = total ? Math.min(1, received / total) : 0;
      const bar = total
        ? `[${'#'.repeat(Math.round(frac * width)).padEnd(width, '.')}] ${String(Math.floor(frac * 100)).padStart(3)}% `
        : '';
      const size = total ? `${MB(received)}/${MB(total)} MB` : `${MB(received)} MB`;
      const eta = total ? `  ETA ${clock((total - received) / rate)}` : '';
      out.write(`\r${label} ${bar}${size}  ${MB(rate)} MB/s${eta}\x1b[K`);
    },
    end(): void {
      if (drawn) out.write('\r\x1b[K');
    },
  };
}
