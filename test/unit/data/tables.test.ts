import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as aq from 'arquero';
import { describe, expect, it } from 'vitest';
import { tableFromArquero, tableFromCsv, tableFromRows } from '../../../src/data/tables.js';
import { column, tempDir } from './helpers.js';

describe('tableFromCsv (a user CSV: types inferred over all rows)', () => {
  const dir = tempDir();

  it('infers number, integer, date, boolean and string per column, from every row', async () => {
    const rows = Array.from(
      { length: 3000 },
      (_, i) => `${i},${i / 2},2024-01-${String((i % 28) + 1).padStart(2, '0')},${i % 2 === 0},z${i % 3}`,
    );
    rows.push('3000,1.5,2024-02-01,true,late'); // a value only the last row has
    const p = join(dir, 'typed.csv');
    writeFileSync(p, `int,num,day,flag,word\n${rows.join('\n')}\n`);
    const t = await tableFromCsv('mine', p);
    expect(t.name).toBe('mine');
    expect(t.columns.map((c) => [c.name, c.type, c.kind])).toEqual([
      ['int', 'integer', 'float64'],
      ['num', 'number', 'float64'],
      ['day', 'date', 'float64'],
      ['flag', 'boolean', 'bool'],
      ['word', 'string', 'dict'],
    ]);
    expect(column(t, 'day')[0]).toBe(Date.UTC(2024, 0, 1));
    expect(column(t, 'word').at(-1)).toBe('late');
  });

  it('keeps text of more than 65,535 distinct values as dictionary codes (the user-table cap), as award_data does not', async () => {
    // 70,000 names, each twice, in a user table and through the award_data ingest (the 65,535 cap)
    const names = Array.from({ length: 140_000 }, (_, i) => `Company ${i % 70_000}`);
    const p = join(dir, 'wide-dict.csv');
    writeFileSync(p, `Company,n\n${names.map((s, i) => `${s},${i}`).join('\n')}\n`);
    const t = await tableFromCsv('mine', p);
    const company = t.columns.find((c) => c.name === 'Company')!.data;
    expect(company.kind).toBe('dict');
    expect(company.kind === 'dict' && company.dictOffsets.length - 1).toBe(70_000);
    expect(column(t, 'Company').slice(69_999, 70_001)).toEqual(['Company 69999', 'Company 0']);
    const { ingestCsv } = await import('../../../src/data/ingest/ingestCsv.js');
    const award = await ingestCsv(p, { forceInfer: true });
    expect(award.table.columns.find((c) => c.name === 'Company')!.data.kind).toBe('utf8');
  });

  it('makes a column a string when one late cell is not a number, or has a leading zero', async () => {
    const p = join(dir, 'late.csv');
    writeFileSync(p, `a,zip\n${Array.from({ length: 5000 }, (_, i) => `${i},${10000 + i}`).join('\n')}\nx,01234\n`);
    const t = await tableFromCsv('late', p);
    expect(t.columns.map((c) => c.type)).toEqual(['string', 'string']);
    expect(column(t, 'zip').at(-1)).toBe('01234');
  });

  it('types an SBIR header by the schema, not by inference', async () => {
    const p = join(dir, 'sbir.csv');
    const header =
      'Company,Award Title,Agency,Branch,Phase,Program,Agency Tracking Number,Contract,Proposal Award Date,Contract End Date,Solicitation Number,Solicitation Year,Solicitation Close Date,Proposal Receipt Date,Date of Notification,Topic Code,Award Year,Award Amount,UEI,Duns,HUBZone Owned,Socially and Economically Disadvantaged,Woman Owned,Number Employees';
    writeFileSync(
      p,
      `${header}\nACME,T,DOD,,Phase I,SBIR,123,456,2024-01-02,,25.4,2024,,,,7,2024,"1,000",U1,012345678,N,U,Y,5\n`,
    );
    const t = await tableFromCsv('sbir', p);
    expect(column(t, 'Contract')).toEqual(['456']);
    expect(column(t, 'Solicitation Number')).toEqual(['25.4']);
    expect(column(t, 'Award Amount')).toEqual([1000]);
  });

  it('returns arrays that own their buffers (cheap to send over IPC)', async () => {
    const p = join(dir, 'own.csv');
    writeFileSync(p, 'a,b\nlong text one,1\nlong text two,2\n');
    const t = await tableFromCsv('own', p);
    for (const c of t.columns) {
      for (const a of Object.values(c.data).filter(ArrayBuffer.isView) as Uint8Array[]) {
        expect(a.byteLength).toBe(a.buffer.byteLength);
        expect((a.buffer as { resizable?: boolean }).resizable ?? false).toBe(false);
      }
    }
  });
});

describe('tableFromRows', () => {
  it('takes the union of keys and infers over all rows', () => {
    const t = tableFromRows('r', [
      { a: 1, when: new Date(Date.UTC(2020, 0, 1)) },
      { a: 2.5, b: 'x' },
      { b: 'y', c: true },
    ]);
    expect(t.numRows).toBe(3);
    expect(t.columns.map((c) => [c.name, c.type])).toEqual([
      ['a', 'number'],
      ['when', 'date'],
      ['b', 'string'],
      ['c', 'boolean'],
    ]);
    expect(column(t, 'a')).toEqual([1, 2.5, null]);
    expect(column(t, 'when')).toEqual([Date.UTC(2020, 0, 1), null, null]);
  });

  it('turns mixed columns into strings without losing values', () => {
    const t = tableFromRows('m', [{ v: 1 }, { v: 'two' }, { v: { three: 3 } }]);
    expect(column(t, 'v')).toEqual(['1', 'two', '{"three":3}']);
  });

  it('throws a TypeError naming the bad row', () => {
    expect(() => tableFromRows('bad', [{ a: 1 }, 5 as unknown as object])).toThrow(/row 1 of table `bad`/);
  });
});

describe('tableFromArquero', () => {
  it('reads columns with columnNames() and array()', () => {
    const t = tableFromArquero(
      'q',
      aq.table({ n: [1, 2, 3], s: ['a', null, 'c'], d: [new Date(0), null, new Date(86_400_000)] }),
    );
    expect(t.numRows).toBe(3);
    expect(t.columns.map((c) => [c.name, c.type])).toEqual([
      ['n', 'integer'],
      ['s', 'string'],
      ['d', 'date'],
    ]);
    expect(column(t, 's')).toEqual(['a', null, 'c']);
  });

  it('rejects something that is not an Arquero table', () => {
    expect(() => tableFromArquero('x', {} as never)).toThrow(/Arquero table/);
  });
});
