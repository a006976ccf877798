/**
 * The code generation an accumulation loop answered from the columns compiles its kernel with
 * (data/keyedLoop.ts for keyed loops, data/scalarLoop.ts for scalar ones): a loop's expression trees
 * over its fields (`['f', i]`, literals, comparisons, `&&`/`||`/`??`, `!`) written as JavaScript over
 * the columns' codes and values, with the same answer as the expression on the values the loop reads.
 */
import { keyCodes } from '../fast/keyCodes.js';
import type { Source } from '../fast/source.js';
import {
  JSONStringify,
  NativeArray,
  NativeWeakMap,
  NumberIsFinite,
  ObjectGetOwnPropertyDescriptor,
  ReflectApply,
  SafeSet,
  SafeWeakMap,
} from '../intrinsics.js';

export const COMPARE = new SafeSet(['===', '!==', '==', '!=', '<', '<=', '>', '>=', '+']);
const EQUALITY = new SafeSet(['===', '!==', '==', '!=']);
const LOGICAL = new SafeSet(['&&', '||', '??']);
const RELATIONAL = new SafeSet(['<', '<=', '>', '>=']);

const NativeMath = globalThis.Math;
export const MathMax = NativeMath.max;
export const MathMin = NativeMath.min;

/** Whether `Math.max` and `Math.min` as the run reads them are the session's own. */
export function sessionMath(): boolean {
  if (ObjectGetOwnPropertyDescriptor(globalThis, 'Math')?.value !== NativeMath) return false;
  return (
    ObjectGetOwnPropertyDescriptor(NativeMath, 'max')?.value === MathMax &&
    ObjectGetOwnPropertyDescriptor(NativeMath, 'min')?.value === MathMin
  );
}

/**
 * What a kernel reads of field i: `K[i]` its key codes (fast/keyCodes.ts: 0 is null; a dictionary
 * field's always, a number field's when the key reads it), `D[i]` a dictionary field's strings after
 * a null (`D[i][K[i][r]]` is row r's value), `V[i]`/`M[i]` a number field's values and validity.
 */
export interface Columns {
  K: (Int32Array | undefined)[];
  D: (readonly (string | null)[] | undefined)[];
  V: (Float64Array | undefined)[];
  M: (Uint8Array | undefined)[];
  /** With `verify`: the arrays the loop reads (`X[i]`) and the kept values they were copied from (`A[i]`). */
  X: ArrayLike<unknown>[];
  A: ArrayLike<unknown>[];
  /** The session's own Math.max and Math.min (an entry's `e.s = Math.max(e.s, v)`). */
  MX: (a: number, b: number) => number;
  MN: (a: number, b: number) => number;
}

/**
 * For an index loop over arrays `t.array(col)` handed out (data/keyedArrays.ts): per field, the array
 * the loop reads and the column's kept values it was copied from. The kernel checks, row by row
 * before anything is written, that each array it reads still holds them (a run may have written
 * into it); it answers -1 at the first that does not, and the loop runs as written.
 */
export interface Copies {
  xs: ArrayLike<unknown>[];
  kept: ArrayLike<unknown>[];
}

/** A text that names `e` exactly (no Array.prototype method or toJSON of the run's is reached). */
export function shapeText(e: unknown): string {
  if (!NativeArray.isArray(e)) {
    if (typeof e === 'string') return JSONStringify(e);
    return e !== null && (typeof e === 'object' || typeof e === 'function') ? '?' : typeof e + ':' + (e as string);
  }
  let out = '[';
  for (let i = 0; i < e.length; i++) out += shapeText(e[i]) + ',';
  return out + ']';
}

/** Whether `list` already holds `i` (no Array.prototype method: a run may have replaced them). */
export function holds(list: number[], i: number): boolean {
  for (let k = 0; k < list.length; k++) if (list[k] === i) return true;
  return false;
}

/** What code generation knows: each field's kind ('d' dictionary, 'n' number), and what it collects. */
export interface Gen {
  kinds: string;
  used: number[];
  lits: [number, string][];
  /**
   * Fields read as the arrays the loop reads (`X[i]`, data/keyedArrays.ts), not the column: a
   * condition's fields whose every use is `===`/`!==` with a literal or `==`/`!=` with null, which
   * call no code of the run whatever a run wrote into the array; they need no check.
   */
  raw: number[];
}

/** The JavaScript of field i's value at row r (what the loop reads: a string or null, a number or null). */
const valueCode = (i: number, kind: string) =>
  kind === 'd' ? `D${i}[K${i}[r]]` : `(M${i}[r] !== 0 ? V${i}[r] : null)`;

/** A field node `['f', i]` of a valid index, or -1. */
function fieldIndex(e: unknown, fields: number): number {
  if (!NativeArray.isArray(e) || e.length !== 2 || e[0] !== 'f') return -1;
  const i = e[1];
  return typeof i === 'number' && i % 1 === 0 && i >= 0 && i < fields ? i : -1;
}

/**
 * An equality of a field with a literal answered by codes: a dictionary field with a string (its code,
 * or none) or null (code 0), a number field with null (its validity). Same answer as the values'
 * (strings compare equal exactly when their codes do; `==` of a string or null with a string or null
 * is `===`), without comparing text.
 */
function codeEquality(op: string, a: unknown, b: unknown, g: Gen): string | undefined {
  if (!EQUALITY.has(op)) return undefined;
  const fields = g.kinds.length;
  let i = fieldIndex(a, fields);
  let lit = b;
  if (i < 0) {
    i = fieldIndex(b, fields);
    lit = a;
  }
  if (i < 0 || !NativeArray.isArray(lit) || lit.length !== 2) return undefined;
  if (holds(g.raw, i)) {
    const l = code(lit, g);
    if (l === undefined) return undefined;
    if (!holds(g.used, i)) g.used[g.used.length] = i;
    return `(X${i}[r] ${op} ${l})`;
  }
  const strict = op === '==' || op === '===' ? '===' : '!==';
  if (lit[0] === 'l' && lit[1] === null) {
    if (!holds(g.used, i)) g.used[g.used.length] = i;
    return g.kinds[i] === 'd' ? `(K${i}[r] ${strict} 0)` : `(M${i}[r] ${strict} 0)`;
  }
  if (lit[0] === 's' && typeof lit[1] === 'string' && g.kinds[i] === 'd') {
    if (!holds(g.used, i)) g.used[g.used.length] = i;
    const j = g.lits.length;
    g.lits[j] = [i, lit[1]];
    return `(K${i}[r] ${strict} L${j})`;
  }
  return undefined;
}

/** The field `op` compares with a literal (either side) when that calls no code whatever the value, else -1. */
function safeEquality(op: unknown, a: unknown, b: unknown, fields: number): number {
  let k = fieldIndex(a, fields);
  let lit = b;
  if (k < 0) {
    k = fieldIndex(b, fields);
    lit = a;
  }
  if (k < 0 || !NativeArray.isArray(lit) || lit.length !== 2) return -1;
  if (lit[0] !== 's' && lit[0] !== 'n' && lit[0] !== 'l') return -1;
  if (op === '===' || op === '!==') return k;
  return (op === '==' || op === '!=') && lit[0] === 'l' && lit[1] === null ? k : -1;
}

/**
 * The fields of condition `cond` every use of which is an equality that calls no code whatever the
 * value (`===`/`!==` with a literal, `==`/`!=` with null): read as they are, they need no check.
 */
export function rawFields(cond: unknown, fields: number): number[] {
  const safe: number[] = [];
  const unsafe: number[] = [];
  const walk = (e: unknown): void => {
    if (!NativeArray.isArray(e)) return;
    const i = fieldIndex(e, fields);
    if (i >= 0) {
      if (!holds(unsafe, i)) unsafe[unsafe.length] = i;
      return;
    }
    if (e[0] === 'b' && e.length === 4) {
      const k = safeEquality(e[1], e[2], e[3], fields);
      if (k >= 0) {
        if (!holds(safe, k)) safe[safe.length] = k;
        return;
      }
    }
    for (let k = 1; k < e.length; k++) walk(e[k]);
  };
  walk(cond);
  const out: number[] = [];
  for (let k = 0; k < safe.length; k++) if (!holds(unsafe, safe[k]!)) out[out.length] = safe[k]!;
  return out;
}

/** The JavaScript of expression `e` over the row's values, collecting the fields it reads; undefined for anything else. */
export function code(e: unknown, g: Gen): string | undefined {
  if (!NativeArray.isArray(e) || e.length < 2) return undefined;
  const tag = e[0];
  if (e.length !== (tag === 'b' || tag === 'L' ? 4 : 2)) return undefined;
  if (tag === 'f') {
    const i = fieldIndex(e, g.kinds.length);
    if (i < 0) return undefined;
    if (!holds(g.used, i)) g.used[g.used.length] = i;
    return valueCode(i, g.kinds[i]!);
  }
  if (tag === 's') return typeof e[1] === 'string' ? JSONStringify(e[1]) : undefined;
  if (tag === 'n') {
    const v = e[1];
    if (typeof v !== 'number' || !NumberIsFinite(v)) return undefined;
    return v === 0 && 1 / v < 0 ? '(-0)' : `(${'' + v})`;
  }
  if (tag === 'l') return e[1] === null ? 'null' : e[1] === true ? 'true' : e[1] === false ? 'false' : undefined;
  if (tag === '!') {
    const a = code(e[1], g);
    return a === undefined ? undefined : `(!${a})`;
  }
  if (tag === 'b' && COMPARE.has(e[1] as string)) {
    const byCode = codeEquality(e[1] as string, e[2], e[3], g);
    if (byCode !== undefined) return byCode;
  }
  if ((tag === 'b' && COMPARE.has(e[1] as string)) || (tag === 'L' && LOGICAL.has(e[1] as string))) {
    // an order comparison converts a null to 0 whatever the other side (null is never a string)
    const order = tag === 'b' && RELATIONAL.has(e[1] as string);
    const a = order ? numberCode(e[2], g) : code(e[2], g);
    const b = order ? numberCode(e[3], g) : code(e[3], g);
    return a === undefined || b === undefined ? undefined : `(${a} ${e[1] as string} ${b})`;
  }
  return undefined;
}

/**
 * The JavaScript of `e` where the value is only used as a number (an order comparison's side, a term
 * added to a number, Math.max/min's argument): a number field's null read as the 0 it converts to,
 * and `field || number` alike (null and 0 are both falsy), so the kernel's value is always a number;
 * anything else as code() writes it.
 */
export function numberCode(e: unknown, g: Gen): string | undefined {
  const i = fieldIndex(e, g.kinds.length);
  if (i >= 0 && g.kinds[i] === 'n' && !holds(g.raw, i)) {
    if (!holds(g.used, i)) g.used[g.used.length] = i;
    return `(M${i}[r] !== 0 ? V${i}[r] : 0)`;
  }
  if (NativeArray.isArray(e) && e.length === 4 && e[0] === 'L' && e[1] === '||') {
    const a = fieldIndex(e[2], g.kinds.length);
    const n = code(e[3], g);
    if (a >= 0 && g.kinds[a] === 'n' && n !== undefined && (e[3] as unknown[])[0] === 'n') {
      const v = numberCode(e[2], g);
      return v === undefined ? undefined : `(${v} || ${n})`;
    }
  }
  return code(e, g);
}

/** A term is a number, a field, or `field || number` / `field ?? number`: never a string. */
export function plainTerm(e: unknown): boolean {
  if (!NativeArray.isArray(e) || e.length < 2) return false;
  if (e[0] === 'n' || e[0] === 'f') return true;
  if (e.length !== 4) return false;
  if (e[0] !== 'L' || (e[1] !== '||' && e[1] !== '??')) return false;
  const a = e[2] as unknown[];
  const b = e[3] as unknown[];
  return NativeArray.isArray(a) && a[0] === 'f' && NativeArray.isArray(b) && b[0] === 'n';
}

/** The locals a compiled function reads its fields through. */
export function loads(kinds: string, verify: boolean): string {
  let out = '';
  for (let i = 0; i < kinds.length; i++) {
    out +=
      kinds[i] === 'd'
        ? `const K${i} = c.K[${i}], D${i} = c.D[${i}]; `
        : `const K${i} = c.K[${i}], V${i} = c.V[${i}], M${i} = c.M[${i}]; `;
    if (verify) out += `const X${i} = c.X[${i}], A${i} = c.A[${i}]; `;
  }
  return out;
}

/** The code + 1 of `text` in a dictionary (as keyCodes numbers it), or -1 when it holds no such string. */
export function codeOf(dict: readonly string[], text: string): number {
  for (let k = 0; k < dict.length; k++) if (dict[k] === text) return k + 1;
  return -1;
}

/**
 * The codes (codeOf) of a generated loop's text literals, each in its source's dictionary: `lits`
 * as Gen collected them (`[source index, text]`), `srcs` the loop's sources, in order.
 */
export function literalCodes(lits: readonly [number, string][], srcs: readonly unknown[]): number[] {
  const L: number[] = [];
  for (let j = 0; j < lits.length; j++) {
    const [i, text] = lits[j]!;
    L[j] = codeOf((srcs[i] as { dict: readonly string[] }).dict, text);
  }
  return L;
}

/** The dictionaries with a null in front (code 0), built once per dictionary. */
const withNull = new SafeWeakMap<readonly string[], (string | null)[]>();
const weakGet = NativeWeakMap.prototype.get;
const weakSet = NativeWeakMap.prototype.set;

export function nullFirst(dict: readonly string[]): (string | null)[] {
  let out = ReflectApply(weakGet, withNull, [dict]) as (string | null)[] | undefined;
  if (out === undefined) {
    out = new NativeArray<string | null>(dict.length + 1);
    out[0] = null;
    for (let k = 0; k < dict.length; k++) out[k + 1] = dict[k]!;
    ReflectApply(weakSet, withNull, [dict, out]);
  }
  return out;
}

/**
 * The arrays a kernel reads of `srcs`, each source's two, in order: what a kept answer or kept
 * groups are found by (a session's host columns never change, so the same arrays mean the same rows).
 */
export function arraysOf(srcs: (Source | undefined)[]): unknown[] {
  const out: unknown[] = [];
  for (let i = 0; i < srcs.length; i++) {
    const s = srcs[i]!;
    out[2 * i] = s.kind === 'dict' ? s.codes : s.values;
    out[2 * i + 1] = s.kind === 'dict' ? s.dict : s.valid;
  }
  return out;
}

/**
 * What a kernel reads of each of `srcs` (their kinds, 'd' dictionary or 'n' number, and their
 * arrays), or undefined when one is missing or a date column: every value a loop over them reads is
 * then a string, a number or null (no object: no valueOf or toString of the run's).
 */
export function columnsOf(
  srcs: (Source | undefined)[],
  copies: Copies | null,
): { kinds: string; cols: Columns } | undefined {
  let kinds = '';
  const cols: Columns = {
    K: [],
    D: [],
    V: [],
    M: [],
    X: copies ? copies.xs : [],
    A: copies ? copies.kept : [],
    MX: MathMax,
    MN: MathMin,
  };
  for (let i = 0; i < srcs.length; i++) {
    const s = srcs[i];
    if (s === undefined || (s.kind === 'num' && s.type === 'date')) return undefined;
    if (s.kind === 'dict') {
      kinds += 'd';
      cols.K[i] = keyCodes(s).codes;
      cols.D[i] = nullFirst(s.dict);
    } else {
      kinds += 'n';
      cols.V[i] = s.values;
      cols.M[i] = s.valid;
    }
  }
  return { kinds, cols };
}
