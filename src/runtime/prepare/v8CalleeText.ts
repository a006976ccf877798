import type { AnyNode } from './patternNames.js';

/**
 * How V8 names `node` in a "... is not a function" or "... is not iterable" message (its CallPrinter:
 * `f(...)` for a call, `.key` for a string key even when it is not a name, `[0]` for a number, the
 * value of a template or string in double quotes), or undefined for a shape not listed here. The
 * rewrites of sortCalls.ts carry it, so the message of a call they wrapped names the user's
 * expression, not the helper's (see repairMessage in schema/handSort.ts).
 * @example calleeText(parseExpression("award_data['Award Amount']")) // 'award_data.Award Amount'
 */
export function calleeText(node: AnyNode): string | undefined {
  switch (node.type) {
    case 'Identifier':
      return node.name;
    case 'ThisExpression':
      return 'this';
    case 'NewExpression':
      return '(intermediate value)';
    case 'Literal':
      if (typeof node.value === 'string') return `"${node.value}"`;
      if (typeof node.value === 'number') return String(node.value);
      return undefined;
    case 'TemplateLiteral':
      return node.expressions.length === 0 ? `"${node.quasis[0].value.cooked}"` : undefined;
    case 'CallExpression': {
      const callee = node.optional ? undefined : calleeText(node.callee);
      return callee === undefined ? undefined : `${callee}(...)`;
    }
    case 'MemberExpression': {
      const obj = node.optional ? undefined : calleeText(node.object);
      if (obj === undefined) return undefined;
      const p = node.property as AnyNode;
      if (!node.computed) return p.type === 'Identifier' ? `${obj}.${p.name}` : undefined;
      const key = p.type === 'TemplateLiteral' && p.expressions.length === 0 ? p.quasis[0].value.cooked : p.value;
      if (p.type === 'Literal' && typeof key === 'number') return `${obj}[${key}]`;
      if ((p.type === 'Literal' || p.type === 'TemplateLiteral') && typeof key === 'string') return `${obj}.${key}`;
      if (p.type === 'Identifier') return `${obj}[${p.name}]`;
      return undefined;
    }
    default:
      return undefined;
  }
}
