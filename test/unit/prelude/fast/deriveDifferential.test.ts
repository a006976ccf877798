// derive on typed arrays (prelude/fast/derive.ts) changes how a derive is evaluated, never what it
// gives: every expression runs on random host tables (dictionary codes, Float64Arrays, booleans,
// text: the fast path) and on a copy made of plain arrays (which the fast path never takes:
// Arquero's own derive), on both engines, through a real sandbox. Same values at every visible row
// (-0, NaN, Infinity, null, Dates by time), same column and row order, same grouping, and the same
// error where Arquero throws; then the verbs after it (filter, groupby, rollup, orderby, objects,
// array) read the new column alike. A second list must take the fast path (the derived column is
// not a plain array), so a fast path that stopped applying fails here too.
import fc from 'fast-check';
import { afterAll, describe, expect, test } from 'vitest';
import { createSandbox, shutdown, type Sandbox } from '../../../../src/index.js';
import type { ColumnarTable } from '../../../../schema/columnar.js';
import { bool, utf8 } from '../fixture.js';
import { differentialHelpers } from './differentialRuns.js';
import { EDGE_TABLES, tableArb } from './randomTables.js';

afterAll(() => shutdown());

const SEED = Number(process.env.FAST_CHECK_SEED ?? 20261126);
const LONG = 'x'.repeat(300);

/** The random tables plus a text column T (K1's strings, some long, some astral) and a boolean B. */
function withTextAndBool(t: ColumnarTable, i: number): ColumnarTable {
  const k1 = t.columns.find((c) => c.name === 'K1')!.data as Extract<
    ColumnarTable['columns'][0]['data'],
    { kind: 'dict' }
  >;
  const dec = new TextDecoder();
  const strings = Array.from(k1.codes, (c, r) =>
    c < 0
      ? null
      : dec.decode(k1.dictBytes.subarray(k1.dictOffsets[c], k1.dictOffsets[c + 1])) + (r % 5 === 0 ? LONG : ''),
  );
  const flags = Array.from(k1.codes, (c, r) => (r % 7 === 3 ? null : (c + r) % 2 === 0));
  return {
    ...t,
    name: `t${i}`,
    columns: [
      ...t.columns,
      { name: 'T', type: 'string', kind: 'utf8', data: utf8(strings) },
      { name: 'B', type: 'boolean', kind: 'bool', data: bool(flags) },
    ],
  };
}

const TABLES = [...EDGE_TABLES, ...fc.sample(tableArb, { numRuns: 14, seed: SEED })].map(withTextAndBool);

/** The exact dump of a result: a table with its values, column and row order and grouping. */
const DUMP = `var __typedSet = new WeakSet();
var __typed = (x) => (__typedSet.add(x), x);
var __dump = (x) => {
  if (!(x instanceof aq.ColumnTable)) return __ser(x);
  const names = x.columnNames();
  const g = x.groups();
  // a derive's new columns' dtypes (a copy's are inferred from its visible values: checked on the
  // derive's own result, marked by __typed, not after a later filter)
  const src = ['K1', 'K2', 'Y', 'D', 'V', 'A', 'T', 'B', 'Award Amount', 'Proposal Award Date', 'Abstract', 'Agency', 'Number Employees', 'Phase', 'Award Year'];
  const types = __typedSet.has(x) && x.numRows() <= 1000 ? Object.entries(dtypes(x)).filter(([c]) => !src.includes(c)) : null;
  return JSON.stringify({ names, types, rows: x.numRows(), cols: names.map((c) => x.array(c).map(__ser)),
    objs: x.objects({ limit: 5 }).map((o) => Object.values(o).map(__ser)),
    groups: g && { names: g.names, size: g.size, keys: Array.from(x.indices(), (r) => g.keys[r]) } });
};`;

/** Derives, alone and followed by the verbs that have typed paths, on whole, filtered, ordered and grouped tables. */
const EXPRS = [
  '(X) => __typed(X.derive({ m: (d) => d.V / 1e6, n: (d) => d.Y * 2 - 1, p: (d) => d.V + d.Y, q: (d) => -d.V, r: (d) => +d.Y }))',
  '(X) => __typed(X.derive({ a: (d) => d.V / 0, b: (d) => d.Y / d.V, c: (d) => d.V % 3, e: (d) => d.Y ** 2, f: (d) => 1 / d.V }))',
  '(X) => __typed(X.derive({ a: (d) => d.V > 2, b: (d) => d.Y <= 1, c: (d) => d.V === 0, e: (d) => d.Y !== null, f: (d) => d.V == null, g: (d) => d.Y != 3 }))',
  '(X) => __typed(X.derive({ a: (d) => d.V > 0 ? d.V : 0, b: (d) => d.Y > 2 ? null : d.Y, c: (d) => d.V || 7, e: (d) => d.Y && d.V, f: (d) => d.V ?? -1, g: (d) => !d.V }))',
  '(X) => __typed(X.derive({ a: (d) => op.abs(d.V), b: (d) => Math.round(d.V), c: (d) => op.round(d.V, 1), e: (d) => Math.max(d.V, d.Y), f: (d) => Math.sqrt(d.Y), g: (d) => op.floor(d.V / 3) }))',
  '(X) => __typed(X.derive({ y: (d) => op.year(d.D), m: (d) => op.month(d.D), dd: (d) => op.day(d.D), q: (d) => op.quarter(d.D), w: (d) => op.dayofweek(d.D), t: (d) => op.timestamp(d.D) }))',
  '(X) => __typed(X.derive({ a: (d) => d.D - 0, b: (d) => d.D > 0, c: (d) => (d.D - d.D) / 864e5, e: (d) => d.D < d.D, f: (d) => d.D * 1 }))',
  "(X) => __typed(X.derive({ a: (d) => op.length(d.K1), b: (d) => d.K1 === 'a', c: (d) => d.K1 > 'b', e: (d) => op.startswith(d.K1, 'a'), f: (d) => op.length(d.T), g: (d) => d.K2 == null }))",
  '(X) => __typed(X.derive({ a: (d) => d.B ? 1 : 2, b: (d) => !d.B, c: (d) => d.B, e: (d) => d.B + 1, f: (d) => d.K1 === d.K2 }))',
  '(X) => __typed(X.derive({ a: (d) => d.V, b: (d) => d.K1, c: (d) => 3, e: (d) => Math.PI * d.Y, f: (d) => NaN, g: (d) => Infinity - d.Y }))',
  "(X) => __typed(X.derive({ a: 'd.V * 2', b: 'op.year(d.D) + d.Y', c: (d, $) => d.V * $.k }))",
  '(X) => __typed(X.derive({ a: (d) => op.is_nan(d.V), b: (d) => op.is_finite(d.V / d.Y), c: (d) => op.sign(d.V), e: (d) => op.trunc(d.V) }))',
  '(X) => __typed(X.derive({ a: (d) => d.V, b: (d) => d.K1, c: (d) => d.Y, e: (d) => d.A }))',
  "(X) => __typed(X.filter((d) => d.K2 === 'w').derive({ a: (d) => d.V, b: (d) => d.K1 }))",
  // a derived column read by the verbs after it
  '(X) => X.derive({ m: (d) => d.V / 1e3 }).filter((d) => d.m > 0.001)',
  "(X) => X.derive({ y: (d) => op.year(d.D) }).groupby('y').count()",
  "(X) => X.derive({ m: (d) => d.V * 2, y: (d) => d.Y + 1 }).groupby('K1', 'y').rollup({ s: op.sum('m'), mx: op.max('m'), n: op.count() })",
  "(X) => X.derive({ m: (d) => d.V / (d.Y + 1) }).orderby(aq.desc('m'), 'K1').select('K1', 'm')",
  "(X) => X.derive({ l: (d) => op.length(d.T) }).filter((d) => d.l >= 3).rollup({ m: op.mean('l'), n: op.count() })",
  "(X) => X.derive({ m: (d) => d.V * 10 }).rollup({ d: op.distinct('m'), md: op.median('m'), mn: op.min('m') })",
  "(X) => X.derive({ m: (d) => d.Y * 2 }).array('m')",
  // functions of a date column, once per distinct time (fast/dateCodes.ts), combined and compared
  '(X) => __typed(X.derive({ a: (d) => op.year(d.D) * 100 + op.month(d.D), b: (d) => op.year(d.D) > 1969, c: (d) => op.utchours(d.D) + op.minutes(d.D) }))',
  "(X) => X.filter((d) => d.Y > 1).derive({ q: (d) => op.quarter(d.D) }).groupby('q').count().orderby('q')",
  // on filtered, ordered and grouped tables; over an existing name; with before/after
  '(X) => __typed(X.filter((d) => d.Y > 0).derive({ m: (d) => d.V * 3, y: (d) => op.year(d.D) }))',
  "(X) => __typed(X.orderby('V').derive({ m: (d) => d.V - 1 }))",
  "(X) => X.filter((d) => d.K2 === 'x').orderby(aq.desc('Y')).derive({ m: (d) => d.Y / 2 }).filter((d) => d.m > 0)",
  "(X) => X.groupby('K2').derive({ m: (d) => d.V + 1 }).rollup({ s: op.sum('m') })",
  '(X) => __typed(X.derive({ V: (d) => d.V * 2, Y: (d) => d.Y - 1 }))',
  "(X) => __typed(X.derive({ m: (d) => d.V * 2 }, { before: 'K1' }))",
  '(X) => X.derive({ m: (d) => d.V * 2 }).derive({ k: (d) => d.m / 2 }).filter((d) => d.k !== d.V)',
  '(X) => X.filter(() => false).derive({ m: (d) => d.V * 2 })',
  // filter parts no other shortcut covers, evaluated as a derive (prelude/fast/typedLeaf.ts)
  '(X) => X.filter((d) => op.year(d.D) === 1990 || op.month(d.D) > 10)',
  "(X) => X.filter((d) => d.V / d.Y > 1 && d.K1 !== 'a')",
  '(X) => X.filter((d) => !d.B || op.length(d.T) > 4)',
  '(X) => X.filter((d) => (d.Y > 2 ? d.V : -d.V) < 0.5).filter((d) => op.abs(d.V) !== 3)',
  "(X) => X.orderby('V').filter((d) => d.D > 0 && op.dayofweek(d.D) === 1)",
  '(X) => X.filter((d) => d.K1.length > 1)',
  // Arquero's own errors, and what stays on its path
  '(X) => __typed(X.derive({ m: (d) => d.Nope * 2 }))',
  '(X) => __typed(X.derive({ m: (d) => d.K1.length }))',
  "(X) => __typed(X.derive({ m: (d) => d.T.length, s: (d) => d.K1 + '!', r: (d) => op.rank(), u: (d) => undefined, o: (d) => d.V - op.mean(d.V) }))",
];

/** Derives that must take the fast path on every large table (a column of only nulls keeps Arquero's path): name -> spec. */
const FAST = [
  ['m', '{ m: (d) => d.V / 1e6 }'],
  ['m', '{ m: (d) => d.Y * d.V + 1 }'],
  ['m', '{ m: (d) => op.year(d.D) }'],
  ['m', '{ m: (d) => op.length(d.K1) }'],
  ['m', '{ m: (d) => op.length(d.T) }'],
  ['m', '{ m: (d) => d.V > 1 ? 1 : 0 }'],
  ['m', '{ m: (d) => Math.abs(d.V) }'],
  ['m', '{ m: (d) => d.D > 0 }'],
];

const PARAMS =
  'var __fast = () => ' +
  `Object.values(tables).filter((T) => T.numRows() > 1000).flatMap((T) => [${FAST.map(
    ([name, spec]) =>
      `Array.isArray(T.params({ k: 2 }).derive(${spec}).column(${JSON.stringify(name)})) ? ${JSON.stringify(spec)} : []`,
  ).join(', ')}].flat());`;

async function diffAll(box: Sandbox): Promise<unknown[]> {
  const setup = await box.run(
    `${differentialHelpers(
      TABLES.map((t) => t.name),
      DUMP,
    )
      .replace('const T = tables[name];', 'const T = tables[name].params({ k: 2 });')
      .replace('const P = __plain(T);', 'const P = __plain(T).params({ k: 2 });')}\n${PARAMS}\ntrue`,
  );
  if (!setup.ok) throw new Error(setup.error!.message);
  const out: unknown[] = [];
  for (let i = 0; i < EXPRS.length; i += 3) {
    const r = await box.run(`__diff([${EXPRS.slice(i, i + 3).join(',\n')}])`);
    if (!r.ok) throw new Error(`${r.error!.name}: ${r.error!.message}`);
    out.push(...(r.value as unknown[]));
  }
  return out;
}

describe.each(['isolated-vm', 'quickjs'] as const)('derive on typed arrays on %s', (engine) => {
  test('same answers as Arquero on plain arrays, and the verbs after it alike', async () => {
    await using box = await createSandbox({
      engine,
      awardData: false,
      tables: Object.fromEntries(TABLES.map((t) => [t.name, t])),
      maxResultBytes: 8 << 20,
    } as never);
    expect(await diffAll(box)).toEqual([]);
    const fast = await box.run('__fast()');
    expect(fast.ok && fast.value, 'derives that kept a plain array column').toEqual([]);
  }, 300_000);
});

/** On award_data itself (text in pages, real dates and amounts): the derives models write, then the verbs after them. */
const AWARD_EXPRS = [
  "(X) => X.derive({ m: (d) => d['Award Amount'] / 1e6 }).filter((d) => d.m > 0.5).numRows()",
  "(X) => X.derive({ len: (d) => op.length(d.Abstract) }).filter((d) => d.len >= 100).rollup({ m: op.mean('len') })",
  '(X) => X.derive({ n: (d) => d.Abstract.length })',
  "(X) => X.derive({ year: (d) => op.year(d['Proposal Award Date']) }).groupby('year').count().orderby('year')",
  "(X) => X.filter((d) => op.year(d['Proposal Award Date']) === 2021).derive({ month: (d) => op.month(d['Proposal Award Date']) }).groupby('month').count().orderby('month')",
  "(X) => X.derive({ perEmp: (d) => d['Award Amount'] / d['Number Employees'] }).orderby(aq.desc('perEmp')).slice(0, 5).objects()",
  "(X) => X.derive({ big: (d) => d['Award Amount'] > 1e6, p2: (d) => d.Phase === 'Phase II' }).groupby('big', 'p2').count()",
  "(X) => X.groupby('Agency').derive({ k: (d) => d['Award Amount'] / 1e3 }).rollup({ s: op.sum('k'), m: op.max('k') })",
  "(X) => X.derive({ age: (d) => 2025 - d['Award Year'] }).filter((d) => d.age < 5).array('age')",
  "(X) => X.filter((d) => op.year(d['Proposal Award Date']) === 2021 && op.month(d['Proposal Award Date']) <= 6).numRows()",
];

describe.each(['isolated-vm', 'quickjs'] as const)('derive on award_data on %s', (engine) => {
  test('same answers as Arquero on a plain copy, and the fast path taken', async () => {
    await using box = await createSandbox({ engine });
    const cols = [
      'Award Amount',
      'Proposal Award Date',
      'Abstract',
      'Agency',
      'Number Employees',
      'Phase',
      'Award Year',
    ];
    const r = await box.run(`${differentialHelpers([], DUMP)}
const A = award_data.select(${JSON.stringify(cols)});
const PA = __plain(A);
const diffs = [];
for (const e of [${AWARD_EXPRS.join(',\n')}]) {
  const run = (x) => { try { return __dump(e(x)); } catch (err) { return 'ERR ' + err.name + ': ' + err.message; } };
  const a = run(A), b = run(PA);
  if (a !== b) diffs.push({ expr: String(e), fast: a.slice(0, 400), plain: b.slice(0, 400) });
}
const plainCols = ['m', 'len', 'year', 'perEmp'].filter((name, i) => Array.isArray(A.derive([
  { m: (d) => d['Award Amount'] / 1e6 }, { len: (d) => op.length(d.Abstract) },
  { year: (d) => op.year(d['Proposal Award Date']) }, { perEmp: (d) => d['Award Amount'] / d['Number Employees'] },
][i]).column(name)));
[diffs, plainCols]`);
    expect(r.ok, r.error?.message).toBe(true);
    expect(r.value).toEqual([[], []]);
  }, 300_000);
});

describe.each(['isolated-vm', 'quickjs'] as const)('derive with functions the guest replaced on %s', (engine) => {
  test('a function replaced by aq.addFunction is called once per row, as Arquero calls it', async () => {
    await using box = await createSandbox({ engine });
    const r = await box.run(`let calls = 0;
aq.addFunction('length', (s) => { calls++; return s == null ? 0 : s.length; }, { override: true });
const t = award_data.derive({ l: (d) => op.length(d.Agency) });
[calls, award_data.numRows(), t.array('l').length]`);
    expect(r.ok, r.error?.message).toBe(true);
    const [calls, rows, len] = r.value as number[];
    expect(calls).toBe(rows);
    expect(len).toBe(rows);
  }, 120_000);
});
