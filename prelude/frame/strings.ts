/**
 * String helpers for one value, usable anywhere, including inside derive/filter expressions
 * (they are registered as Arquero functions, so they also compile in rollup/groupby expressions).
 * `lower`, `upper`, `startswith`, `endswith`, `split`, `replace`, `trim` are Arquero's own op
 * functions (null-safe: lower(null) is null, startswith(null, 'x') is false, split(null) is []).
 */
import { op } from 'arquero';
import { GuestError } from '../errors/guestError.js';
import { isNull } from './common.js';

/** Options of contains (pandas str.contains). */
export interface ContainsOptions {
  /** Case-sensitive match. @default true */
  case?: boolean;
  /** Result for a null value. @default false (pandas gives NaN, which filters out the same way) */
  na?: boolean;
  /** Treat the pattern as a regular expression. @default true (as in pandas) */
  regex?: boolean;
}

const cache = new Map<string, RegExp>();

function toRegExp(pat: string, flags: string): RegExp {
  const key = `${flags}/${pat}`;
  let re = cache.get(key);
  if (!re) {
    try {
      re = new RegExp(pat, flags);
    } catch (e) {
      throw new GuestError(
        'ValueError',
        `contains(): invalid regular expression ${JSON.stringify(pat)}: ${(e as Error).message}`,
        `Pass { regex: false } to match the text literally: contains(s, ${JSON.stringify(pat)}, { regex: false }).`,
      );
    }
    if (cache.size > 500) cache.clear();
    cache.set(key, re);
  }
  re.lastIndex = 0;
  return re;
}

/**
 * pandas str.contains for one value.
 * @example award_data.filter(d => contains(d['Award Title'], 'quantum', { case: false }))
 */
export function contains(s: unknown, pat: unknown, options: ContainsOptions | boolean = {}): boolean {
  const o = typeof options === 'boolean' ? { case: options } : (options ?? {});
  if (isNull(s)) return o.na ?? false;
  const text = String(s);
  const caseSensitive = o.case ?? true;
  if (pat instanceof RegExp)
    return toRegExp(
      pat.source,
      pat.flags.replace('g', '') + (caseSensitive || pat.flags.includes('i') ? '' : 'i'),
    ).test(text);
  const p = String(pat);
  if (o.regex === false) return caseSensitive ? text.includes(p) : text.toLowerCase().includes(p.toLowerCase());
  return toRegExp(p, caseSensitive ? '' : 'i').test(text);
}

/** Whitespace-trimmed string (null stays null). @example strip('  a ') // 'a' */
export function strip(s: unknown): unknown {
  return isNull(s) ? null : String(s).trim();
}

/** Arquero's null-safe string functions, re-exported as globals. */
export const lower = op.lower;
export const upper = op.upper;
export const startswith = op.startswith;
export const endswith = op.endswith;
export const split = op.split;
export const replace = op.replace;
