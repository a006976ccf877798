/**
 * Arquero compiles `a.b(x)` as the op function `b(x)` and drops the receiver `a`: so
 * `d => d['Award Title'].includes('quantum')` silently becomes `op.includes('quantum')` (always
 * false), and `.slice`, `.replace`, `.split`, `.indexOf`... change meaning the same way. LLMs
 * write string methods constantly, so a function that calls a method on anything but `op`,
 * `aq.op` or `Math` must run as real JavaScript (the closure path), never through the compiler.
 */
import { parse } from 'acorn';
import { FunctionPrototypeToString, ReflectApply } from '../intrinsics.js';

type Node = { type: string; [key: string]: unknown };

const cache = new WeakMap<Function, boolean>();

/** True when the function's body calls a method on a value (not on op, aq.op or Math). */
export function callsValueMethods(fn: Function): boolean {
  const known = cache.get(fn);
  if (known !== undefined) return known;
  let found = false;
  try {
    const src = ReflectApply(FunctionPrototypeToString, fn, []) as string;
    if (/\.\s*[A-Za-z_$][\w$]*\s*\(|\]\s*\(/.test(src)) {
      found = walk(parse(`(${src})`, { ecmaVersion: 'latest' }) as unknown as Node);
    }
  } catch {
    found = false; // not parseable as an expression (native or method shorthand): let Arquero decide
  }
  cache.set(fn, found);
  return found;
}

function walk(node: Node): boolean {
  if (node.type === 'CallExpression' && isValueMethod(node.callee as Node)) return true;
  for (const key of Object.keys(node)) {
    const v = node[key] as unknown;
    if (Array.isArray(v)) {
      for (const c of v) if (c && typeof (c as Node).type === 'string' && walk(c as Node)) return true;
    } else if (v && typeof (v as Node).type === 'string' && walk(v as Node)) return true;
  }
  return false;
}

function isValueMethod(callee: Node): boolean {
  if (callee.type === 'ChainExpression') return isValueMethod(callee.expression as Node);
  if (callee.type !== 'MemberExpression') return false;
  const obj = callee.object as Node;
  if (obj.type === 'Identifier' && (obj.name === 'op' || obj.name === 'Math')) return false;
  if (
    obj.type === 'MemberExpression' &&
    (obj.object as Node).type === 'Identifier' &&
    (obj.object as Node).name === 'aq' &&
    (obj.property as Node).name === 'op'
  )
    return false;
  return true;
}
