// DuckDB beside a bench: the same CSV loaded into an in-memory table `t` (@duckdb/node-api, a
// devDependency, as bench/measures/duckdbReference.mjs and bench/scale.mjs use it). Every column
// is read as text first, then the columns the questions use are cast the way the ingest types
// them (amounts without `$` and `,`, dates as DATE), so a question reads typed columns as the
// sandbox's Series do. One thread by default: a sandbox session runs on one thread too.

/** Text columns kept as VARCHAR. */
const TEXT = ['Company', 'Award Title', 'Agency', 'Branch', 'Phase', 'Program', 'State', 'City', 'Abstract'];

/**
 * Opens DuckDB in memory and loads `csv` into table `t`; returns { db, loadMs, version, close }.
 * `db.runAndReadAll(sql)` answers a question.
 */
export async function openDuckTable(csv, { threads = 1 } = {}) {
  const { DuckDBInstance } = await import('@duckdb/node-api');
  const t0 = performance.now();
  const instance = await DuckDBInstance.create(':memory:', { threads: String(threads) });
  const db = await instance.connect();
  const path = csv.replaceAll("'", "''");
  await db.run(
    `CREATE TABLE raw AS SELECT * FROM read_csv('${path}', header = true, all_varchar = true, quote = '"', escape = '"', max_line_size = 10000000)`,
  );
  const num = (c, type) => `TRY_CAST(replace(replace("${c}", '$', ''), ',', '') AS ${type}) AS "${c}"`;
  await db.run(`CREATE TABLE t AS SELECT ${TEXT.map((c) => `"${c}"`).join(', ')},
    ${num('Award Year', 'INTEGER')}, ${num('Award Amount', 'DOUBLE')}, ${num('Number Employees', 'DOUBLE')},
    TRY_CAST("Proposal Award Date" AS DATE) AS "Proposal Award Date" FROM raw`);
  await db.run('DROP TABLE raw');
  const loadMs = performance.now() - t0;
  const version =
    (await import('@duckdb/node-api/package.json', { with: { type: 'json' } }).catch(() => ({ default: {} }))).default
      .version ?? null;
  return { db, loadMs, version, threads, close: () => db.closeSync?.() };
}
