/**
 * Tokens of a pandas query string: numbers, 'single' / "double" quoted strings, `backtick` column
 * names, identifiers (and the keywords and / or / not / in / True / False / None), @variables, and
 * the operators == != < <= > >= & | ~ + - * / // % ** ( ) [ ] , . A character that fits none of
 * these is a syntax error naming its position.
 */
import { querySyntaxError } from './errors.js';

/** One token with its offset in the query string. */
export interface Token {
  kind: 'num' | 'str' | 'name' | 'col' | 'var' | 'op' | 'end';
  value: string;
  at: number;
}

const OPS = [
  '==',
  '!=',
  '<=',
  '>=',
  '//',
  '**',
  '<',
  '>',
  '&',
  '|',
  '~',
  '+',
  '-',
  '*',
  '/',
  '%',
  '(',
  ')',
  '[',
  ']',
  ',',
  '.',
  '=',
];
const NUMBER = /^(?:\d[\d_]*(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?/;
const IDENT = /^[A-Za-z_\u00C0-\uFFFF][\w\u00C0-\uFFFF]*/;

/**
 * Splits a query into tokens.
 * @throws a ValueError (GuestError) at the first character that is not part of a token
 */
export function tokenize(src: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i];
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    const rest = src.slice(i);
    let m: RegExpMatchArray | null;
    if ((m = rest.match(NUMBER))) {
      out.push({ kind: 'num', value: m[0].replace(/_/g, ''), at: i });
      i += m[0].length;
      continue;
    }
    if (c === "'" || c === '"' || c === '`') {
      let j = i + 1;
      let text = '';
      while (j < src.length && src[j] !== c) {
        if (src[j] === '\\' && c !== '`' && j + 1 < src.length) {
          j++;
          text += ({ n: '\n', t: '\t' } as Record<string, string>)[src[j]] ?? src[j];
        } else text += src[j];
        j++;
      }
      if (j >= src.length)
        throw querySyntaxError(src, i, `unterminated ${c === '`' ? 'backtick column name' : 'string'}`);
      out.push({ kind: c === '`' ? 'col' : 'str', value: text, at: i });
      i = j + 1;
      continue;
    }
    if (c === '@') {
      const id = src.slice(i + 1).match(IDENT);
      if (!id) throw querySyntaxError(src, i, '@ must be followed by a variable name');
      out.push({ kind: 'var', value: id[0], at: i });
      i += 1 + id[0].length;
      continue;
    }
    if ((m = rest.match(IDENT))) {
      out.push({ kind: 'name', value: m[0], at: i });
      i += m[0].length;
      continue;
    }
    const op = OPS.find((o) => rest.startsWith(o));
    if (!op) throw querySyntaxError(src, i, `unexpected character '${c}'`);
    out.push({ kind: 'op', value: op, at: i });
    i += op.length;
  }
  out.push({ kind: 'end', value: '', at: src.length });
  return out;
}
