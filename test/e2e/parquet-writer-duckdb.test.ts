// to_parquet as a user gets it (library run(), a CSV table handed to the session): the file of a
// filtered, ordered, derived 120,000-row result, read by DuckDB, holds exactly what DuckDB computes
// from the CSV itself: two row groups, dictionary-coded and plain text, integers, numbers, dates
// before 1970, unicode and CRLF inside values, nulls.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run, shutdown } from '../../src/index.js';

const dir = mkdtempSync(join(tmpdir(), 'sbirtools-parquet-writer-'));
const N = 120_001;
const AGENCIES = ['DOD', 'HHS', 'NSF', 'DOE', 'NASA'];
let duck: Awaited<ReturnType<DuckDBInstance['connect']>>;

afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await shutdown();
});

beforeAll(async () => {
  const lines = ['id,name,agency,amount,day,big'];
  for (let i = 0; i < N; i++) {
    const name = i % 5 === 0 ? `"Ünï ""${i}"" 🚀\r\nnext"` : i % 11 === 0 ? '' : `Co ${i}`;
    const day = new Date(((i % 40_000) - 20_000) * 86_400_000).toISOString().slice(0, 10);
    lines.push(
      `${i},${name},${AGENCIES[i % 5]},${i % 7 === 0 ? '' : i * 1.25 - 5000},${i % 13 === 0 ? '' : day},${i * 2 ** 20}`,
    );
  }
  writeFileSync(join(dir, 't.csv'), lines.join('\n') + '\n');
  duck = await (await DuckDBInstance.create(':memory:')).connect();
});

describe('to_parquet read by DuckDB', () => {
  it('a filtered, ordered, derived 120,000-row result keeps every value', async () => {
    const code = `const r = t.filter(d => d.id % 3 !== 0)
      .derive({ twice: d => d.amount === null ? null : d.amount * 2, label: d => d.agency + '-' + d.id })
      .orderby(aq.desc('id'));
    to_parquet(r, 'r.parquet'); r.numRows()`;
    const r = await run(code, { awardData: false, tables: { t: join(dir, 't.csv') }, maxFileBytes: 64 << 20 });
    expect(r.ok, JSON.stringify(r.error)).toBe(true);
    const file = r.files![0]!;
    expect(file).toMatchObject({ name: 'r.parquet', mediaType: 'application/vnd.apache.parquet' });
    const path = join(dir, 'r.parquet');
    writeFileSync(path, file.bytes!);

    const rows = async (sql: string) => (await duck.runAndReadAll(sql)).getRowsJS() as unknown[][];
    const types = Object.fromEntries((await rows(`DESCRIBE SELECT * FROM '${path}'`)).map((x) => [x[0], x[1]]));
    expect(types).toEqual({
      id: 'BIGINT',
      name: 'VARCHAR',
      agency: 'VARCHAR',
      amount: 'DOUBLE',
      day: 'TIMESTAMP WITH TIME ZONE',
      big: 'BIGINT',
      twice: 'DOUBLE',
      label: 'VARCHAR',
    });
    const groups = await rows(`SELECT row_group_id, count(*) FROM parquet_metadata('${path}') GROUP BY ALL ORDER BY 1`);
    expect(groups.length).toBe(Math.ceil((r.value as number) / 100_000));

    // the file's own order: descending id
    expect((await rows(`SELECT id FROM '${path}' LIMIT 3`)).map((x) => Number(x[0]))).toEqual(
      [120_000, 119_999, 119_998]
        .filter((i) => i % 3 !== 0)
        .concat([119_996])
        .slice(0, 3),
    );

    const canon = (from: string, day: string) =>
      `SELECT CAST(id AS VARCHAR), name, agency, CAST(amount AS VARCHAR), CAST(epoch_ms(${day}) AS VARCHAR), CAST(big AS VARCHAR), CAST(twice AS VARCHAR), label FROM ${from} ORDER BY id`;
    const fromCsv = `(SELECT *, amount * 2 AS twice, agency || '-' || id AS label FROM read_csv('${join(dir, 't.csv')}', header = true, columns = {'id': 'BIGINT', 'name': 'VARCHAR', 'agency': 'VARCHAR', 'amount': 'DOUBLE', 'day': 'DATE', 'big': 'BIGINT'}) WHERE id % 3 <> 0)`;
    const want = await rows(canon(fromCsv, 'CAST(day AS TIMESTAMP)'));
    const got = await rows(canon(`'${path}'`, 'day'));
    expect(got.length).toBe(r.value);
    expect(got.length).toBe(want.length);
    for (let i = 0; i < want.length; i++)
      if (JSON.stringify(got[i]) !== JSON.stringify(want[i])) expect(got[i]).toEqual(want[i]);
    expect(got.find((x) => x[0] === '5')).toEqual([
      '5',
      'Ünï "5" 🚀\r\nnext',
      'DOD',
      '-4993.75',
      String((5 - 20_000) * 86_400_000),
      String(5 * 2 ** 20),
      '-9987.5',
      'DOD-5',
    ]);
    expect(got.find((x) => x[0] === '91')?.[3]).toBeNull(); // 91 % 7 === 0: no amount
  }, 120_000);
});
