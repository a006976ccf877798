// The median as models spell it, warm, against pandas' `df['Award Amount'].median()`, in ONE process:
// each spelling runs rewritten in a warm session of its own and as written in another (a comment
// naming `$sbtRow` turns the preparation's rewrites off; its garbage stays out of the first session's
// heap), then pandas, in turn, `reps` times after `warmup`, so the machine's load hits all alike. Prints the p50 and best ms of each, the ratio (of p50) to pandas, and whether
// the preparation lends the spelling the session's kept sort (src/runtime/prepare/sortedBound.ts);
// every answer is checked against pandas'.
//   SBIRTOOLS_BENCH_CSV=/work/benchdata/award_data.csv node --no-node-snapshot bench/median-spellings.mjs [--reps 9] [--warmup 3]
import { CACHE_DIR, CSV, dist } from './lib/paths.mjs';
import { PandasWorker } from './lib/pandasWorker.mjs';
import { summarize } from './lib/stats.mjs';

const CHAIN = "award_data.array('Award Amount').filter(v => v != null)";
const PICK = (a, mid) => `${a}.length % 2 ? ${a}[${mid}] : (${a}[${mid} - 1] + ${a}[${mid}]) / 2`;

export const SPELLINGS = {
  'sorted chain, index arithmetic': `const a = ${CHAIN}.sort((x, y) => x - y);\na.length % 2 ? a[(a.length - 1) / 2] : (a[a.length / 2 - 1] + a[a.length / 2]) / 2`,
  'sorted chain, const mid': `const a = ${CHAIN}.sort((x, y) => x - y);\nconst mid = Math.floor(a.length / 2);\n${PICK('a', 'mid')}`,
  'sorted in place': `const a = ${CHAIN};\na.sort((x, y) => x - y);\nconst mid = Math.floor(a.length / 2);\n${PICK('a', 'mid')}`,
  'objects pluck, >> 1': `const a = award_data.select('Award Amount').objects().map(r => r['Award Amount']).filter(v => v != null).sort((x, y) => x - y);\nconst m = a.length >> 1;\n${PICK('a', 'm')}`,
  'spread copy sorted': `const v = ${CHAIN};\nconst s = [...v].sort((x, y) => x - y);\nconst mid = Math.floor(s.length / 2);\n${PICK('s', 'mid')}`,
  'median function': `function median(xs) {\n  const s = [...xs].sort((x, y) => x - y);\n  const mid = Math.floor(s.length / 2);\n  return ${PICK('s', 'mid')};\n}\nmedian(${CHAIN})`,
};

const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(name);
  return i < 0 ? dflt : args[i + 1];
};
const reps = Number(opt('--reps', 9));
const warmup = Number(opt('--warmup', 3));
const { createSandbox, shutdown } = await import(dist('src/index.js'));
const { prepareCode } = await import(dist('src/runtime/prepare/transform.js'));
const asWritten = (code) => `${code}\n// $sbtRow`;
const pandas = await PandasWorker.start('/usr/bin/python3', CSV);
const samples = { pandas: [] };
let expected;
try {
  // a session pair per spelling, as bench/model-styles.mjs has per question: a function an earlier
  // spelling kept (\`median\`) would keep the names it mentions global in the next ones (localize.ts)
  for (const [name, code] of Object.entries(SPELLINGS)) {
    const box = await createSandbox({ dataPath: CSV, cacheDir: CACHE_DIR });
    const plain = await createSandbox({ dataPath: CSV, cacheDir: CACHE_DIR });
    try {
      await box.run('award_data.numRows()');
      await plain.run('award_data.numRows()');
      for (let i = -warmup; i < reps; i++) {
        for (const [way, text, session] of [
          ['rewritten', code, box],
          ['as written', asWritten(code), plain],
        ]) {
          const t = performance.now();
          const r = await session.run(text);
          const ms = performance.now() - t;
          if (!r.ok) throw new Error(`${name} (${way}) failed: ${JSON.stringify(r.error)}`);
          if (i >= 0) (samples[`${name}|${way}`] ??= []).push(ms);
        }
        const a = await pandas.ask("float(df['Award Amount'].median())");
        expected ??= Number(a.value);
        if (i >= 0) samples.pandas.push(a.ms);
      }
      for (const session of [box, plain]) {
        const r = await session.run(code);
        if (r.value !== expected) throw new Error(`${name} answered ${r.value}, pandas ${expected}`);
      }
    } finally {
      await box.close();
      await plain.close();
    }
  }
} finally {
  await pandas.close();
  await shutdown();
}
const p = summarize(samples.pandas);
console.log(`pandas median(): p50 ${p.p50.toFixed(2)} ms (best ${p.min.toFixed(2)}), ${reps} reps after ${warmup}`);
console.log('| spelling | lent | rewritten p50 (best) ms | x pandas | as written p50 (best) ms | x pandas |');
console.log('|---|---|--:|--:|--:|--:|');
for (const [name, code] of Object.entries(SPELLINGS)) {
  const r = summarize(samples[`${name}|rewritten`]);
  const w = summarize(samples[`${name}|as written`]);
  const lent = prepareCode(code).code.includes(', 4/*>$sbtRow*/') ? 'yes' : 'no';
  console.log(
    `| ${name} | ${lent} | ${r.p50.toFixed(2)} (${r.min.toFixed(2)}) | ${(r.p50 / p.p50).toFixed(2)} | ${w.p50.toFixed(2)} (${w.min.toFixed(2)}) | ${(w.p50 / p.p50).toFixed(2)} |`,
  );
}
