import type * as acorn from 'acorn';
import type { Violation } from '../../schema/errors.js';
import { foldKey } from './foldKey.js';
import { moduleHint } from './hints.js';
import { parseExpression } from './parse.js';
import { isBinding, isVariable, isWriteTarget, thisScope } from './positions.js';
import { prefixRule, ruleIndex, type RuleIndex } from './ruleIndex.js';
import { toViolation, type Finding } from './toViolation.js';
import { traverse } from './traverse.js';
import type { RuleSet } from './types.js';

type Node = acorn.AnyNode;

/** Most violations reported for one program; beyond that the first ones are enough to act on. */
export const MAX_VIOLATIONS = 100;
/** Arquero expression strings inside expression strings are checked this deep. */
const MAX_EMBED_DEPTH = 2;
const MAX_EMBED_LENGTH = 100_000;
const LOOKS_LIKE_FUNCTION = /=>|^\s*(?:async\s+)?function\b/;

/** `Reflect.x` / `Object.x` calls whose second argument is a property key, and whether they write it. */
const REFLECTIVE: ReadonlyMap<string, 'read' | 'write'> = new Map([
  ['get', 'read'],
  ['has', 'read'],
  ['getOwnPropertyDescriptor', 'read'],
  ['set', 'write'],
  ['defineProperty', 'write'],
  ['deleteProperty', 'write'],
]);

/**
 * Walk a parsed program once and report every use of the rule set's denylist, in source order.
 * @example
 * findViolations(code, program, rulesFor('standard')); // [{ rule: 'no-dynamic-code', ... }]
 */
export function findViolations(code: string, program: acorn.Program, set: RuleSet): Violation[] {
  const findings: Finding[] = [];
  const seen = new Set<string>();
  scan(program, ruleIndex(set), 0, (f) => {
    const id = `${f.rule.id}@${f.at.start}`;
    if (!seen.has(id) && findings.length < MAX_VIOLATIONS) findings.push(f);
    seen.add(id);
  });
  findings.sort((a, b) => a.at.start - b.at.start);
  return findings.map((f) => toViolation(code, f));
}

function scan(root: Node, index: RuleIndex, depth: number, report: (f: Finding) => void): void {
  traverse(root, (node, ancestors, key) => {
    const parent = ancestors[ancestors.length - 1];
    switch (node.type) {
      case 'Identifier': {
        const rule = index.identifiers.get(node.name) ?? prefixRule(index, node.name);
        if (!rule || !isVariable(parent, key)) return;
        const binding = isBinding(ancestors, key);
        const required = parent?.type === 'CallExpression' && key === 'callee' && node.name === 'require';
        report({
          rule,
          name: node.name,
          at: node,
          binding,
          hint: required ? moduleHint(foldKey(parent.arguments[0])) : undefined,
        });
        return;
      }
      case 'MemberExpression': {
        const name = node.computed
          ? foldKey(node.property)
          : node.property.type === 'Identifier'
            ? node.property.name
            : undefined;
        if (name !== undefined) checkKey(index, name, isWriteTarget(ancestors, key), false, node.property, report);
        return;
      }
      case 'Property': {
        const name = node.computed
          ? foldKey(node.key)
          : node.key.type === 'Identifier'
            ? node.key.name
            : foldKey(node.key);
        if (name === undefined) return;
        // destructuring reads the key from the source object; an object literal defines it
        if (parent?.type === 'ObjectPattern') checkKey(index, name, false, false, node.key, report);
        else checkKey(index, name, true, true, node.key, report);
        return;
      }
      case 'CallExpression':
        checkCall(index, node, report);
        return;
      case 'ThisExpression': {
        const scope = thisScope(node, ancestors);
        const rule = scope === 'top' ? index.thisTop : scope === 'loose' ? index.thisLoose : undefined;
        const what = scope === 'top' ? '`this` at the top level is the global object and is not available' : undefined;
        if (rule) report({ rule, name: 'this', at: node, what });
        return;
      }
      case 'MetaProperty':
        if (node.meta.name === 'import') reportNode(index, node, 'import.meta', undefined, report);
        return;
      case 'ImportDeclaration':
      case 'ExportAllDeclaration':
        reportNode(
          index,
          node,
          node.type === 'ImportDeclaration' ? 'import' : 'export',
          moduleHint(foldKey(node.source)),
          report,
        );
        return;
      case 'ImportExpression':
        reportNode(index, node, 'import()', moduleHint(foldKey(node.source)), report);
        return;
      case 'ExportNamedDeclaration':
      case 'ExportDefaultDeclaration':
        reportNode(
          index,
          node,
          'export',
          'Remove `export`: the last expression (or `return`) is the result of the run.',
          report,
        );
        return;
      case 'WithStatement':
      case 'DebuggerStatement':
        reportNode(index, node, node.type === 'WithStatement' ? 'with' : 'debugger', undefined, report);
        return;
      case 'Literal':
        if (typeof node.value === 'string') checkEmbedded(index, node.value, node, depth, report);
        return;
      case 'TemplateLiteral':
        if (node.expressions.length === 0)
          checkEmbedded(index, node.quasis[0]?.value.cooked ?? '', node, depth, report);
        return;
      default:
        return;
    }
  });
}

function checkKey(
  index: RuleIndex,
  name: string,
  write: boolean,
  objectKey: boolean,
  at: Node,
  report: (f: Finding) => void,
): void {
  const entry = index.properties.get(name);
  if (!entry) {
    const rule = objectKey ? undefined : prefixRule(index, name);
    if (rule) report({ rule, name, at });
    return;
  }
  if (objectKey && !entry.objectKeys) return;
  if (entry.access === 'write' && !write) return;
  report({ rule: entry.rule, name, at });
}

function checkCall(index: RuleIndex, node: acorn.CallExpression, report: (f: Finding) => void): void {
  const callee = node.callee;
  if (callee.type === 'Identifier') {
    const rule = index.timers.get(callee.name);
    const first = node.arguments[0];
    if (
      rule &&
      first &&
      (first.type === 'TemplateLiteral' || (first.type === 'Literal' && typeof first.value === 'string'))
    ) {
      report({ rule, name: callee.name, at: first, what: `\`${callee.name}\` with a string of code is not available` });
    }
    return;
  }
  if (callee.type !== 'MemberExpression' || callee.object.type !== 'Identifier') return;
  if (callee.object.name !== 'Reflect' && callee.object.name !== 'Object') return;
  const method = callee.computed
    ? foldKey(callee.property)
    : callee.property.type === 'Identifier'
      ? callee.property.name
      : undefined;
  const access = method === undefined ? undefined : REFLECTIVE.get(method);
  const keyArg = node.arguments[1];
  const name = access && keyArg ? foldKey(keyArg) : undefined;
  if (name !== undefined && keyArg) checkKey(index, name, access === 'write', false, keyArg, report);
}

function reportNode(
  index: RuleIndex,
  node: Node,
  name: string,
  hint: string | undefined,
  report: (f: Finding) => void,
): void {
  const rule = index.nodeTypes.get(node.type);
  if (rule) report({ rule, name, at: node, hint });
}

/**
 * Arquero compiles expression strings such as `'d => d.Agency'` into code, so a string that
 * parses as a function is checked like code, with findings pointing at the string.
 */
function checkEmbedded(index: RuleIndex, text: string, at: Node, depth: number, report: (f: Finding) => void): void {
  if (depth >= MAX_EMBED_DEPTH || text.length > MAX_EMBED_LENGTH || !LOOKS_LIKE_FUNCTION.test(text)) return;
  const expr = parseExpression(text);
  if (!expr || (expr.type !== 'ArrowFunctionExpression' && expr.type !== 'FunctionExpression')) return;
  scan(expr, index, depth + 1, (f) => report({ ...f, at, embedded: true }));
}
