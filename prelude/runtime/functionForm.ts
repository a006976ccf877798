/**
 * The function form of a synchronous program (schema/functionForm.ts) made in the isolate, for a run
 * the host sent without one (the QuickJS engine, a program the host's check did not give a form).
 */
import { parse } from 'acorn';
import { functionForm as formOf, type FunctionForm } from '../../schema/functionForm.js';

export { EVAL_ONLY, type FunctionForm } from '../../schema/functionForm.js';

const parseScript = (code: string): unknown => parse(code, { ecmaVersion: 'latest', sourceType: 'script' });

/**
 * The program as a function, or undefined when it must run as evaluated (schema/functionForm.ts).
 * @example functionForm('let s = 0;\nfor (const v of xs) s += v;\ns', false)?.declare // 'var s;'
 */
export function functionForm(code: string, resultName: boolean): FunctionForm | undefined {
  return formOf(code, resultName, parseScript);
}
