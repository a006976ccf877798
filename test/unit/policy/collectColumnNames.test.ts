import { describe, expect, it } from 'vitest';
import { collectColumnNames, namedColumns } from '../../../src/policy/index.js';

describe('collectColumnNames', () => {
  it.each([
    ["value_counts(award_data, 'Agency')", ['Agency']],
    ["award_data.groupby('Agency').agg({ 'Award Amount': 'sum' })", ['Agency', 'Award Amount']],
    ["award_data.filter(d => d['Award Amount'] > 1e6 && d.Phase === 'Phase II').count()", ['Award Amount', 'Phase']],
    ["award_data.rollup({ total: aq.op.sum('Award Amount') })", ['Award Amount', 'total']],
    [
      "award_data.filter('d => d.Agency === \"DOD\"').select('Company', `Award Year`)",
      ['Agency', 'Company', 'Award Year'],
    ],
    ["value_counts(award_data.filter(d => d.State === 'CA'), 'City')", ['State', 'City']],
    [
      "award_data.derive({ k: d => d['Award Amount'] / 1e3 }).orderby('k').select('k', 'Agency')",
      ['Award Amount', 'Agency'],
    ],
    ['const n = award_data.numRows(); print(`rows: ${n}`)', []],
    ["award_data?.filter(d => d.Phase).array('Award Amount')", ['Phase', 'Award Amount']],
  ])('names what %s reads (a superset)', (code, expected) => {
    const names = collectColumnNames(code);
    expect(names).not.toBeNull();
    for (const name of expected) expect(names, name).toContain(name);
  });

  it.each([
    ['a computed key', 'award_data.filter(d => d[col] > 0).count()'],
    ['a computed object key', "award_data.rollup({ [name]: aq.op.sum('x') })"],
    ['spread of a row', 'award_data.filter(d => ({ ...d }).x).count()'],
    ['rest in a pattern', 'const { a, ...rest } = o'],
    ['columnNames()', 'award_data.columnNames()'],
    ['objects()', "award_data.select('Agency').objects()"],
    ['Object.keys', 'Object.keys(row)'],
    ['selection helpers', 'award_data.select(aq.not("Abstract")).count()'],
    ['for...in', 'for (const k in row) print(k)'],
    ['printing the whole table', 'print(award_data)'],
    ['returning a filtered table', "award_data.filter(d => d.Phase === 'Phase II')"],
    ['an alias', 'const t = award_data; t.count()'],
    ['an unknown method', "award_data.join(other, 'Agency').count()"],
    ['a computed key inside an expression string', "award_data.filter('d => d[k] > 0').count()"],
    ['code that does not parse', 'award_data.filter(d => d.Award Amount)'],
  ])('is null for %s', (_what, code) => {
    expect(collectColumnNames(code)).toBeNull();
  });

  it('never throws', () => {
    for (const code of ['', '\u0000', '\uD800', '(((((', 'x'.repeat(100_000)])
      expect(() => collectColumnNames(code)).not.toThrow();
  });
});

describe('namedColumns', () => {
  it.each([
    ['row objects', "t.groupby('Agency').rollup({ s: op.sum('Amount') }).objects()", ['Agency', 'Amount']],
    ['a whole table printed', "print(award_data.filter(d => d.Phase === 'Phase II'))", ['Phase']],
    [
      'a computed key beside named ones',
      "t.filter('d => d.Amount > 0').objects().map((r) => r[k] + r.Company)",
      ['Amount', 'Company'],
    ],
  ])('gives the names spelled out also where collectColumnNames is null: %s', (_what, code, names) => {
    expect(collectColumnNames(code)).toBeNull();
    expect(namedColumns(code)).toEqual(expect.arrayContaining(names));
  });

  it('is null only for code that does not parse', () => {
    expect(namedColumns('t.filter(d => d.Award Amount)')).toBeNull();
    expect(namedColumns('')).toEqual([]);
  });
});
