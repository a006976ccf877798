/**
 * The syntax tree of a closure's own source (acorn over Function.prototype.toString, read through
 * the prelude's saved intrinsics so guest code cannot swap them), for the analyses that decide
 * whether a closure may take a fast path (closure/rowReads.ts, fast/closureFilter.ts).
 */
import { parse } from 'acorn';
import { FunctionPrototypeToString, ReflectApply } from '../intrinsics.js';

/** An acorn node, loosely typed. */
export type Node = { type: string; [key: string]: unknown };

/** The closure's expression node, or undefined when its source does not parse as one. */
export function closureNode(fn: Function): Node | undefined {
  try {
    const src = ReflectApply(FunctionPrototypeToString, fn, []) as string;
    return ((parse(`(${src})`, { ecmaVersion: 'latest' }) as unknown as Node).body as Node[])[0].expression as Node;
  } catch {
    return undefined;
  }
}
