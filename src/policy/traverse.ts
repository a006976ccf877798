import type * as acorn from 'acorn';

/** Called for every node, parents first. `ancestors` ends with the parent; `key` is the parent's field holding the node. */
export type Enter = (node: acorn.AnyNode, ancestors: readonly acorn.AnyNode[], key: string) => void;

const SKIP = new Set(['type', 'start', 'end', 'loc', 'range']);

const isNode = (v: unknown): v is acorn.AnyNode =>
  typeof v === 'object' && v !== null && typeof (v as { type?: unknown }).type === 'string';

/**
 * Visit every node of an ESTree tree once, in source order. Iterative (an explicit stack, not
 * recursion), so a tree acorn managed to build never overflows the stack here.
 * @example
 * traverse(program, (node) => { if (node.type === 'Identifier') names.push(node.name); });
 */
export function traverse(root: acorn.AnyNode, enter: Enter): void {
  const stack: Array<{ node: acorn.AnyNode; depth: number; key: string }> = [{ node: root, depth: 0, key: '' }];
  const path: acorn.AnyNode[] = [];
  while (stack.length > 0) {
    const { node, depth, key } = stack.pop()!;
    path.length = depth;
    enter(node, path, key);
    path.push(node);
    const children: Array<{ node: acorn.AnyNode; depth: number; key: string }> = [];
    for (const field of Object.keys(node)) {
      if (SKIP.has(field)) continue;
      const value = (node as unknown as Record<string, unknown>)[field];
      if (Array.isArray(value)) {
        for (const item of value) if (isNode(item)) children.push({ node: item, depth: depth + 1, key: field });
      } else if (isNode(value)) {
        children.push({ node: value, depth: depth + 1, key: field });
      }
    }
    // pushed last-first so they pop in source order; a loop, since spreading 100k arguments overflows
    children.sort((a, b) => b.node.start - a.node.start);
    for (const child of children) stack.push(child);
  }
}
