/**
 * pandas-like number formatting, one formatter per column so values line up:
 * floats share one number of decimals (the fewest that show every value, at most 6, like
 * pandas' display.precision), huge or tiny magnitudes switch to scientific notation, and
 * columns whose values are all integral print as plain integers (pandas would print `1.0`:
 * a documented deviation, it reads better for money amounts).
 */
const MAX_DECIMALS = 6;

/** Formats a non-finite or null number the way pandas prints it. */
export function nonFinite(v: number): string {
  return v !== v ? 'NaN' : v > 0 ? 'inf' : '-inf';
}

function decimalsNeeded(v: number): number {
  const s = Math.abs(v).toFixed(MAX_DECIMALS);
  let end = s.length;
  while (s[end - 1] === '0') end--;
  const dot = s.indexOf('.');
  return end - 1 - dot;
}

/**
 * A formatter for the finite numbers in `sample` (the values that will be shown).
 * @example numberFormatter([1.5, 2.25])(1.5) // '1.50'
 */
export function numberFormatter(sample: readonly number[]): (v: number) => string {
  let maxAbs = 0;
  let minAbs = Infinity;
  let integral = true;
  let decimals = 0;
  for (const v of sample) {
    if (!Number.isFinite(v)) continue;
    const a = Math.abs(v);
    if (a > maxAbs) maxAbs = a;
    if (a > 0 && a < minAbs) minAbs = a;
    if (!Number.isInteger(v)) {
      integral = false;
      const d = decimalsNeeded(v);
      if (d > decimals) decimals = d;
    }
  }
  const fmt = (v: number) => (Number.isFinite(v) ? formatFinite(v) : nonFinite(v));
  let formatFinite: (v: number) => string;
  if (maxAbs >= 1e16 || (!integral && minAbs < 10 ** -MAX_DECIMALS)) {
    formatFinite = (v) => v.toExponential(MAX_DECIMALS).replace(/e([+-])(\d)$/, 'e$10$2'); // pandas: e+05
  } else if (integral) {
    formatFinite = (v) => (v === 0 ? '0' : String(v));
  } else {
    const d = Math.max(1, decimals);
    formatFinite = (v) => v.toFixed(d);
  }
  return fmt;
}
