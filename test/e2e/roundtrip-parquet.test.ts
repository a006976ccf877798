// Round trip: CSV -> Parquet (DuckDB) -> sbirtools (CLI, --table) -> to_parquet -> DuckDB and
// pandas. Every value must survive: nulls, dates and timestamps (UTC instants), integers beyond
// 2^31 and beyond 2^53 (the latter as exact text), unicode, quotes and newlines in text.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, cliEnv } from './helpers/processes.js';

const dir = mkdtempSync(join(tmpdir(), 'sbirtools-roundtrip-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const CSV =
  [
    'id,big,huge,amount,day,at,text,flag',
    '1,12345678901,9007199254740993,1.5,2021-01-02,2021-01-02T03:04:05.678Z,plain,true',
    '2,-2147483649,-9223372036854775807,,1999-12-31,1999-12-31T23:59:59Z,"comma, ""quote"" and',
    'newline",false',
    '3,,,0.1,,,Département ü 日本 🚀,',
    '4,0,42,-7,2030-06-01,2030-06-01T00:00:00Z,,true',
  ].join('\n') + '\n';

// Canonical text of every cell, so DATE vs TIMESTAMP and BIGINT vs exact text compare as values.
const CANON = `SELECT CAST("id" AS VARCHAR) AS id, CAST("big" AS VARCHAR) AS big, CAST("huge" AS VARCHAR) AS huge, CAST("amount" AS VARCHAR) AS amount,
  CAST(epoch_ms(CAST("day" AS TIMESTAMP)) AS VARCHAR) AS day, CAST(epoch_ms(CAST("at" AS TIMESTAMPTZ)) AS VARCHAR) AS at_ms, "text", CAST("flag" AS VARCHAR) AS flag`;

let duck: Awaited<ReturnType<DuckDBInstance['connect']>>;
beforeAll(async () => {
  duck = await (await DuckDBInstance.create(':memory:')).connect();
});

async function rows(sql: string): Promise<unknown[][]> {
  return (await duck.runAndReadAll(sql)).getRowsJS() as unknown[][];
}

describe('CSV -> Parquet -> sbirtools -> Parquet', () => {
  const csv = join(dir, 'in.csv');
  const parquetIn = join(dir, 'in.parquet');
  const out = join(dir, 'out');

  beforeAll(async () => {
    writeFileSync(csv, CSV);
    await duck.run(
      `COPY (SELECT * FROM read_csv('${csv}', header = true, columns = {'id': 'INTEGER', 'big': 'BIGINT', 'huge': 'BIGINT', 'amount': 'DOUBLE', 'day': 'DATE', 'at': 'TIMESTAMPTZ', 'text': 'VARCHAR', 'flag': 'BOOLEAN'})) TO '${parquetIn}' (FORMAT parquet)`,
    );
    const r = spawnSync(
      process.execPath,
      [
        CLI,
        'run',
        '--table',
        `t=${parquetIn}`,
        '--out',
        out,
        '--code',
        "to_parquet(t, 'out.parquet'); [t.numRows(), dtypes(t)]",
        '--json',
      ],
      { env: cliEnv(), encoding: 'utf8' },
    );
    expect(r.status, r.stderr).toBe(0);
  });

  it('sbirtools reads the DuckDB Parquet with the right types', () => {
    const r = spawnSync(process.execPath, [CLI, 'run', '--table', `t=${parquetIn}`, '--code', 'dtypes(t)', '--json'], {
      env: cliEnv(),
      encoding: 'utf8',
    });
    expect(JSON.parse(r.stdout).value).toEqual({
      id: 'integer',
      big: 'integer',
      huge: 'string',
      amount: 'number',
      day: 'date',
      at: 'date',
      text: 'string',
      flag: 'boolean',
    });
  });

  it('DuckDB reads back every value of the file sbirtools wrote', async () => {
    const before = await rows(`${CANON} FROM '${parquetIn}' ORDER BY id`);
    const after = await rows(`${CANON} FROM '${join(out, 'out.parquet')}' ORDER BY id`);
    expect(after).toEqual(before);
    expect(after[1]![6]).toBe('comma, "quote" and\nnewline');
    expect(after[2]).toEqual(['3', null, null, '0.1', null, null, 'Département ü 日本 🚀', null]);
    expect(after[0]![2]).toBe('9007199254740993');
  });

  it('pandas reads back every value (skipped when pandas has no Parquet engine here)', async (ctx) => {
    const py = process.env.SBIRTOOLS_BENCH_PYTHON ?? '/usr/bin/python3';
    const probe = spawnSync(
      py,
      ['-c', 'import pandas\ntry:\n import pyarrow\nexcept ImportError:\n import fastparquet'],
      { encoding: 'utf8' },
    );
    if (probe.status !== 0) {
      ctx.skip(
        `pandas with a Parquet engine (pyarrow or fastparquet) is not importable by ${py}; Debian packages neither, so this check runs where they are installed (DuckDB checked the same file above)`,
      );
      return;
    }
    const script = `import pandas as pd, json, sys
df = pd.read_parquet(sys.argv[1]).sort_values('id')
def cell(v):
    if v is None or (isinstance(v, float) and v != v) or v is pd.NaT: return None
    if isinstance(v, pd.Timestamp): return str(int(v.tz_localize('UTC').value // 1000000) if v.tzinfo is None else int(v.value // 1000000))
    if isinstance(v, bool): return 'true' if v else 'false'
    return str(v)
print(json.dumps([[cell(v) for v in row] for row in df[['id','big','huge','amount','day','at','text','flag']].astype(object).itertuples(index=False)]))`;
    const r = spawnSync(py, ['-c', script, join(out, 'out.parquet')], { encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    const fromPandas = JSON.parse(r.stdout) as unknown[][];
    const expected = (await rows(`${CANON} FROM '${parquetIn}' ORDER BY id`)).map((row) =>
      row.map((v, i) => ((i === 1 || i === 0) && v !== null ? String(Number(v)) : v)),
    );
    expect(
      fromPandas.map((row) =>
        row.map((v, i) => (i === 3 && v !== null ? String(Number(v)) : i <= 1 && v !== null ? String(Number(v)) : v)),
      ),
    ).toEqual(expected);
  });
});
