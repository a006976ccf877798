// The Series path against the table helpers it stands for (issue #14: "as fast as the table helpers";
// same columnar data, no row objects). Each pair answers the same question both ways in one warm
// session. Timed inside the isolate (Date.now around each evaluation, the two forms interleaved
// `--reps` times per run, default 5), so host round trips, result serialization and the machine's
// load do not blur the ratio; the figure is the median over `--runs` runs (default 3).
//   node bench/series-speed.mjs [--data /work/benchdata/award_data.csv] [--runs 5]
import { createSandbox, shutdown } from '../dist/src/index.js';

const arg = (name, dflt) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : dflt;
};
const dataPath = arg('--data', process.env.SBIRTOOLS_BENCH_CSV);
const runs = Number(arg('--runs', 3));
const reps = Number(arg('--reps', 5));

const PAIRS = [
  ['sum of a number column', "award_data['Award Amount'].sum()", "award_data.sum('Award Amount')"],
  ['mean of a number column', "award_data['Award Amount'].mean()", "award_data.mean('Award Amount')"],
  ['value_counts of a dictionary column', 'award_data.Agency.value_counts()', "value_counts(award_data, 'Agency')"],
  ['nunique', 'award_data.State.nunique()', "nunique(award_data, 'State')"],
  [
    'filter by equality',
    "award_data[award_data.Phase.eq('Phase II')].numRows()",
    "award_data.filter(d => d.Phase === 'Phase II').numRows()",
  ],
  [
    'filter by a range',
    "award_data.filter(award_data['Award Amount'].gt(1e6)).numRows()",
    "award_data.filter(d => d['Award Amount'] > 1e6).numRows()",
  ],
  [
    'query',
    'award_data.query("Phase == \'Phase II\' and `Award Amount` > 1e6").numRows()',
    "award_data.filter(d => d.Phase === 'Phase II' && d['Award Amount'] > 1e6).numRows()",
  ],
  [
    'groupby column sum',
    "award_data.groupby('Agency')['Award Amount'].sum()",
    "award_data.groupby('Agency').agg({ 'Award Amount': 'sum' })",
  ],
  [
    'str.contains count',
    "award_data['Award Title'].str.contains('quantum', { case: false }).sum()",
    "award_data.filter(d => contains(d['Award Title'], 'quantum', { case: false })).numRows()",
  ],
  [
    'dt.year value_counts',
    "award_data['Proposal Award Date'].dt.year.value_counts().head(5)",
    "value_counts(award_data.derive({ y: d => op.year(d['Proposal Award Date']) }), 'y').head(5)",
  ],
];

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
};
const box = await createSandbox({ ...(dataPath ? { dataPath } : {}), timeoutMs: 120_000, memoryLimitMb: 2048 });
try {
  const info = await box.run('award_data.numRows()');
  console.log(
    `rows: ${info.value}; runs per figure: ${runs} x ${reps} evaluations; data: ${dataPath ?? 'default (synthetic sample unless downloaded)'}`,
  );
  for (const [, s, t] of PAIRS) {
    await box.run(s);
    await box.run(t);
  } // warm: columns fetched and decoded
  console.log('| question | Series ms | table helper ms | ratio |\n| --- | ---: | ---: | ---: |');
  for (const [label, s, t] of PAIRS) {
    // both forms interleaved inside one run, so the machine's load hits them alike
    const code = `const ta = [], tb = [];
      for (let k = 0; k < ${reps}; k++) {
        let t0 = Date.now(); ${s}; ta.push(Date.now() - t0);
        t0 = Date.now(); ${t}; tb.push(Date.now() - t0);
      }
      [ta, tb]`;
    const a = [];
    const b = [];
    for (let i = 0; i < runs; i++) {
      const r = await box.run(code);
      if (!r.ok) throw new Error(`${label}: ${r.error?.message}`);
      a.push(...r.value[0]);
      b.push(...r.value[1]);
    }
    console.log(
      `| ${label} | ${median(a).toFixed(1)} | ${median(b).toFixed(1)} | ${(median(a) / median(b)).toFixed(2)} |`,
    );
  }
} finally {
  await box.close();
  await shutdown();
}
