import type * as acorn from 'acorn';

const MAX_DEPTH = 64;

/**
 * The property key an expression evaluates to, when that is knowable from literals alone:
 * `'constructor'`, `` `constructor` ``, `'constr' + 'uctor'`, `` `${'constr'}uctor` ``,
 * `(0, 'constructor')`, `['constructor']` (arrays stringify). Undefined otherwise (a runtime
 * value: the isolate is what holds against those).
 * @example
 * foldKey(parseExpression("'constr' + 'uctor'")!); // 'constructor'
 */
export function foldKey(node: acorn.AnyNode | null | undefined): string | undefined {
  const value = fold(node, 0);
  return value === undefined ? undefined : String(value);
}

type Folded = string | number | bigint | boolean | null;

function fold(node: acorn.AnyNode | null | undefined, depth: number): Folded | undefined {
  // depth-capped: a 10k-term '+' chain is not worth folding and must not overflow the stack
  if (!node || depth > MAX_DEPTH) return undefined;
  switch (node.type) {
    case 'Literal':
      return node.regex ? undefined : (node.value as Folded);
    case 'TemplateLiteral': {
      let out = node.quasis[0]?.value.cooked ?? '';
      for (let i = 0; i < node.expressions.length; i++) {
        const part = fold(node.expressions[i], depth + 1);
        if (part === undefined) return undefined;
        out += String(part) + (node.quasis[i + 1]?.value.cooked ?? '');
      }
      return out;
    }
    case 'BinaryExpression': {
      if (node.operator !== '+' || node.left.type === 'PrivateIdentifier') return undefined;
      const left = fold(node.left, depth + 1);
      const right = left === undefined ? undefined : fold(node.right, depth + 1);
      if (left === undefined || right === undefined) return undefined;
      if (typeof left === 'number' && typeof right === 'number') return left + right;
      return String(left) + String(right);
    }
    case 'SequenceExpression':
      return fold(node.expressions[node.expressions.length - 1], depth + 1);
    case 'ArrayExpression': {
      const parts: string[] = [];
      for (const el of node.elements) {
        if (el === null) {
          parts.push('');
          continue;
        }
        const part = el.type === 'SpreadElement' ? undefined : fold(el, depth + 1);
        if (part === undefined) return undefined;
        parts.push(part === null ? '' : String(part));
      }
      return parts.join(',');
    }
    default:
      return undefined;
  }
}
