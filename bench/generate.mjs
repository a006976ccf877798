#!/usr/bin/env node
// Writes a synthetic SBIR award CSV for benchmarks, streaming (never the whole file in memory).
//   node bench/generate.mjs [--rows 219590] [--layout current|legacy] [--seed 1] [--abstract-chars 1500] --out FILE
// Needs the build (npm run build); SBIRTOOLS_DIST=<dir> points at another build output.
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    rows: { type: 'string', default: '219590' },
    layout: { type: 'string', default: 'current' },
    seed: { type: 'string', default: '20240601' },
    'abstract-chars': { type: 'string', default: '1500' },
    out: { type: 'string' },
  },
});
if (!values.out) {
  console.error(
    'usage: node bench/generate.mjs --out FILE [--rows N] [--layout current|legacy] [--seed N] [--abstract-chars N]',
  );
  process.exit(2);
}
const dist = process.env.SBIRTOOLS_DIST
  ? pathToFileURL(resolve(process.env.SBIRTOOLS_DIST) + '/')
  : new URL('../dist/', import.meta.url);
const { writeSyntheticCsv } = await import(new URL('src/data/synthetic.js', dist).href);
const started = performance.now();
const { rows, bytes } = await writeSyntheticCsv(resolve(values.out), {
  rows: Number(values.rows),
  layout: values.layout,
  seed: Number(values.seed),
  abstractChars: Number(values['abstract-chars']),
});
const secs = (performance.now() - started) / 1000;
console.log(`wrote ${rows} rows, ${(bytes / 1e6).toFixed(1)} MB to ${values.out} in ${secs.toFixed(1)} s`);
