/**
 * Per-value string functions over a Series' typed arrays (typed.ts): a dictionary column applies
 * the function once per distinct string and maps its codes; long text is visited page by page.
 * Missing values stay missing. Without a view the Series' own per-value path is used.
 */
import { isNull } from '../frame/common.js';
import { Series } from './Series.js';
import { typedOf } from './typed.js';

const asText = (v: unknown): string => (typeof v === 'string' ? v : String(v));

/** f of each present value (as text) into an array; missing stays null. */
export function mapText(s: Series, f: (v: string) => unknown, dtype: 'string' | 'integer' | null): Series {
  const t = typedOf(s);
  const n = s.length;
  if (t && t.kind === 'dict') {
    const { codes, dict, rows } = t;
    const mapped = new Array<unknown>(dict.length);
    for (let k = 0; k < dict.length; k++) mapped[k] = f(dict[k]!);
    const out = new Array<unknown>(n);
    for (let i = 0; i < n; i++) {
      const c = codes[rows ? rows[i]! : i]!;
      out[i] = c < 0 ? null : mapped[c];
    }
    return Series.of(out, s.name, s.labels, dtype);
  }
  if (t && t.kind === 'text') {
    const out = new Array<unknown>(n);
    t.forEach((v, i) => {
      out[i] = v === null ? null : f(v);
    });
    return Series.of(out, s.name, s.labels, dtype);
  }
  return s.mapValues((v) => (isNull(v) ? null : f(asText(v))), s.name, dtype);
}

/** An integer per present value (lengths, counts, positions) into a Float64Array; missing stays null. */
export function countText(s: Series, f: (v: string) => number, narrowF?: (v: string) => number): Series {
  const t = typedOf(s);
  if (!t || (t.kind !== 'dict' && t.kind !== 'text')) return mapText(s, f, 'integer');
  const n = s.length;
  const values = new Float64Array(n);
  const valid = new Uint8Array(n);
  if (t.kind === 'dict') {
    const { codes, dict, rows } = t;
    const mapped = new Float64Array(dict.length);
    for (let k = 0; k < dict.length; k++) mapped[k] = f(dict[k]!);
    for (let i = 0; i < n; i++) {
      const c = codes[rows ? rows[i]! : i]!;
      if (c >= 0) {
        values[i] = mapped[c]!;
        valid[i] = 1;
      }
    }
  } else {
    // a page without text outside Latin-1 may take the cheaper count (no surrogate pairs to look for)
    t.forEach((v, i, narrow) => {
      if (v !== null) {
        values[i] = narrow && narrowF ? narrowF(v) : f(v);
        valid[i] = 1;
      }
    });
  }
  return Series.numbers(values, valid, s, s.name, 'integer');
}

const PAIR = /[\uD800-\uDBFF][\uDC00-\uDFFF]/;

/** Characters as Python counts them (code points): the UTF-16 length less one per surrogate pair, no spread. */
export function codePoints(v: string): number {
  const n = v.length;
  if (!PAIR.test(v)) return n;
  let pairs = 0;
  for (let i = 0; i + 1 < n; i++) {
    const c = v.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = v.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        pairs++;
        i++;
      }
    }
  }
  return n - pairs;
}

/** Integer counts (lengths) as a Series like `s` (for strAccessor.ts, which imports Series as a type only). */
export function countsLike(s: Series, values: Float64Array, valid: Uint8Array): Series {
  return Series.numbers(values, valid, s, s.name, 'integer');
}

/** A mask as a Series like `s`. */
export function maskLike(s: Series, bits: Uint8Array): Series {
  return Series.bools(bits, s);
}
