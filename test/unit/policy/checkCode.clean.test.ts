import { describe, expect, it } from 'vitest';
import { PRESET_NAMES } from '../../../schema/limits.js';
import { checkCode } from '../../../src/policy/index.js';

/** Ordinary analysis code, written the ways LLMs write it: none of it may be flagged, in any preset. */
const CLEAN: Record<string, string> = {
  'bracket access to a column with spaces': "award_data.filter(d => d['Award Amount'] > 1e6)",
  'arquero ops': "award_data.rollup({ total: aq.op.sum('Award Amount'), n: aq.op.count() })",
  'groupby/agg': "award_data.groupby('Agency').agg({ 'Award Amount': 'sum' })",
  'prelude helpers': "print(describeData().summary); value_counts(award_data, 'Agency').head(5)",
  'string expressions':
    'award_data.filter(\'d => d.Phase === "Phase II"\').derive({ k: \'d => d["Award Amount"] / 1000\' })',
  'columns named like globals':
    "award_data.filter(d => d['Function'] && d.process && d.module).select('global', 'self', 'eval')",
  'object keys named like globals':
    "const m = { module: 1, process: 2, require: 3, eval: 4, window: 5, Function: 6 }; m.module + m['process']",
  'template literals': 'const t = 12.5; print(`Total: $${t.toFixed(1)}M across ${award_data.numRows()} awards`)',
  'arrow functions and closures': 'const by = (k) => (a, b) => b[k] - a[k]; [{ x: 1 }, { x: 2 }].sort(by("x"))',
  'classes with constructors, getters, statics and private fields':
    'class Acc { #n = 0; static zero = 0; constructor(x) { this.x = x } get n() { return this.#n } add() { this.#n++; return this } }\nnew Acc(1).add().n',
  'subclassing Error':
    'class MyError extends Error { constructor(m) { super(m); this.name = "MyError" } }\ntry { throw new MyError("x") } catch (e) { print(e.message) }',
  'async/await at top level': 'const rows = await Promise.resolve(award_data.numRows()); print(rows)',
  'top-level return': 'const n = award_data.numRows()\nif (n === 0) return "empty"\nreturn n',
  destructuring:
    "const { Agency, ['Award Amount']: amount, ...rest } = award_data.object(0); const [first, , third = 3] = [1, 2]",
  'optional chaining and nullish': "const v = award_data?.object?.(0)?.['Award Amount'] ?? 0",
  regexes: 'award_data.filter(d => /^(Phase\\s+II|STTR)$/i.test(d.Phase)).numRows()',
  labels:
    'outer: for (let i = 0; i < 3; i++) { for (let j = 0; j < 3; j++) { if (j === 1) continue outer; if (i === 2) break outer } }',
  'generators and iterators':
    'function* g() { yield* [1, 2] } const it = { *[Symbol.iterator]() { yield 1 } }; [...g(), ...it]',
  'Object helpers':
    'const o = { a: 1 }; Object.keys(o).map(k => [k, o[k]]); Object.entries(o); Object.fromEntries([["b", 2]]); Object.hasOwn(o, "a")',
  'JSON, Math, Intl, Date':
    'JSON.stringify({ max: Math.max(...[1, 2]), when: new Date(0).toISOString(), fmt: new Intl.NumberFormat("en-US").format(1e6) })',
  'Map/Set/typed arrays':
    'const m = new Map([["a", 1]]); const s = new Set([1]); const f = new Float64Array(4); m.get("a") + s.size + f.length',
  'switch with case labels': 'switch (award_data.numRows() % 3) { case 0: print("a"); break; default: print("b") }',
  'error handling with finally': 'try { JSON.parse("{") } catch { print("bad json") } finally { print("done") }',
  'method named like a property rule in an object literal':
    'const obj = { constructor: 1, prototype: 2, caller: 3 }; obj',
  'words in strings and comments':
    '// uses require, eval and process.env? no\nprint("call eval() or require() here? never; prototype and constructor are just words")',
  'bigint, numeric separators, exponent': 'const big = 10n ** 20n; const n = 1_000_000 ** 2; big > 0n && n > 0',
  hashbang: '#!/usr/bin/env node\nprint(1)',
  'strict mode directive': '"use strict"; const x = 1; x',
  'new.target in a function': 'function F() { if (!new.target) return new F() } F()',
  'for-in and for-of':
    'const o = { a: 1 }; for (const k in o) print(k); for (const [k, v] of Object.entries(o)) print(k, v)',
  'tagged template': 'const tag = (s, ...v) => s.raw.join("|") + v.join(","); tag`a${1}b`',
};

describe.each(PRESET_NAMES)('clean analysis code in the %s preset', (preset) => {
  it.each(Object.entries(CLEAN))('passes: %s', (_name, code) => {
    expect(checkCode(code, preset)).toEqual({ ok: true });
  });
});
