import { describe, expect, it } from 'vitest';
import { PRESET_NAMES } from '../../../schema/limits.js';
import { RULES, type RuleId } from '../../../src/policy/index.js';
import { escapeFirst, fill, hits } from './helpers.js';

/** Every syntactic position an identifier reference can take. */
const IDENTIFIER_POSITIONS = [
  'NAME',
  'NAME(1)',
  'new NAME()',
  '(0, NAME)(1)',
  'const f = () => NAME',
  'function outer() { return function inner() { return NAME } }',
  'class K { m() { return NAME } }',
  'print(`${NAME}`)',
  'x[NAME]',
  '({ a: NAME })',
  '({ NAME })',
  'const v = NAME?.x',
  "if (typeof NAME !== 'undefined') {}",
  'function f(a = NAME) {}',
  'async () => { await NAME }',
  'for (const k of NAME) {}',
  '[...NAME]',
];
/** Declaring the name is reported too (a top-level `var eval` would alias the real one). */
const BINDING_POSITIONS = [
  'let NAME = 1',
  'function f(NAME) {}',
  'const { a: NAME } = o',
  'try {} catch (NAME) {}',
  '[NAME] = [1]',
];
/** Never an identifier reference: property names, object keys, strings, class members. */
const NOT_IDENTIFIER_POSITIONS = [
  'd.NAME',
  "d['NAME']",
  '({ NAME: 1 })',
  "value_counts(award_data, 'NAME')",
  'class K { NAME() {} }',
  'd?.NAME',
  'print(`NAME`)',
];

/** Every way to write a member access with a fixed key. */
const PROPERTY_POSITIONS = [
  'x.NAME',
  "x['NAME']",
  'x["NAME"]',
  'x[`NAME`]',
  'x?.NAME',
  "x?.['NAME']",
  '({ NAME: c } = x)',
  'const { NAME: c } = x',
  "const { 'NAME': c } = x",
  "const { ['NAME']: c } = x",
  "x['HEAD' + 'TAIL']",
  "x[`HEAD${'TAIL'}`]",
  "x[['NAME']]",
  'function f() { return () => x.NAME }',
  'class K { m() { return x.NAME } }',
  'print(`${x.NAME}`)',
  'async () => (await x).NAME',
  'x.NAME = 1',
  "Reflect.get(x, 'NAME')",
  "Object.getOwnPropertyDescriptor(x, 'NAME')",
];
const SHORTHAND_PROPERTY_POSITIONS = ['({ NAME } = x)', 'const { NAME: { a } } = x'];

const byId = (id: RuleId) => RULES.find((r) => r.id === id)!;

describe.each(RULES.filter((r) => r.match.some((m) => m.on === 'identifier')))('identifier rule $id', (rule) => {
  const names = rule.match.flatMap((m) => (m.on === 'identifier' ? m.names : []));
  const preset = rule.presets[0]!;
  it.each(names)('catches %s in every position, and its unicode-escaped spelling', (name) => {
    for (const code of [...fill(IDENTIFIER_POSITIONS, name), escapeFirst(name)])
      expect(hits(code, preset), code).toContain(rule.id);
  });
  it.each(names)('catches %s declared as a variable, with a rename hint', (name) => {
    for (const code of fill(BINDING_POSITIONS, name)) expect(hits(code, preset), code).toContain(rule.id);
  });
  it.each(names)('does not flag %s as a property name, key or string', (name) => {
    for (const code of fill(NOT_IDENTIFIER_POSITIONS, name)) expect(hits(code, 'strict'), code).not.toContain(rule.id);
  });
});

describe.each(RULES.filter((r) => r.match.some((m) => m.on === 'property' && m.access === 'any')))(
  'property rule $id',
  (rule) => {
    const names = rule.match.flatMap((m) => (m.on === 'property' && m.access === 'any' ? m.names : []));
    const preset = rule.presets[0]!;
    it.each(names)('catches .%s written every way', (name) => {
      for (const code of [...fill(PROPERTY_POSITIONS, name), ...fill(SHORTHAND_PROPERTY_POSITIONS, name)]) {
        expect(hits(code, preset), code).toContain(rule.id);
      }
    });
    it.each(names)('does not flag %s as a class method or a plain variable', (name) => {
      expect(hits(`class K { ${name === 'constructor' ? 'constructor() {}' : `${name}() {}`} }`, 'strict')).toEqual([]);
      expect(hits(`print('${name}')`, 'strict')).toEqual([]);
    });
  },
);

describe('no-stack-trace-hooks', () => {
  it.each(['captureStackTrace', 'stackTraceLimit'])('catches writes to Error.%s however written', (name) => {
    const writes = [
      'Error.NAME = f',
      "Error['NAME'] = f",
      'Error.NAME++',
      'delete Error.NAME',
      '({ a: Error.NAME } = y)',
      'Object.assign(Error, { NAME: f })',
      "Reflect.set(Error, 'NAME', f)",
      "Object.defineProperty(Error, 'NAME', {})",
    ];
    for (const code of fill(writes, name)) expect(hits(code), code).toContain('no-stack-trace-hooks');
  });
  it.each(['captureStackTrace', 'stackTraceLimit'])('allows reading Error.%s', (name) => {
    expect(
      hits(`class E extends Error { constructor() { super(); Error.${name}(this, E) } }; const n = Error.${name}`),
    ).toEqual([]);
  });
  it('catches prepareStackTrace anywhere, including as an object key', () => {
    for (const code of [
      'Error.prepareStackTrace = f',
      'const p = Error.prepareStackTrace',
      'Object.assign(Error, { prepareStackTrace: f })',
      'const E = Error; E["prepareStackTrace"] = f',
    ]) {
      expect(hits(code), code).toContain('no-stack-trace-hooks');
    }
  });
});

describe('syntax rules', () => {
  const cases: Array<[RuleId, string[]]> = [
    [
      'no-import',
      [
        "import x from 'y'",
        "import * as aq from 'arquero'",
        "import 'arquero'",
        'export const a = 1',
        'export default 1',
        "export * from 'x'",
        "await import('x')",
        'import.meta.url',
        "function f() { return import('x') }",
      ],
    ],
    ['no-with', ['with (o) { a }', 'function f() { with (o) {} }']],
    ['no-debugger', ['debugger', 'const f = () => { debugger }']],
    ['no-host-globals', ['this', 'this.x', 'const f = () => this', 'print(`${this}`)', 'class K { [this.k]() {} }']],
    ['no-dynamic-code', ["setTimeout('x()', 1)", 'setInterval(`x()`, 1)', "setImmediate('x')"]],
    ['no-loose-this', ['function f() { return this }', 'award_data.filter(function (d) { return this })']],
  ];
  it.each(cases)('%s catches each form', (id, codes) => {
    for (const code of codes) expect(hits(code, 'strict'), code).toContain(id);
  });

  it('allows new.target, bound this, and timers with functions', () => {
    for (const code of [
      'function F() { if (!new.target) throw new Error("use new") }',
      'class A { m() { return this } x = this; static { this.y = 1 } }',
      '({ m() { return this }, n: function () { return this } })',
      'setTimeout(() => print(1), 0)',
    ]) {
      expect(hits(code, 'strict'), code).toEqual([]);
    }
  });
});

describe('strict-only rules', () => {
  const strictOnly: Array<[RuleId, string]> = [
    ['no-reflection', 'Reflect.ownKeys(x)'],
    ['no-reflection', 'new Proxy({}, {})'],
    ['no-reflection', 'Object.getPrototypeOf(x)'],
    ['no-reflection', "Object.defineProperty(o, 'a', { value: 1 })"],
    ['no-arguments-object', 'function f() { return arguments[0] }'],
    ['no-loose-this', 'function f() { return this }'],
  ];
  it.each(strictOnly)('%s flags `%s` in strict and nowhere else', (id, code) => {
    expect(hits(code, 'strict')).toContain(id);
    expect(hits(code, 'standard')).toEqual([]);
    expect(hits(code, 'permissive')).toEqual([]);
  });
  it('is documented as strict only in the table', () => {
    for (const id of ['no-reflection', 'no-arguments-object', 'no-loose-this'] as const)
      expect(byId(id).presets).toEqual(['strict']);
  });
});

describe('the result', () => {
  it('reports every violation at once, in source order, with 1-based positions', () => {
    const result = hits('const a = require("x")\nx.constructor\neval(1); with (o) {}');
    expect(result).toEqual(['no-module-globals', 'no-prototype-access', 'no-dynamic-code', 'no-with']);
  });
  it.each(PRESET_NAMES)('is ok for an empty program in %s', (preset) => {
    expect(hits('', preset)).toEqual([]);
  });
});
