/**
 * `s.str`: pandas string methods over a Series. Missing values stay missing (null); the boolean tests
 * (contains, startswith, endswith, is*) give `na` (default false) for them, so the result is a mask
 * that filters like pandas' `na=False`. `replace` is literal unless given a RegExp or `{ regex: true }`.
 */
import { GuestError } from '../errors/guestError.js';
import { isNull } from '../frame/common.js';
import { scanContains, scanLengths, typedOf } from './typed.js';
import { contains, type ContainsOptions } from '../frame/strings.js';
import { codePoints, countsLike, countText, mapText, maskLike } from './mapText.js';
import type { Series } from './Series.js';
import { pickCodes, splitCodes } from './splitCodes.js';

type S = Series;

const utf16Length = (v: string) => v.length;

const str = (s: S, f: (v: string) => unknown, dtype: 'string' | 'integer' | null = null) =>
  dtype === 'integer' ? countText(s, f as (v: string) => number) : mapText(s, f, dtype);
const test = (s: S, na: unknown, f: (v: string) => boolean) => {
  const missing = Boolean(na ?? false);
  return s.maskValues((v) => (isNull(v) ? missing : f(typeof v === 'string' ? v : String(v))));
};
/** Characters that make a pattern more than a literal in a RegExp. */
const REGEX_SPECIAL = /[\\^$.*+?()[\]{}|/]/;
/** The mask of a literal contains answered from the host's bytes (typed.ts scanContains), or null. */
const scanned = (s: S, needle: string, fold: 'none' | 'regex' | 'lower', f: (v: string) => boolean, na: unknown) => {
  const bits = scanContains(s, needle, fold, f, Boolean(na ?? false));
  return bits ? maskLike(s, bits) : null;
};
const prefixes = (p: unknown): string[] => (Array.isArray(p) ? p.map(String) : [String(p)]);
const escapeRe = (p: string) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function regex(pat: unknown, flags: string, where: string): RegExp {
  try {
    return pat instanceof RegExp
      ? new RegExp(pat.source, pat.flags.includes('g') ? pat.flags : pat.flags + flags)
      : new RegExp(String(pat), flags);
  } catch (e) {
    throw new GuestError(
      'ValueError',
      `str.${where}(): invalid regular expression ${JSON.stringify(String(pat))}: ${(e as Error).message}`,
      'Escape special characters, or pass { regex: false }.',
    );
  }
}

function title(v: string): string {
  return v.toLowerCase().replace(/(^|[^\p{L}\p{N}'])(\p{L})/gu, (_, a: string, b: string) => a + b.toUpperCase());
}

/** The `.str` accessor of one Series. */
export class StringMethods {
  constructor(private readonly s: S) {}
  contains(pat: unknown, opts?: ContainsOptions | boolean) {
    const o = (typeof opts === 'boolean' ? { case: opts } : (opts ?? {})) as ContainsOptions;
    if (typeof pat === 'string' && o.regex !== false) {
      const re = regex(pat, o.case === false ? 'i' : '', 'contains'); // compiled once, not per value
      const f = (v: string) => re.test(v);
      // a pattern without special characters is a literal: long text is searched on the host's bytes
      return (
        (!REGEX_SPECIAL.test(pat) && scanned(this.s, pat, o.case === false ? 'regex' : 'none', f, o.na)) ||
        test(this.s, o.na, f)
      );
    }
    if (typeof pat === 'string' && o.case === false) {
      const p = pat.toLowerCase();
      const f = (v: string) => v.toLowerCase().includes(p);
      return scanned(this.s, pat, 'lower', f, o.na) || test(this.s, o.na, f);
    }
    if (typeof pat === 'string') {
      const f = (v: string) => v.includes(pat);
      return scanned(this.s, pat, 'none', f, o.na) || test(this.s, o.na, f);
    }
    return test(this.s, o.na, (v) => contains(v, pat, o));
  }
  startswith(p: unknown, na?: unknown) {
    const ps = prefixes(p);
    return test(this.s, na, (v) => ps.some((x) => v.startsWith(x)));
  }
  endswith(p: unknown, na?: unknown) {
    const ps = prefixes(p);
    return test(this.s, na, (v) => ps.some((x) => v.endsWith(x)));
  }
  match(pat: unknown, opts?: { case?: boolean; na?: unknown }) {
    const re = regex(pat, opts?.case === false ? 'i' : '', 'match');
    return test(this.s, opts?.na, (v) => re.exec(v)?.index === 0);
  }
  fullmatch(pat: unknown, opts?: { case?: boolean; na?: unknown }) {
    const re = regex(
      `^(?:${pat instanceof RegExp ? pat.source : String(pat)})$`,
      opts?.case === false ? 'i' : '',
      'fullmatch',
    );
    return test(this.s, opts?.na, (v) => re.test(v));
  }
  isdigit() {
    return test(this.s, false, (v) => /^\d+$/.test(v));
  }
  isnumeric() {
    return test(this.s, false, (v) => /^\p{N}+$/u.test(v));
  }
  isalpha() {
    return test(this.s, false, (v) => /^\p{L}+$/u.test(v));
  }
  isspace() {
    return test(this.s, false, (v) => /^\s+$/.test(v));
  }
  lower() {
    return str(this.s, (v) => v.toLowerCase(), 'string');
  }
  upper() {
    return str(this.s, (v) => v.toUpperCase(), 'string');
  }
  title() {
    return str(this.s, title, 'string');
  }
  capitalize() {
    return str(this.s, (v) => v.charAt(0).toUpperCase() + v.slice(1).toLowerCase(), 'string');
  }
  strip(chars?: unknown) {
    return chars === undefined
      ? str(this.s, (v) => v.trim(), 'string')
      : str(
          this.s,
          (v) => v.replace(new RegExp(`^[${escapeRe(String(chars))}]+|[${escapeRe(String(chars))}]+$`, 'g'), ''),
          'string',
        );
  }
  lstrip() {
    return str(this.s, (v) => v.trimStart(), 'string');
  }
  rstrip() {
    return str(this.s, (v) => v.trimEnd(), 'string');
  }
  /** Length in characters (code points, as Python counts them). */
  len() {
    const t = typedOf(this.s);
    const host = scanLengths(this.s, codePoints, utf16Length);
    if (host) return countsLike(this.s, host.values, host.valid);
    if (t && (t.kind === 'dict' || t.kind === 'text')) return countText(this.s, codePoints, utf16Length);
    return this.s.mapValues(
      (v) =>
        isNull(v) ? null : typeof v === 'string' ? codePoints(v) : Array.isArray(v) ? v.length : codePoints(String(v)),
      this.s.name,
      'integer',
    );
  }
  replace(pat: unknown, repl: unknown, opts?: { regex?: boolean; case?: boolean } | boolean) {
    const useRegex = pat instanceof RegExp || (typeof opts === 'boolean' ? opts : opts?.regex === true);
    const flags = typeof opts === 'object' && opts?.case === false ? 'gi' : 'g';
    const re = useRegex ? regex(pat, flags, 'replace') : new RegExp(escapeRe(String(pat)), flags);
    if (typeof repl === 'function')
      return str(this.s, (v) => v.replace(re, (...m) => String((repl as (x: unknown) => unknown)(m[0]))), 'string');
    const r = String(repl ?? '');
    return str(this.s, (v) => (useRegex ? v.replace(re, r) : v.replace(re, () => r)), 'string');
  }
  split(sep?: unknown, opts?: { n?: number; expand?: boolean }) {
    if (opts?.expand)
      throw new GuestError(
        'TypeError',
        'str.split(..., { expand: true }) is not supported',
        'Take parts with s.str.split(sep).str.get(i), one column at a time.',
      );
    const n = opts?.n;
    const splitOne = (v: string): string[] => {
      const parts =
        sep === undefined || sep === null ? v.trim().split(/\s+/) : v.split(sep instanceof RegExp ? sep : String(sep));
      return n !== undefined && n >= 0 && parts.length > n + 1
        ? [...parts.slice(0, n), parts.slice(n).join(String(sep))]
        : parts;
    };
    return (
      splitCodes(this.s, splitOne) ??
      this.s.mapValues((v) => (isNull(v) ? null : splitOne(String(v))), this.s.name, 'object')
    );
  }
  /** Element i of each list (after split) or character i of each string; missing when out of range. */
  get(i: unknown) {
    const k = Number(i);
    const pick = (v: unknown) => {
      const seq = Array.isArray(v) ? v : [...String(v)];
      const x: unknown = seq[k < 0 ? seq.length + k : k];
      return x === undefined ? null : x;
    };
    return (
      pickCodes(this.s, pick as (v: string | readonly string[]) => string | null) ??
      this.s.mapValues((v) => (isNull(v) ? null : pick(v)))
    );
  }
  slice(start?: unknown, stop?: unknown) {
    return str(
      this.s,
      (v) =>
        [...v]
          .slice(
            start === undefined || start === null ? 0 : Number(start),
            stop === undefined || stop === null ? undefined : Number(stop),
          )
          .join(''),
      'string',
    );
  }
  join(sep: unknown) {
    return this.s.mapValues((v) =>
      isNull(v) ? null : Array.isArray(v) ? v.join(String(sep)) : [...String(v)].join(String(sep)),
    );
  }
  count(pat: unknown) {
    const re = regex(pat, 'g', 'count');
    return str(this.s, (v) => (v.match(re) ?? []).length, 'integer');
  }
  find(sub: unknown) {
    return str(this.s, (v) => v.indexOf(String(sub)), 'integer');
  }
  /** The first capture group (or whole match) of the first match, missing when none. */
  extract(pat: unknown) {
    const re = regex(pat, '', 'extract');
    return str(
      this.s,
      (v) => {
        const m = re.exec(v);
        return m ? (m[1] ?? m[0]) : null;
      },
      'string',
    );
  }
  zfill(width: unknown) {
    return str(this.s, (v) => v.padStart(Number(width), '0'), 'string');
  }
  pad(width: unknown, side: unknown = 'left', fill: unknown = ' ') {
    return str(
      this.s,
      (v) => (side === 'right' ? v.padEnd(Number(width), String(fill)) : v.padStart(Number(width), String(fill))),
      'string',
    );
  }
  cat(opts?: { sep?: string }) {
    return this.s
      .toArray()
      .filter((v) => !isNull(v))
      .join(opts?.sep ?? '');
  }
}
