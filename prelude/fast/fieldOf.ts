/**
 * The column an Arquero-compiled field accessor reads. Arquero generates the accessor text itself
 * (`(row,data,op)=>data["Award Amount"].at(row)` or `data.Agency[row]`), so matching that exact
 * shape recognizes a plain column reference whatever the user wrote (`op.sum('x')`,
 * `d => op.sum(d.x)`, `'op.sum(d.x)'`); any computed field fails to match and keeps Arquero's path.
 */
import { FunctionPrototypeToString, JSONParse, ReflectApply } from '../intrinsics.js';

const FIELD = /^\(row,data,op\)=>data(?:\.([A-Za-z_$][\w$]*)|\[("(?:[^"\\]|\\.)*")\])(?:\.at\(row\)|\[row\])$/;

/** The column name of a compiled field accessor, or undefined when it is not a plain column read. */
export function fieldOf(fn: unknown): string | undefined {
  if (typeof fn !== 'function') return undefined;
  let src: string;
  try {
    src = ReflectApply(FunctionPrototypeToString, fn, []) as string;
  } catch {
    return undefined;
  }
  const m = FIELD.exec(src);
  if (!m) return undefined;
  if (m[1] !== undefined) return m[1];
  try {
    const name = JSONParse(m[2]) as unknown;
    return typeof name === 'string' ? name : undefined;
  } catch {
    return undefined;
  }
}
