/**
 * Programs in the shapes models write (docs/benchmarks.md, "the code models write"), checked and
 * prepared once when a session opens (codeChecker.ts `warmUp`) so the session's first real program
 * finds the parser, the policy and the transform's rewrites compiled (V8 compiles a function on its
 * first call and runs it without type feedback until then): row loops over `objects()` and
 * `tolist()`, keyed counts, loops over `array()`, array chains, sorts, min/max spreads, date loops,
 * verbs with row callbacks, Series calls, a bound row array. Their answers are thrown away; nothing
 * is memoised (checkAndPrepare is a pure function of the source and the preset).
 */
export const WARM_PROGRAMS: readonly string[] = [
  `let sum = 0;
for (const row of award_data.select('Agency', 'Award Amount').objects()) {
  if (row.Agency === 'NASA' && row['Award Amount'] != null) sum += row['Award Amount'];
}
sum`,
  `const byState = {};
for (const r of award_data.select('State').objects()) byState[r.State] = (byState[r.State] || 0) + 1;
Object.entries(byState).sort((a, b) => b[1] - a[1]).slice(0, 3)`,
  `const seen = new Map();
for (const [agency, amount] of award_data.select('Agency', 'Award Amount').tolist()) {
  const e = seen.get(agency) || { n: 0, s: 0 };
  e.n++; e.s += amount || 0; seen.set(agency, e);
}
[...seen].map(([k, e]) => [k, e.s / e.n])`,
  `const cities = award_data.array('City'), money = award_data.array('Award Amount');
let best = -1;
for (let i = 0; i < money.length; i++) if (money[i] != null && (best < 0 || money[i] > money[best])) best = i;
[cities[best], money[best]]`,
  `const yrs = award_data.array('Award Year').filter((y) => y != null && y > 2010).map((y) => y - 2000);
const sorted = yrs.slice().sort((a, b) => a - b);
[Math.min(...yrs), Math.max(...yrs), sorted[sorted.length >> 1]]`,
  `const rows = award_data.select('Phase', 'Number Employees').objects();
rows.filter((r) => r.Phase === 'Phase I' && r['Number Employees'] > 5).map((r) => r['Number Employees']).length`,
  `let latest = null;
for (const r of award_data.select('Proposal Award Date').objects()) {
  const d = r['Proposal Award Date'];
  if (d && (!latest || d > latest)) latest = d;
}
latest && latest.getUTCFullYear()`,
  `award_data.filter((d) => d.Program === 'STTR' && d['Award Amount'] > 500000)
  .groupby('Agency').rollup({ n: op.count(), total: op.sum('Award Amount') })
  .orderby(aq.desc('total')).slice(0, 3).objects()`,
  `const t = award_data;
const m = t[t['Phase'].eq('Phase II').and(t['Award Year'].ge(2018))];
[m['Award Amount'].mean(), t.groupby('Agency')['Award Amount'].sum().sort_values({ ascending: false }).head(2)]`,
  `async function top(col) { return award_data[col].value_counts().head(3); }
const out = await top('Branch');
out`,
];
