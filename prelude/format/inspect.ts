/**
 * A compact, Node-like `util.inspect` for print/console and `valueText`: quoted strings inside
 * structures, `Map(1) { 'a' => 1 }`, `Set(2) { 1, 2 }`, ISO dates, `[Function: f]`, `[Getter]`
 * (never invoked), `[Circular]`, depth and size caps. Tables render as `[Table: N rows x M columns]`
 * when nested (print() renders a top-level table with tableText).
 */
import {
  ArrayIsArray,
  FunctionPrototypeToString,
  ObjectGetOwnPropertyDescriptor,
  ObjectGetPrototypeOf,
  ObjectKeys,
  ObjectPrototype,
  ReflectApply,
  isDate,
  isMap,
  isSet,
  timeOf,
  typedArrayName,
  MapPrototypeEntries,
  SetPrototypeValues,
} from '../intrinsics.js';
import { isTable } from '../frame/common.js';
import { isSeries } from '../series/brand.js';

/** Inspect options. */
export interface InspectOptions {
  /** Nesting shown before `[Object]`. @default 4 */
  depth?: number;
  /** Lines longer than this break into one entry per line. @default 80 */
  breakLength?: number;
  /** Most array items / object keys shown. @default 100 */
  maxItems?: number;
  /** Longest string shown. @default 10000 */
  maxStringLength?: number;
}

interface State extends Required<InspectOptions> {
  seen: unknown[];
  budget: number;
}

const IDENT = /^[A-Za-z_$][\w$]*$/;

/** Quotes a string the way Node does: single quotes unless the string contains them. */
export function quote(s: string): string {
  const q = s.includes("'") && !s.includes('"') ? '"' : "'";
  const body = s.replace(
    /[\\\n\r\t\b\f\v\0]/g,
    (c) =>
      ({ '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t', '\b': '\\b', '\f': '\\f', '\v': '\\v', '\0': '\\0' })[c]!,
  );
  return q + (q === "'" ? body.replace(/'/g, "\\'") : body) + q;
}

/**
 * Renders any value readably.
 * @example inspect({ a: [1, 2], m: new Map([['k', 1]]) }) // "{ a: [ 1, 2 ], m: Map(1) { 'k' => 1 } }"
 */
export function inspect(value: unknown, options: InspectOptions = {}): string {
  const st: State = {
    depth: 4,
    breakLength: 80,
    maxItems: 100,
    maxStringLength: 10000,
    ...options,
    seen: [],
    budget: 1 << 20,
  };
  return fmt(value, st, 0, true);
}

function fmt(v: unknown, st: State, level: number, top = false): string {
  if (st.budget <= 0) return '…';
  const s = fmtInner(v, st, level, top);
  st.budget -= s.length;
  return s;
}

function fmtInner(v: unknown, st: State, level: number, top: boolean): string {
  switch (typeof v) {
    case 'string': {
      const s = v.length > st.maxStringLength ? v.slice(0, st.maxStringLength) : v;
      const more = v.length > s.length ? `... ${v.length - s.length} more characters` : '';
      return top ? s + (more ? `\n${more}` : '') : quote(s) + (more ? `${more}` : '');
    }
    case 'number':
      return Object.is(v, -0) ? '-0' : String(v);
    case 'bigint':
      return `${v}n`;
    case 'boolean':
      return String(v);
    case 'undefined':
      return 'undefined';
    case 'symbol':
      return v.toString();
    case 'function':
      return fnName(v);
  }
  if (v === null) return 'null';
  const o = v as object;
  if (isDate(o)) {
    const t = timeOf(o);
    return t === t ? new Date(t).toISOString() : 'Invalid Date';
  }
  if (o instanceof RegExp) return String(o);
  if (o instanceof Error) return errorText(o);
  if (isTable(o)) return `[Table: ${o.numRows()} rows x ${o.numCols()} columns]`;
  if (isSeries(o)) return top ? o.text() : `[Series: ${o.length} values]`;
  if (st.seen.includes(o)) return '[Circular]';
  const ta = typedArrayName(o);
  if (level > st.depth)
    return ArrayIsArray(o) ? '[Array]' : ta ? `[${ta}]` : isMap(o) ? '[Map]' : isSet(o) ? '[Set]' : '[Object]';
  st.seen.push(o);
  try {
    if (ArrayIsArray(o) || ta)
      return list(
        ta ? `${ta}(${(o as ArrayLike<unknown>).length}) ` : '',
        '[',
        ']',
        arrayItems(o as ArrayLike<unknown>, st, level),
        st,
        level,
      );
    if (isMap(o)) {
      const items: string[] = [];
      for (const [k, val] of ReflectApply(MapPrototypeEntries, o, []) as Iterable<[unknown, unknown]>) {
        if (items.length >= st.maxItems) {
          items.push(`... more items`);
          break;
        }
        items.push(`${fmt(k, st, level + 1)} => ${fmt(val, st, level + 1)}`);
      }
      return list(`Map(${(o as Map<unknown, unknown>).size}) `, '{', '}', items, st, level);
    }
    if (isSet(o)) {
      const items: string[] = [];
      for (const val of ReflectApply(SetPrototypeValues, o, []) as Iterable<unknown>) {
        if (items.length >= st.maxItems) {
          items.push(`... more items`);
          break;
        }
        items.push(fmt(val, st, level + 1));
      }
      return list(`Set(${(o as Set<unknown>).size}) `, '{', '}', items, st, level);
    }
    if (o instanceof Promise) return 'Promise { <pending or settled> }';
    return list(prefixOf(o), '{', '}', objectItems(o, st, level), st, level);
  } finally {
    st.seen.pop();
  }
}

function fnName(f: Function): string {
  let src = '';
  try {
    src = ReflectApply(FunctionPrototypeToString, f, []) as string;
  } catch {
    /* revoked proxy */
  }
  const d = ObjectGetOwnPropertyDescriptor(f, 'name');
  const name = d && typeof d.value === 'string' ? d.value : '';
  if (src.startsWith('class')) return `[class ${name || '(anonymous)'}]`;
  return name ? `[Function: ${name}]` : '[Function (anonymous)]';
}

function errorText(e: Error): string {
  const d = (k: string) => {
    const x = ObjectGetOwnPropertyDescriptor(e, k) ?? ObjectGetOwnPropertyDescriptor(ObjectGetPrototypeOf(e) ?? {}, k);
    return x && 'value' in x ? String(x.value) : '';
  };
  const name = d('name') || 'Error';
  const msg = d('message');
  return msg ? `${name}: ${msg}` : name;
}

function prefixOf(o: object): string {
  const proto = ObjectGetPrototypeOf(o);
  if (proto === null) return '[Object: null prototype] ';
  if (proto === ObjectPrototype) return '';
  const c = ObjectGetOwnPropertyDescriptor(proto, 'constructor');
  const name =
    c && typeof c.value === 'function' ? (ObjectGetOwnPropertyDescriptor(c.value, 'name')?.value as string) : '';
  return name && name !== 'Object' ? `${name} ` : '';
}

function arrayItems(a: ArrayLike<unknown>, st: State, level: number): string[] {
  const n = a.length;
  const shown = Math.min(n, st.maxItems);
  const items: string[] = [];
  for (let i = 0; i < shown && st.budget > 0; i++) items.push(fmt(a[i], st, level + 1));
  if (n > shown) items.push(`... ${n - shown} more item${n - shown === 1 ? '' : 's'}`);
  return items;
}

function objectItems(o: object, st: State, level: number): string[] {
  const keys = ObjectKeys(o);
  const items: string[] = [];
  for (const k of keys) {
    if (items.length >= st.maxItems) {
      items.push(`... ${keys.length - st.maxItems} more properties`);
      break;
    }
    if (st.budget <= 0) break;
    const d = ObjectGetOwnPropertyDescriptor(o, k);
    if (!d) continue;
    const key = IDENT.test(k) ? k : quote(k);
    const val =
      'value' in d ? fmt(d.value, st, level + 1) : d.get && d.set ? '[Getter/Setter]' : d.get ? '[Getter]' : '[Setter]';
    items.push(`${key}: ${val}`);
  }
  return items;
}

function list(prefix: string, open: string, close: string, items: string[], st: State, level: number): string {
  if (items.length === 0) return `${prefix}${open}${close}`;
  const oneLine = `${prefix}${open} ${items.join(', ')} ${close}`;
  if (oneLine.length + level * 2 <= st.breakLength && !oneLine.includes('\n')) return oneLine;
  const indent = '  '.repeat(level + 1);
  // pack short items (numbers, short strings) several per line, like Node's grouped arrays
  const short = items.length > 6 && items.every((i) => (i.length <= 16 || i.startsWith('... ')) && !i.includes('\n'));
  if (short) {
    const w = Math.max(...items.filter((i) => !i.startsWith('... ')).map((i) => i.length)) + 2;
    const perLine = Math.max(1, Math.floor((st.breakLength - indent.length) / w));
    const lines: string[] = [];
    for (let i = 0; i < items.length; i += perLine)
      lines.push(
        indent +
          items
            .slice(i, i + perLine)
            .map((x, j, arr) => (j < arr.length - 1 ? (x + ',').padEnd(w) : x + ','))
            .join('')
            .trimEnd(),
      );
    lines[lines.length - 1] = lines[lines.length - 1].replace(/,$/, '');
    return `${prefix}${open}\n${lines.join('\n')}\n${'  '.repeat(level)}${close}`;
  }
  return `${prefix}${open}\n${items.map((i) => indent + i).join(',\n')}\n${'  '.repeat(level)}${close}`;
}
