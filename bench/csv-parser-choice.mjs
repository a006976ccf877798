#!/usr/bin/env node
// "CSV parser choice" in docs/benchmarks.md: csv-parse vs papaparse vs our byte-level scanner,
// each streaming the same file and counting records (fields touched, no per-row work beyond what
// the parser itself does), then our full ingest to typed columns for reference.
//   node bench/generate.mjs --rows 50000 --out /tmp/bench-50k.csv
//   node bench/csv-parser-choice.mjs /tmp/bench-50k.csv [runs=3]
// Needs the build (npm run build); SBIRTOOLS_DIST=<dir> points at another build output.
import { createReadStream, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parse as csvParse } from 'csv-parse';
import Papa from 'papaparse';

const file = process.argv[2];
const runs = Number(process.argv[3] ?? 3);
if (!file) {
  console.error('usage: node bench/csv-parser-choice.mjs FILE [runs]');
  process.exit(2);
}
const dist = process.env.SBIRTOOLS_DIST
  ? pathToFileURL(resolve(process.env.SBIRTOOLS_DIST) + '/')
  : new URL('../dist/', import.meta.url);
const { RecordScanner } = await import(new URL('src/data/ingest/scanner.js', dist).href);
const { ingestCsv } = await import(new URL('src/data/ingest/ingestCsv.js', dist).href);
const mb = statSync(file).size / 1e6;

const candidates = {
  'csv-parse 6 (stream, strings per cell)': () =>
    new Promise((ok, fail) => {
      let records = 0;
      createReadStream(file)
        .pipe(csvParse({ relax_column_count: true, bom: true }))
        .on('data', () => records++)
        .on('end', () => ok(records))
        .on('error', fail);
    }),
  'papaparse 5 (stream, strings per cell)': () =>
    new Promise((ok, fail) => {
      let records = 0;
      Papa.parse(createReadStream(file, 'utf8'), { step: () => records++, complete: () => ok(records), error: fail });
    }),
  'own byte-level scanner (field offsets, no strings)': async () => {
    let records = 0;
    const scanner = new RecordScanner(() => records++);
    for await (const chunk of createReadStream(file, { highWaterMark: 1 << 22 })) scanner.push(chunk);
    scanner.finish();
    return records;
  },
  'own full ingest to typed columns (scanner + builders + sha256)': async () => (await ingestCsv(file)).report.rows + 1,
};

console.log(`file: ${file} (${mb.toFixed(1)} MB), node ${process.version}, ${runs} runs, median`);
console.log('| parser | records | median s | MB/s |\n|---|--:|--:|--:|');
for (const [name, run] of Object.entries(candidates)) {
  const times = [];
  let records = 0;
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    records = await run();
    times.push((performance.now() - t) / 1000);
  }
  const med = times.sort((a, b) => a - b)[Math.floor(times.length / 2)];
  console.log(`| ${name} | ${records} | ${med.toFixed(2)} | ${(mb / med).toFixed(0)} |`);
}
