import type * as acorn from 'acorn';

type Node = acorn.AnyNode;

/**
 * Whether an Identifier names a variable (a reference or a binding) rather than a property
 * name, an object or class key, a label, or part of `import.meta` / `new.target`. Only
 * variables match identifier rules: `d.process`, `{ module: 1 }` and `outer:` do not.
 * @example
 * isVariable(memberExpression, 'property'); // false for `d.process`, true for `d[process]`
 */
export function isVariable(parent: Node | undefined, key: string): boolean {
  if (!parent) return true;
  switch (parent.type) {
    case 'MemberExpression':
      return key !== 'property' || parent.computed;
    case 'Property':
    case 'MethodDefinition':
    case 'PropertyDefinition':
      return key !== 'key' || parent.computed;
    case 'LabeledStatement':
    case 'BreakStatement':
    case 'ContinueStatement':
      return key !== 'label';
    case 'MetaProperty':
    case 'ImportSpecifier':
    case 'ImportDefaultSpecifier':
    case 'ImportNamespaceSpecifier':
    case 'ExportSpecifier':
      // the declaration itself is what gets reported
      return false;
    default:
      return true;
  }
}

/**
 * Whether a variable Identifier declares a name (`const self = 1`, a parameter, a destructuring target).
 * @example
 * isBinding([declarator], 'id'); // true for the `self` of `const self = 1`
 */
export function isBinding(ancestors: readonly Node[], key: string): boolean {
  const parent = ancestors[ancestors.length - 1];
  if (!parent) return false;
  if (parent.type === 'VariableDeclarator') return key === 'id';
  if (parent.type === 'CatchClause') return key === 'param';
  if (
    parent.type === 'FunctionDeclaration' ||
    parent.type === 'FunctionExpression' ||
    parent.type === 'ArrowFunctionExpression' ||
    parent.type === 'ClassDeclaration' ||
    parent.type === 'ClassExpression'
  ) {
    return key === 'id' || key === 'params';
  }
  if (parent.type === 'ArrayPattern' || parent.type === 'RestElement') return true;
  if (parent.type === 'AssignmentPattern') return key === 'left';
  if (parent.type === 'Property') return key === 'value' && ancestors[ancestors.length - 2]?.type === 'ObjectPattern';
  return false;
}

/**
 * Whether a node is written to: assigned, updated, deleted, or a destructuring / for-in-of target.
 * @example
 * isWriteTarget([assignment], 'left'); // true for the `Error.stackTraceLimit` of `Error.stackTraceLimit = 0`
 */
export function isWriteTarget(ancestors: readonly Node[], key: string): boolean {
  const parent = ancestors[ancestors.length - 1];
  if (!parent) return false;
  switch (parent.type) {
    case 'AssignmentExpression':
    case 'ForInStatement':
    case 'ForOfStatement':
    case 'AssignmentPattern':
      return key === 'left';
    case 'UpdateExpression':
    case 'RestElement':
      return true;
    case 'UnaryExpression':
      return parent.operator === 'delete';
    case 'ArrayPattern':
      return true;
    case 'Property':
      return key === 'value' && ancestors[ancestors.length - 2]?.type === 'ObjectPattern';
    default:
      return false;
  }
}

/**
 * What `this` is at a ThisExpression: 'top' when it is the global object (script top level,
 * or an arrow function there), 'loose' inside a plain function that is not a method (sloppy
 * mode makes that the global object when called bare), 'bound' in methods, classes and field
 * initializers.
 * @example
 * thisScope(thisNode, []); // 'top' for a `this` at the top level of the script
 */
export function thisScope(node: Node, ancestors: readonly Node[]): 'top' | 'loose' | 'bound' {
  for (let i = ancestors.length - 1; i >= 0; i--) {
    const a = ancestors[i]!;
    const child = ancestors[i + 1] ?? node;
    // a computed class key is evaluated outside the class body; only the initializer is bound
    if (a.type === 'PropertyDefinition' && a.value === child) return 'bound';
    if (a.type === 'StaticBlock') return 'bound';
    if (a.type === 'FunctionDeclaration') return 'loose';
    if (a.type === 'FunctionExpression') {
      const holder = ancestors[i - 1];
      return holder?.type === 'MethodDefinition' || holder?.type === 'Property' ? 'bound' : 'loose';
    }
  }
  return 'top';
}
