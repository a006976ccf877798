#!/usr/bin/env node
// Writes the scale bench's table (bench/scale.mjs) as an Arrow IPC file with flechette: the rows of
// a Parquet file read through DuckDB a column at a time; Agency, Phase and Company as dictionaries
// of Utf8 (what an Arrow writer makes of a categorical column), Amount Float64, Employees Int32,
// Start Date32, Abstract Utf8, in batches of 122,880 rows. Run in its own process (a large heap):
//   node --max-old-space-size=16000 bench/lib/writeScaleArrow.mjs <in.parquet> <out.arrow>
import { writeFileSync } from 'node:fs';
import { DuckDBInstance } from '@duckdb/node-api';
import {
  columnFromArray,
  dateDay,
  dictionary,
  float64,
  int32,
  tableFromColumns,
  tableToIPC,
  utf8,
} from '@uwdata/flechette';

const [input, output] = process.argv.slice(2);
const con = await (await DuckDBInstance.create(':memory:')).connect();
const read = async (expr) => (await con.runAndReadAll(`SELECT ${expr} FROM read_parquet('${input}')`)).getColumns()[0];
const opts = { maxBatchRows: 122_880 };
const columns = {};
for (const name of ['Agency', 'Phase', 'Company'])
  columns[name] = columnFromArray(await read(name), dictionary(utf8()), opts);
columns.Amount = columnFromArray(Float64Array.from(await read('Amount')), float64(), opts);
columns.Employees = columnFromArray(Int32Array.from(await read('Employees')), int32(), opts);
columns.Start = columnFromArray(
  (await read("(Start - DATE '1970-01-01')::INTEGER")).map((d) => d * 86_400_000),
  dateDay(),
  opts,
);
columns.Abstract = columnFromArray(await read('Abstract'), utf8(), opts);
writeFileSync(output, tableToIPC(tableFromColumns(columns), { format: 'file' }));
