// The JSON table reader's scan for exact numbers and nesting depth (src/data/formats/exactJsonNumbers.ts)
// against JSON.parse of the same text, in one run: the ratio is what the scan adds to a JSON decode.
// Usage: npm run build && node bench/json-number-scan.mjs [rows]
import { exactNumbersAsText } from '../dist/src/data/formats/exactJsonNumbers.js';

const n = Number(process.argv[2] ?? 400_000);
const rows = Array.from({ length: n }, (_, i) => ({
  id: i,
  name: `Company ${i}`,
  amount: i * 1.5,
  when: '2021-01-02',
  flag: i % 2 === 0,
}));
const plain = JSON.stringify(rows);
// the same rows with one 20-digit integer per 1000 rows: the number rewrite runs too
const big = plain.replace(/"id":(\d*000),/g, '"id":12345678901234567890$1,');
const best = (f) => {
  let min = Infinity;
  for (let k = 0; k < 5; k++) {
    const t = performance.now();
    f();
    min = Math.min(min, performance.now() - t);
  }
  return min;
};
for (const [what, text] of [
  ['plain', plain],
  ['with big integers', big],
]) {
  const parse = best(() => JSON.parse(text));
  const scan = best(() => exactNumbersAsText(text, 64, 'bench'));
  console.log(
    `${what}: ${(text.length / 1e6).toFixed(1)} MB, JSON.parse ${parse.toFixed(0)} ms, scan ${scan.toFixed(0)} ms (${(scan / parse).toFixed(2)}x of the parse)`,
  );
}
