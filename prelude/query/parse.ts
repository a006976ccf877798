/**
 * A recursive-descent parser for pandas query strings (a small Python expression language):
 *   or   := and (('or' | '|') and)*
 *   and  := not (('and' | '&') not)*
 *   not  := ('not' | '~') not | cmp
 *   cmp  := sum (('==' | '!=' | '<' | '<=' | '>' | '>=' | 'in' | 'not in') sum)*   (chains: a < b < c)
 *   sum  := prod (('+' | '-') prod)*
 *   prod := unary (('*' | '/' | '//' | '%') unary)*
 *   unary:= '-' unary | '+' unary | pow
 *   pow  := post ('**' unary)?
 *   post := atom ('.' name ('(' args ')')?)*
 *   atom := number | string | `column` | name | @var | True | False | None | '(' or ')' | '[' list ']'
 * Nothing is evaluated here and nothing is ever passed to eval/Function: the result is an AST.
 */
import { querySyntaxError } from './errors.js';
import { tokenize, type Token } from './tokenize.js';

/** A node of a parsed query. */
export type Node =
  | { type: 'lit'; value: unknown }
  | { type: 'col'; name: string; at: number }
  | { type: 'var'; name: string; at: number }
  | { type: 'list'; items: Node[] }
  | { type: 'not'; arg: Node }
  | { type: 'neg'; arg: Node }
  | { type: 'bool'; op: 'and' | 'or'; left: Node; right: Node }
  | { type: 'cmp'; op: string; left: Node; right: Node }
  | { type: 'arith'; op: string; left: Node; right: Node }
  | { type: 'attr'; obj: Node; name: string; args: Arg[] | null; at: number };

/** A call argument, positional (key null) or keyword (`case=False`). */
export interface Arg {
  key: string | null;
  node: Node;
}

const CMP = new Set(['==', '!=', '<', '<=', '>', '>=']);

/**
 * Parses a pandas query string.
 * @throws a ValueError with the position of the first syntax error
 */
export function parseQuery(src: string): Node {
  const toks = tokenize(src);
  let p = 0;
  const peek = (): Token => toks[p];
  const isOp = (v: string) => peek().kind === 'op' && peek().value === v;
  const isWord = (v: string) => peek().kind === 'name' && peek().value === v;
  const expect = (v: string) => {
    if (!isOp(v))
      throw querySyntaxError(
        src,
        peek().at,
        `expected '${v}'${peek().kind === 'end' ? ' before the end' : ` but found '${peek().value}'`}`,
      );
    p++;
  };

  function or(): Node {
    let left = and();
    while (isWord('or') || isOp('|')) {
      p++;
      left = { type: 'bool', op: 'or', left, right: and() };
    }
    return left;
  }
  function and(): Node {
    let left = not();
    while (isWord('and') || isOp('&')) {
      p++;
      left = { type: 'bool', op: 'and', left, right: not() };
    }
    return left;
  }
  function not(): Node {
    if (isWord('not') || isOp('~')) {
      p++;
      return { type: 'not', arg: not() };
    }
    return cmp();
  }
  function cmpOp(): string | null {
    const t = peek();
    if (t.kind === 'op' && CMP.has(t.value)) {
      p++;
      return t.value;
    }
    if (t.kind === 'op' && t.value === '=') throw querySyntaxError(src, t.at, "'=' is assignment; compare with '=='");
    if (isWord('in')) {
      p++;
      return 'in';
    }
    if (isWord('not') && toks[p + 1]?.kind === 'name' && toks[p + 1].value === 'in') {
      p += 2;
      return 'not in';
    }
    return null;
  }
  function cmp(): Node {
    const first = sum();
    let prev = first;
    let result: Node | null = null;
    for (let op = cmpOp(); op; op = cmpOp()) {
      const right = sum();
      const one: Node = { type: 'cmp', op, left: prev, right };
      result = result ? { type: 'bool', op: 'and', left: result, right: one } : one;
      prev = right;
    }
    return result ?? first;
  }
  function sum(): Node {
    let left = prod();
    while (isOp('+') || isOp('-')) {
      const op = toks[p++].value;
      left = { type: 'arith', op, left, right: prod() };
    }
    return left;
  }
  function prod(): Node {
    let left = unary();
    while (isOp('*') || isOp('/') || isOp('//') || isOp('%')) {
      const op = toks[p++].value;
      left = { type: 'arith', op, left, right: unary() };
    }
    return left;
  }
  function unary(): Node {
    if (isOp('-')) {
      p++;
      return { type: 'neg', arg: unary() };
    }
    if (isOp('+')) {
      p++;
      return unary();
    }
    return pow();
  }
  function pow(): Node {
    const base = post();
    if (isOp('**')) {
      p++;
      return { type: 'arith', op: '**', left: base, right: unary() };
    }
    return base;
  }
  function post(): Node {
    let node = atom();
    while (isOp('.')) {
      p++;
      const t = peek();
      if (t.kind !== 'name') throw querySyntaxError(src, t.at, 'expected a method or attribute name after .');
      p++;
      let args: Arg[] | null = null;
      if (isOp('(')) {
        p++;
        args = [];
        while (!isOp(')')) {
          let key: string | null = null;
          if (peek().kind === 'name' && toks[p + 1]?.kind === 'op' && toks[p + 1].value === '=') {
            key = peek().value;
            p += 2;
          } // case=False
          args.push({ key, node: or() });
          if (!isOp(')')) expect(',');
        }
        p++;
      }
      node = { type: 'attr', obj: node, name: t.value, args, at: t.at };
    }
    return node;
  }
  function items(close: string): Node[] {
    const out: Node[] = [];
    while (!isOp(close)) {
      out.push(or());
      if (!isOp(close)) expect(',');
    }
    p++;
    return out;
  }
  function atom(): Node {
    const t = peek();
    p++;
    switch (t.kind) {
      case 'num':
        return { type: 'lit', value: Number(t.value) };
      case 'str':
        return { type: 'lit', value: t.value };
      case 'col':
        return { type: 'col', name: t.value, at: t.at };
      case 'var':
        return { type: 'var', name: t.value, at: t.at };
      case 'name':
        if (t.value === 'True' || t.value === 'true') return { type: 'lit', value: true };
        if (t.value === 'False' || t.value === 'false') return { type: 'lit', value: false };
        if (t.value === 'None' || t.value === 'NaN' || t.value === 'nan' || t.value === 'null')
          return { type: 'lit', value: null };
        if (['and', 'or', 'not', 'in'].includes(t.value)) throw querySyntaxError(src, t.at, `unexpected '${t.value}'`);
        return { type: 'col', name: t.value, at: t.at };
      case 'op':
        if (t.value === '(') {
          const inner = or();
          if (isOp(',')) {
            p++;
            const rest = items(')');
            return { type: 'list', items: [inner, ...rest] };
          }
          expect(')');
          return inner;
        }
        if (t.value === '[') return { type: 'list', items: items(']') };
        throw querySyntaxError(src, t.at, `unexpected '${t.value}'`);
      default:
        throw querySyntaxError(src, t.at, 'the query ended early');
    }
  }

  const ast = or();
  if (peek().kind !== 'end') throw querySyntaxError(src, peek().at, `unexpected '${peek().value}'`);
  return ast;
}
