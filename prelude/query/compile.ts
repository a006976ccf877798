/**
 * Turns a parsed query (parse.ts) into a function of a row, reading the table's columns through
 * their accessors. Semantics follow pandas: a comparison with a missing value is false (`!=`: true),
 * `==` / `in` against a list test membership, dates compare with date strings, and/or/not work on
 * booleans. Column names resolve against the table (KeyError with "did you mean"); `@name` reads a
 * variable: the `local_dict` option first, then the session's globals.
 */
import type { ColumnTable } from 'arquero';
import { unknownColumn } from '../errors/didYouMean.js';
import { GuestError } from '../errors/guestError.js';
import { compareValues, dtypeOf, isNull } from '../frame/common.js';
import { contains } from '../frame/strings.js';
import { to_datetime } from '../frame/dates.js';
import { querySyntaxError } from './errors.js';
import type { Arg, Node } from './parse.js';

/** A compiled expression: the value for one backing row. */
export type RowFn = (row: number) => unknown;

const DATE_PARTS: Record<string, (d: Date) => number> = {
  year: (d) => d.getUTCFullYear(),
  month: (d) => d.getUTCMonth() + 1,
  day: (d) => d.getUTCDate(),
  quarter: (d) => Math.floor(d.getUTCMonth() / 3) + 1,
  dayofweek: (d) => (d.getUTCDay() + 6) % 7,
  weekday: (d) => (d.getUTCDay() + 6) % 7,
};

function compareOp(op: string, a: unknown, b: unknown): boolean {
  if (a instanceof Date && typeof b === 'string') b = to_datetime(b);
  if (b instanceof Date && typeof a === 'string') a = to_datetime(a);
  if (isNull(a) || isNull(b)) return op === '!=';
  if (typeof a !== typeof b && !(a instanceof Date && b instanceof Date)) return op === '!=';
  const c = compareValues(a, b);
  switch (op) {
    case '==':
      return c === 0;
    case '!=':
      return c !== 0;
    case '<':
      return c < 0;
    case '<=':
      return c <= 0;
    case '>':
      return c > 0;
    default:
      return c >= 0;
  }
}

function arith(op: string, a: unknown, b: unknown): unknown {
  if (isNull(a) || isNull(b)) return null;
  if (op === '+' && (typeof a === 'string' || typeof b === 'string')) return String(a) + String(b);
  const x = Number(a instanceof Date ? a.getTime() : a);
  const y = Number(b instanceof Date ? b.getTime() : b);
  switch (op) {
    case '+':
      return x + y;
    case '-':
      return x - y;
    case '*':
      return x * y;
    case '/':
      return x / y;
    case '//':
      return Math.floor(x / y);
    case '%':
      return x - Math.floor(x / y) * y;
    default:
      return x ** y;
  }
}

const keyOf = (v: unknown) => (v instanceof Date ? v.getTime() : v);

/** `value op x` for a number or string constant x: the common case, without per-row coercion. */
function constantTest(op: string, x: number | string): (v: unknown) => boolean {
  const t = typeof x;
  switch (op) {
    case '==':
      return (v) => v === x;
    case '!=':
      return (v) => v !== x;
    case '<':
      return (v) => typeof v === t && (v as number) < (x as number);
    case '<=':
      return (v) => typeof v === t && (v as number) <= (x as number);
    case '>':
      return (v) => typeof v === t && (v as number) > (x as number);
    default:
      return (v) => typeof v === t && (v as number) >= (x as number);
  }
}

/** `date column op 'date string'`: the string parsed once; undefined for any other comparison. */
function constantComparison(t: ColumnTable, node: Extract<Node, { type: 'cmp' }>, l: RowFn): RowFn | undefined {
  const { left, right, op } = node;
  if (right.type !== 'lit' || typeof right.value !== 'string') return undefined;
  if (left.type !== 'col' || dtypeOf(t, left.name) !== 'date') return undefined;
  const d = to_datetime(right.value) as Date | null;
  if (d === null) return undefined;
  const f = constantTest(op, d.getTime());
  return (r) => {
    const v = l(r);
    return v instanceof Date ? f(v.getTime()) : op === '!=';
  };
}

/** The constant list behind `n` (a list literal, or an @variable holding an array, Set or Series), or null. */
function constantList(n: Node, c: (n: Node) => RowFn, vars: (name: string, at: number) => unknown): unknown[] | null {
  if (n.type === 'list') return n.items.map((i) => c(i)(0));
  if (n.type === 'var') {
    const v = vars(n.name, n.at);
    return Array.isArray(v)
      ? v
      : v instanceof Set
        ? [...v]
        : v && typeof v === 'object' && typeof (v as { tolist?: unknown }).tolist === 'function'
          ? (v as { tolist(): unknown[] }).tolist()
          : null;
  }
  return null;
}

/**
 * A comparison as a test of its left side's value, when the right side is a constant: membership
 * in a list (`in`, `not in`, `==`/`!=` against a list) or `column op number|string` on a column
 * that is not of dates. undefined otherwise (the caller compiles the comparison per row). Both
 * compile() and the typed masks of query.ts test values through it, so they answer alike.
 */
export function constantValueTest(
  src: string,
  node: Extract<Node, { type: 'cmp' }>,
  t: ColumnTable,
  vars: (name: string, at: number) => unknown,
): ((v: unknown) => boolean) | undefined {
  const c = (n: Node): RowFn => compile(src, n, t, vars);
  const list =
    node.op === 'in' || node.op === 'not in' || node.op === '==' || node.op === '!='
      ? constantList(node.right, c, vars)
      : null;
  if (list) {
    const set = new Set(list.map(keyOf));
    const negate = node.op === 'not in' || node.op === '!=';
    return (v) => {
      const hit = !isNull(v) && set.has(keyOf(v));
      return negate ? !hit : hit;
    };
  }
  if (node.op === 'in' || node.op === 'not in') return undefined;
  const { left, right, op } = node;
  if (right.type !== 'lit' || !(typeof right.value === 'number' || typeof right.value === 'string')) return undefined;
  if (left.type !== 'col' || dtypeOf(t, left.name) === 'date') return undefined;
  return constantTest(op, right.value);
}

/** Compiles `node` for table `t`; `vars` resolves @names. */
export function compile(src: string, node: Node, t: ColumnTable, vars: (name: string, at: number) => unknown): RowFn {
  const c = (n: Node): RowFn => compile(src, n, t, vars);
  switch (node.type) {
    case 'lit': {
      const v = node.value;
      return () => v;
    }
    case 'var': {
      const v = vars(node.name, node.at);
      return () => v;
    }
    case 'list': {
      const items = node.items.map(c);
      return (r) => items.map((f) => f(r));
    }
    case 'col': {
      const col = t.column(node.name);
      if (!col) throw unknownColumn(node.name, t.columnNames(), 'query()');
      return (r) => col.at(r);
    }
    case 'not': {
      const f = c(node.arg);
      return (r) => f(r) !== true;
    }
    case 'neg': {
      const f = c(node.arg);
      return (r) => {
        const v = f(r);
        return isNull(v) ? null : -Number(v);
      };
    }
    case 'bool': {
      const l = c(node.left);
      const rt = c(node.right);
      return node.op === 'and' ? (r) => l(r) === true && rt(r) === true : (r) => l(r) === true || rt(r) === true;
    }
    case 'arith': {
      const l = c(node.left);
      const rt = c(node.right);
      const op = node.op;
      return (r) => arith(op, l(r), rt(r));
    }
    case 'cmp': {
      const l = c(node.left);
      const test = constantValueTest(src, node, t, vars);
      if (test) return (r) => test(l(r));
      if (node.op === 'in' || node.op === 'not in')
        throw querySyntaxError(src, 0, `'${node.op}' needs a list such as ['a', 'b'] or an @variable holding an array`);
      const fast = constantComparison(t, node, l);
      if (fast) return fast;
      const rt = c(node.right);
      const op = node.op;
      return (r) => compareOp(op, l(r), rt(r));
    }
    case 'attr':
      return attribute(src, node, c, vars);
  }
}

function argValue(args: Arg[], i: number, key: string, c: (n: Node) => RowFn): unknown {
  const a = args.find((x) => x.key === key) ?? args.filter((x) => x.key === null)[i];
  return a ? c(a.node)(0) : undefined;
}

function attribute(src: string, node: Extract<Node, { type: 'attr' }>, c: (n: Node) => RowFn, _vars: unknown): RowFn {
  const { obj, name, args } = node;
  if (obj.type === 'attr' && obj.args === null && (obj.name === 'str' || obj.name === 'dt')) {
    const f = c(obj.obj);
    const a = args ?? [];
    if (obj.name === 'dt') {
      const part = DATE_PARTS[name];
      if (!part || args !== null)
        throw querySyntaxError(
          src,
          node.at,
          `.dt.${name} is not supported in query(); use year, month, day, quarter or dayofweek`,
        );
      return (r) => {
        const d = to_datetime(f(r)) as Date | null;
        return d === null ? null : part(d);
      };
    }
    switch (name) {
      case 'contains': {
        const opts = {
          case: argValue(a, 1, 'case', c) as boolean | undefined,
          na: (argValue(a, 3, 'na', c) ?? false) as boolean,
          regex: argValue(a, 4, 'regex', c) as boolean | undefined,
        };
        const pat = argValue(a, 0, 'pat', c);
        return (r) => contains(f(r), pat, opts);
      }
      case 'startswith': {
        const x = String(argValue(a, 0, 'pat', c));
        return (r) => {
          const v = f(r);
          return !isNull(v) && String(v).startsWith(x);
        };
      }
      case 'endswith': {
        const x = String(argValue(a, 0, 'pat', c));
        return (r) => {
          const v = f(r);
          return !isNull(v) && String(v).endsWith(x);
        };
      }
      case 'lower':
        return (r) => {
          const v = f(r);
          return isNull(v) ? null : String(v).toLowerCase();
        };
      case 'upper':
        return (r) => {
          const v = f(r);
          return isNull(v) ? null : String(v).toUpperCase();
        };
      case 'strip':
        return (r) => {
          const v = f(r);
          return isNull(v) ? null : String(v).trim();
        };
      case 'len':
        return (r) => {
          const v = f(r);
          return isNull(v) ? null : [...String(v)].length;
        };
      default:
        throw querySyntaxError(
          src,
          node.at,
          `.str.${name}() is not supported in query(); use contains, startswith, endswith, lower, upper, strip or len (or filter with a Series mask)`,
        );
    }
  }
  const f = c(obj);
  if (args === null && (name === 'str' || name === 'dt'))
    throw querySyntaxError(
      src,
      node.at,
      `.${name} needs a method after it, e.g. .${name === 'str' ? "str.contains('x')" : 'dt.year'}`,
    );
  switch (name) {
    case 'isna':
    case 'isnull':
      return (r) => isNull(f(r));
    case 'notna':
    case 'notnull':
      return (r) => !isNull(f(r));
    case 'abs':
      return (r) => {
        const v = f(r);
        return isNull(v) ? null : Math.abs(Number(v));
      };
    default:
      throw new GuestError(
        'ValueError',
        `query(): .${name}${args ? '()' : ''} is not supported in a query string`,
        'Supported: comparisons, and/or/not, in [...], + - * /, .str.contains/startswith/endswith/lower/upper/strip/len, .dt.year/month/day/quarter, .isna()/.notna(). For anything else filter with a Series mask: t.filter(t.col.gt(x)).',
      );
  }
}
