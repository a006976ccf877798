import * as acorn from 'acorn';
import { functionForm } from '../../../schema/functionForm.js';
import type { PreparedCode } from './transform.js';

const parseScript = (code: string): unknown => acorn.parse(code, { ecmaVersion: 'latest', sourceType: 'script' });

/**
 * `prepared` with the function form of its code (schema/functionForm.ts) when a synchronous program
 * has one, made here so that the isolate parses nothing to run it: a fresh isolate's acorn is cold
 * (no type feedback), and parsing a model's prepared program there was 2-5 ms of its first run,
 * where this process's acorn has just parsed the same program for the check (docs/benchmarks.md
 * "A fresh session's first run: the program's parse moved out of the isolate (session 25)").
 * The form is what the prelude would make of the same text (the same function and parser); the
 * isolate makes its own when none is sent.
 * @example withRunForm(prepareCode('let s = 0;\nfor (const v of xs) s += v;\ns')).form?.declare // 'var s;'
 */
export function withRunForm(prepared: PreparedCode): PreparedCode {
  if (prepared.async) return prepared;
  const form = functionForm(prepared.code, prepared.resultName, parseScript);
  return form ? { ...prepared, form } : prepared;
}
