// Order statistics of repeated timings: median and p90 (linear interpolation, like numpy's default).

/** The q-quantile (0..1) of numbers. */
export function quantile(samples, q) {
  const s = [...samples].sort((a, b) => a - b);
  if (s.length === 0) return NaN;
  const pos = (s.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return s[lo] + (s[hi] - s[lo]) * (pos - lo);
}

/** { n, p50, p90, min, max, mean } of numbers, rounded to 3 decimals. */
export function summarize(samples) {
  const r = (x) => Math.round(x * 1000) / 1000;
  const n = samples.length;
  return {
    n,
    p50: r(quantile(samples, 0.5)),
    p90: r(quantile(samples, 0.9)),
    min: r(Math.min(...samples)),
    max: r(Math.max(...samples)),
    mean: r(samples.reduce((a, b) => a + b, 0) / n),
  };
}

/** Milliseconds taken by `fn` (awaited). */
export async function timeMs(fn) {
  const t = performance.now();
  const value = await fn();
  return { ms: performance.now() - t, value };
}

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
