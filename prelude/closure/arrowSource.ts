/**
 * The syntax tree of a closure's own source (acorn over Function.prototype.toString, read through
 * the prelude's saved intrinsics so guest code cannot swap them), for the analyses that decide
 * whether a closure may take a fast path (closure/rowReads.ts, fast/closureFilter.ts).
 *
 * A program run again makes new closures of the same source every run (`t.filter(d => ...)`,
 * `a.filter(v => v != null)`), so trees are kept per source text (up to KEEP of them, each source
 * up to KEEP_CHARS, so the kept trees hold at most a few MB of the session's heap; the map is emptied
 * when full): a warm run parses none of its closures again.
 * The trees are shared, so every caller only reads them.
 */
import { parse } from 'acorn';
import { FunctionPrototypeToString, ReflectApply, SafeMap } from '../intrinsics.js';

/** An acorn node, loosely typed. */
export type Node = { type: string; [key: string]: unknown };

const KEEP = 64;
const KEEP_CHARS = 1024;
const trees = new SafeMap<string, Node | null>();

/** The closure's expression node (shared: read it, never change it), or undefined when its source does not parse as one. */
export function closureNode(fn: Function): Node | undefined {
  let src: string;
  try {
    src = ReflectApply(FunctionPrototypeToString, fn, []) as string;
  } catch {
    return undefined;
  }
  const known = trees.get(src);
  if (known !== undefined) return known ?? undefined;
  let node: Node | null;
  try {
    node = ((parse(`(${src})`, { ecmaVersion: 'latest' }) as unknown as Node).body as Node[])[0].expression as Node;
  } catch {
    node = null;
  }
  if (src.length <= KEEP_CHARS) {
    if (trees.size >= KEEP) trees.clear();
    trees.set(src, node);
  }
  return node ?? undefined;
}

/**
 * A closure of `arity` plain parameters whose body is one expression (`x => E`, or a block that only
 * `return E`s): its parameters' names and E (shared: read it, never change it); undefined for
 * anything else, async and generator functions included. `functions`: a `function (x) { return E }`
 * counts too, not only an arrow.
 */
export function expressionBody(
  fn: unknown,
  arity: number,
  functions = false,
): { params: string[]; body: Node } | undefined {
  if (typeof fn !== 'function') return undefined;
  const root = closureNode(fn);
  if (!root || root.async || root.generator) return undefined;
  if (root.type !== 'ArrowFunctionExpression' && !(functions && root.type === 'FunctionExpression')) return undefined;
  const params = root.params as Node[];
  if (params.length !== arity || params.some((p) => p.type !== 'Identifier')) return undefined;
  let body = root.body as Node;
  if (body.type === 'BlockStatement') {
    const list = body.body as Node[];
    if (list.length !== 1 || list[0]!.type !== 'ReturnStatement' || !list[0]!.argument) return undefined;
    body = list[0]!.argument as Node;
  }
  return { params: params.map((p) => p.name as string), body };
}
