// 2g, the policy check of a 10 KB program: checkCode() (acorn parse + one denylist walk).
// The program is analysis code as an LLM writes it, repeated with fresh names up to 10 KiB.
//   BENCH_ARGS='{"reps":200}' node bench/measures/policyCheck.mjs
import { dist } from '../lib/paths.mjs';
import { emit, log, measureArgs } from '../lib/measureChild.mjs';
import { summarize } from '../lib/stats.mjs';

const { reps = 200, warmup = 50, bytes = 10 * 1024 } = measureArgs();
const acorn = await import('acorn');
const { checkCode } = await import(dist('src/index.js'));
const { parseProgram, rulesFor, PARSE_OPTIONS } = await import(dist('src/policy/index.js'));
const { findViolations } = await import(dist('src/policy/findViolations.js'));

const block = (i) => `
// step ${i}: totals by agency and phase, then the share of each agency
const byAgency${i} = award_data.groupby('Agency').agg({ 'Award Amount': ['sum', 'mean', 'count'] });
const recent${i} = award_data.filter(d => d['Award Year'] >= ${2010 + (i % 10)} && d.Phase === 'Phase II');
const total${i} = sum(recent${i}, 'Award Amount');
const shares${i} = byAgency${i}.derive({ share: d => d['Award Amount_sum'] / ${1e9 + i} }).orderby(aq.desc('share'));
for (const row of shares${i}.objects().slice(0, 3)) {
  print(\`\${row.Agency}: \${(row.share * 100).toFixed(1)}% of \${total${i}}\`);
}
`;
let program = '';
for (let i = 0; program.length < bytes; i++) program += block(i);
const first = checkCode(program);
if (!first.ok)
  throw new Error(`the benchmark program does not pass the policy: ${JSON.stringify(first).slice(0, 500)}`);

// checkCode = parse (acorn, with locations) + one walk; all are timed interleaved
const fns = {
  checkCode: () => checkCode(program),
  parse: () => parseProgram(program),
  // what the parse would cost without line/column on every node (computed from offsets on demand)
  parseNoLocations: (() => {
    const options = { ...PARSE_OPTIONS, locations: false };
    return () => acorn.parse(program, options);
  })(),
  walk: (() => {
    const parsed = parseProgram(program).program;
    const rules = rulesFor('standard');
    return () => findViolations(program, parsed, rules);
  })(),
};
const ms = Object.fromEntries(Object.keys(fns).map((k) => [k, []]));
for (let i = -warmup; i < reps; i++) {
  for (const [k, fn] of Object.entries(fns)) {
    const t = performance.now();
    fn();
    if (i >= 0) ms[k].push(performance.now() - t);
  }
}
const stats = Object.fromEntries(Object.entries(ms).map(([k, v]) => [k, summarize(v)]));
log(
  `policy check of ${program.length} bytes: p50 ${stats.checkCode.p50.toFixed(3)} ms (parse ${stats.parse.p50.toFixed(3)}, walk ${stats.walk.p50.toFixed(3)})`,
);
emit({
  bytes: Buffer.byteLength(program),
  lines: program.split('\n').length,
  checkCodeMs: stats.checkCode,
  parseMs: stats.parse,
  walkMs: stats.walk,
  parseNoLocationsMs: stats.parseNoLocations,
});
