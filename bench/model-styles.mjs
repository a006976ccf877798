// The code models write (issue 25, item 1): typical SBIR questions, each written in the four styles
// models use with today's tool description, and the pandas a model writes for it (`py`, frame `df`):
//   objects: rows from award_data.select(...).objects(), .tolist() or `for (const r of t)`, a plain loop
//   array:   award_data.array(col) (or t.get(col, i)) and an index loop
//   verbs:   Arquero verbs (filter/derive/groupby/rollup/orderby) and their row callbacks
//   series:  the Series and group-by helpers (pandas-like)
// Every style's answer is checked against pandas (answerOf + sameAnswer below). Answers are plain
// values: a number, a string, or rows ([key, value] pairs, or table rows of the first cells).
// Placeholders: pandas reads the literal `N/A` as NaN while sbirtools keeps it as text, so
// questions about abstracts skip texts shorter than 100 characters on both sides.

const DOD = "'Department of Defense'";

/** @type {Array<{ id: string, label: string, py: string, objects: string, array: string, verbs: string, series: string }>} */
export const MODEL_STYLE_QUESTIONS = [
  {
    id: 'totalAmount',
    label: 'total award dollars',
    py: "float(df['Award Amount'].sum())",
    objects: `let total = 0;
for (const r of award_data.select('Award Amount').objects()) total += r['Award Amount'] || 0;
total`,
    array: `const amounts = award_data.array('Award Amount');
let total = 0;
for (let i = 0; i < amounts.length; i++) total += amounts[i] || 0;
total`,
    verbs: "award_data.rollup({ total: op.sum('Award Amount') }).get('total', 0)",
    series: "award_data['Award Amount'].sum()",
  },
  {
    id: 'meanAmount',
    label: 'mean award amount',
    py: "float(df['Award Amount'].mean())",
    objects: `const rows = award_data.select('Award Amount').objects();
let s = 0, n = 0;
for (const r of rows) if (r['Award Amount'] != null) { s += r['Award Amount']; n++; }
s / n`,
    array: `const a = award_data.array('Award Amount').filter(v => v != null);
a.reduce((s, v) => s + v, 0) / a.length`,
    verbs: "award_data.rollup({ m: op.mean('Award Amount') }).get('m', 0)",
    series: "award_data['Award Amount'].mean()",
  },
  {
    id: 'phase2Count',
    label: 'number of Phase II awards',
    py: "int((df['Phase'] == 'Phase II').sum())",
    objects: "award_data.select('Phase').objects().filter(r => r.Phase === 'Phase II').length",
    array: "award_data.array('Phase').filter(p => p === 'Phase II').length",
    verbs: "award_data.filter(d => d.Phase === 'Phase II').numRows()",
    series: "award_data['Phase'].eq('Phase II').sum()",
  },
  {
    id: 'dodSince2015',
    label: 'DoD award dollars since 2015',
    py: `float(df.loc[(df['Agency'] == ${DOD}) & (df['Award Year'] >= 2015), 'Award Amount'].sum())`,
    objects: `let total = 0;
for (const r of award_data.select('Agency', 'Award Year', 'Award Amount').objects()) {
  if (r.Agency === ${DOD} && r['Award Year'] >= 2015) total += r['Award Amount'] || 0;
}
total`,
    array: `const agency = award_data.array('Agency'), year = award_data.array('Award Year'), amount = award_data.array('Award Amount');
let total = 0;
for (let i = 0; i < agency.length; i++) if (agency[i] === ${DOD} && year[i] >= 2015) total += amount[i] || 0;
total`,
    verbs: `award_data.filter(d => d.Agency === ${DOD} && d['Award Year'] >= 2015).rollup({ s: op.sum('Award Amount') }).get('s', 0)`,
    series: `const t = award_data;
t[t['Agency'].eq(${DOD}).and(t['Award Year'].ge(2015))]['Award Amount'].sum()`,
  },
  {
    id: 'agencyCountsTop5',
    label: 'awards per agency, top 5',
    py: "df['Agency'].value_counts().head(5)",
    objects: `const counts = {};
for (const r of award_data.select('Agency').objects()) counts[r.Agency] = (counts[r.Agency] || 0) + 1;
Object.entries(counts).sort((a, b) => b[1] - a[1]).slice(0, 5)`,
    array: `const counts = new Map();
for (const a of award_data.array('Agency')) counts.set(a, (counts.get(a) || 0) + 1);
[...counts].sort((a, b) => b[1] - a[1]).slice(0, 5)`,
    verbs: "award_data.groupby('Agency').count().orderby(aq.desc('count')).slice(0, 5)",
    series: "award_data['Agency'].value_counts().head(5)",
  },
  {
    id: 'agencyDollarsTop5',
    label: 'award dollars per agency, top 5',
    py: "df.groupby('Agency')['Award Amount'].sum().sort_values(ascending=False).head(5)",
    objects: `const totals = {};
for (const r of award_data.select('Agency', 'Award Amount').objects()) {
  totals[r.Agency] = (totals[r.Agency] || 0) + (r['Award Amount'] || 0);
}
Object.entries(totals).sort((a, b) => b[1] - a[1]).slice(0, 5)`,
    array: `const ag = award_data.array('Agency'), amt = award_data.array('Award Amount');
const totals = new Map();
for (let i = 0; i < ag.length; i++) totals.set(ag[i], (totals.get(ag[i]) || 0) + (amt[i] || 0));
[...totals].sort((a, b) => b[1] - a[1]).slice(0, 5)`,
    verbs:
      "award_data.groupby('Agency').rollup({ total: op.sum('Award Amount') }).orderby(aq.desc('total')).slice(0, 5)",
    series: "award_data.groupby('Agency')['Award Amount'].sum().sort_values({ ascending: false }).head(5)",
  },
  {
    id: 'phase2StatesTop5',
    label: 'Phase II awards per state, top 5',
    py: "df.loc[df['Phase'] == 'Phase II', 'State'].value_counts().head(5)",
    objects: `const byState = {};
for (const r of award_data.select('Phase', 'State').objects()) {
  if (r.Phase !== 'Phase II' || r.State == null) continue;
  byState[r.State] = (byState[r.State] || 0) + 1;
}
Object.entries(byState).sort((a, b) => b[1] - a[1]).slice(0, 5)`,
    array: `const phase = award_data.array('Phase'), state = award_data.array('State');
const m = new Map();
for (let i = 0; i < phase.length; i++) if (phase[i] === 'Phase II' && state[i] != null) m.set(state[i], (m.get(state[i]) || 0) + 1);
[...m].sort((a, b) => b[1] - a[1]).slice(0, 5)`,
    verbs:
      "award_data.filter(d => d.Phase === 'Phase II' && d.State != null).groupby('State').count().orderby(aq.desc('count')).slice(0, 5)",
    series: "award_data[award_data['Phase'].eq('Phase II')]['State'].value_counts().head(5)",
  },
  {
    id: 'awardsPerYear',
    label: 'awards per year, by year',
    py: "df['Award Year'].value_counts().sort_index()",
    objects: `const n = {};
for (const r of award_data.select('Award Year').objects()) n[r['Award Year']] = (n[r['Award Year']] || 0) + 1;
Object.entries(n).map(([y, c]) => [Number(y), c]).sort((a, b) => a[0] - b[0])`,
    array: `const m = new Map();
for (const y of award_data.array('Award Year')) m.set(y, (m.get(y) || 0) + 1);
[...m].sort((a, b) => a[0] - b[0])`,
    verbs: "award_data.groupby('Award Year').count().orderby('Award Year')",
    series: "award_data['Award Year'].value_counts().sort_index()",
  },
  {
    id: 'distinctCompanies',
    label: 'distinct companies',
    py: "int(df['Company'].nunique())",
    objects: `const seen = new Set();
for (const r of award_data.select('Company').objects()) if (r.Company != null) seen.add(r.Company);
seen.size`,
    array: "new Set(award_data.array('Company').filter(c => c != null)).size",
    verbs: "award_data.filter(d => d.Company != null).rollup({ n: op.distinct('Company') }).get('n', 0)",
    series: "award_data['Company'].nunique()",
  },
  {
    id: 'companyDollarsTop5',
    label: 'companies with the most award dollars, top 5',
    py: "df.groupby('Company')['Award Amount'].sum().sort_values(ascending=False).head(5)",
    objects: `const by = new Map();
for (const r of award_data.select('Company', 'Award Amount').objects()) by.set(r.Company, (by.get(r.Company) || 0) + (r['Award Amount'] || 0));
[...by].sort((a, b) => b[1] - a[1]).slice(0, 5)`,
    array: `const c = award_data.array('Company'), a = award_data.array('Award Amount');
const by = {};
for (let i = 0; i < c.length; i++) by[c[i]] = (by[c[i]] || 0) + (a[i] || 0);
Object.entries(by).sort((x, y) => y[1] - x[1]).slice(0, 5)`,
    verbs:
      "award_data.groupby('Company').rollup({ total: op.sum('Award Amount') }).orderby(aq.desc('total')).slice(0, 5)",
    series: "award_data.groupby('Company')['Award Amount'].sum().nlargest(5)",
  },
  {
    id: 'meanByPhase',
    label: 'mean award amount per phase',
    py: "df.groupby('Phase')['Award Amount'].mean()",
    objects: `const acc = {};
for (const r of award_data.select('Phase', 'Award Amount').objects()) {
  if (r['Award Amount'] == null) continue;
  const e = (acc[r.Phase] ||= [0, 0]);
  e[0] += r['Award Amount']; e[1]++;
}
Object.entries(acc).map(([k, [s, n]]) => [k, s / n]).sort((a, b) => (a[0] < b[0] ? -1 : 1))`,
    array: `const p = award_data.array('Phase'), a = award_data.array('Award Amount');
const acc = new Map();
for (let i = 0; i < p.length; i++) { if (a[i] == null) continue; const e = acc.get(p[i]) || [0, 0]; e[0] += a[i]; e[1]++; acc.set(p[i], e); }
[...acc].map(([k, [s, n]]) => [k, s / n]).sort((x, y) => (x[0] < y[0] ? -1 : 1))`,
    verbs: "award_data.groupby('Phase').rollup({ mean: op.mean('Award Amount') }).orderby('Phase')",
    series: "award_data.groupby('Phase')['Award Amount'].mean()",
  },
  {
    id: 'largestAward',
    label: 'the largest award: company and amount',
    py: "r = df.loc[df['Award Amount'].idxmax()]\n[r['Company'], float(r['Award Amount'])]",
    objects: `let best = null;
for (const r of award_data.select('Company', 'Award Amount').objects()) if (r['Award Amount'] != null && (best === null || r['Award Amount'] > best['Award Amount'])) best = r;
[best.Company, best['Award Amount']]`,
    array: `const a = award_data.array('Award Amount');
let k = -1;
for (let i = 0; i < a.length; i++) if (a[i] != null && (k < 0 || a[i] > a[k])) k = i;
[award_data.get('Company', k), a[k]]`,
    verbs: `const top = award_data.orderby(aq.desc('Award Amount')).slice(0, 1).objects()[0];
[top.Company, top['Award Amount']]`,
    series: `const i = award_data['Award Amount'].idxmax();
[award_data.get('Company', i), award_data.get('Award Amount', i)]`,
  },
  {
    id: 'over1M',
    label: 'awards over $1M',
    py: "int((df['Award Amount'] > 1e6).sum())",
    objects: `let n = 0;
for (const r of award_data.select('Award Amount').objects()) if (r['Award Amount'] > 1e6) n++;
n`,
    array: "award_data.array('Award Amount').filter(a => a > 1e6).length",
    verbs: "award_data.filter(d => d['Award Amount'] > 1e6).numRows()",
    series: "award_data['Award Amount'].gt(1e6).sum()",
  },
  {
    id: 'womanOwnedShare',
    label: 'share of awards to woman-owned companies',
    py: "float((df['Woman Owned'] == 'Y').mean())",
    objects: `const rows = award_data.select('Woman Owned').objects();
rows.filter(r => r['Woman Owned'] === 'Y').length / rows.length`,
    array: `const w = award_data.array('Woman Owned');
let y = 0;
for (const v of w) if (v === 'Y') y++;
y / w.length`,
    verbs: "award_data.filter(d => d['Woman Owned'] === 'Y').numRows() / award_data.numRows()",
    series: "award_data['Woman Owned'].eq('Y').mean()",
  },
  {
    id: 'hubzoneDollars',
    label: 'award dollars to HUBZone companies',
    py: "float(df.loc[df['HUBZone Owned'] == 'Y', 'Award Amount'].sum())",
    objects: `award_data.select('HUBZone Owned', 'Award Amount').objects()
  .filter(r => r['HUBZone Owned'] === 'Y')
  .reduce((s, r) => s + (r['Award Amount'] || 0), 0)`,
    array: `const h = award_data.array('HUBZone Owned'), a = award_data.array('Award Amount');
let s = 0;
for (let i = 0; i < h.length; i++) if (h[i] === 'Y') s += a[i] || 0;
s`,
    verbs: "award_data.filter(d => d['HUBZone Owned'] === 'Y').rollup({ s: op.sum('Award Amount') }).get('s', 0)",
    series: "award_data[award_data['HUBZone Owned'].eq('Y')]['Award Amount'].sum()",
  },
  {
    id: 'sttrByAgencyTop3',
    label: 'STTR awards per agency, top 3',
    py: "df.loc[df['Program'] == 'STTR', 'Agency'].value_counts().head(3)",
    objects: `const m = {};
for (const r of award_data.select('Program', 'Agency').objects()) if (r.Program === 'STTR') m[r.Agency] = (m[r.Agency] || 0) + 1;
Object.entries(m).sort((a, b) => b[1] - a[1]).slice(0, 3)`,
    array: `const p = award_data.array('Program'), ag = award_data.array('Agency');
const m = new Map();
for (let i = 0; i < p.length; i++) if (p[i] === 'STTR') m.set(ag[i], (m.get(ag[i]) || 0) + 1);
[...m].sort((a, b) => b[1] - a[1]).slice(0, 3)`,
    verbs:
      "award_data.filter(d => d.Program === 'STTR').groupby('Agency').count().orderby(aq.desc('count')).slice(0, 3)",
    series: "award_data[award_data['Program'].eq('STTR')]['Agency'].value_counts().head(3)",
  },
  {
    id: 'nasaMeanSince2020',
    label: 'NASA mean award since 2020',
    py: "float(df.loc[(df['Agency'] == 'National Aeronautics and Space Administration') & (df['Award Year'] >= 2020), 'Award Amount'].mean())",
    objects: `const xs = [];
for (const r of award_data.select('Agency', 'Award Year', 'Award Amount').objects())
  if (r.Agency === 'National Aeronautics and Space Administration' && r['Award Year'] >= 2020 && r['Award Amount'] != null) xs.push(r['Award Amount']);
xs.reduce((a, b) => a + b, 0) / xs.length`,
    array: `const ag = award_data.array('Agency'), y = award_data.array('Award Year'), a = award_data.array('Award Amount');
let s = 0, n = 0;
for (let i = 0; i < ag.length; i++) if (ag[i] === 'National Aeronautics and Space Administration' && y[i] >= 2020 && a[i] != null) { s += a[i]; n++; }
s / n`,
    verbs:
      "award_data.filter(d => d.Agency === 'National Aeronautics and Space Administration' && d['Award Year'] >= 2020).rollup({ m: op.mean('Award Amount') }).get('m', 0)",
    series: `const t = award_data;
t[t.Agency.eq('National Aeronautics and Space Administration').and(t['Award Year'].ge(2020))]['Award Amount'].mean()`,
  },
  {
    id: 'medianAmount',
    label: 'median award amount',
    py: "float(df['Award Amount'].median())",
    objects: `const a = award_data.select('Award Amount').objects().map(r => r['Award Amount']).filter(v => v != null).sort((x, y) => x - y);
a.length % 2 ? a[(a.length - 1) / 2] : (a[a.length / 2 - 1] + a[a.length / 2]) / 2`,
    array: `const a = award_data.array('Award Amount').filter(v => v != null).sort((x, y) => x - y);
a.length % 2 ? a[(a.length - 1) / 2] : (a[a.length / 2 - 1] + a[a.length / 2]) / 2`,
    verbs: "award_data.rollup({ m: op.median('Award Amount') }).get('m', 0)",
    series: "award_data['Award Amount'].median()",
  },
  {
    id: 'yearRange',
    label: 'first and last award year',
    py: "[int(df['Award Year'].min()), int(df['Award Year'].max())]",
    objects: `let lo = Infinity, hi = -Infinity;
for (const r of award_data.select('Award Year').objects()) { const y = r['Award Year']; if (y == null) continue; if (y < lo) lo = y; if (y > hi) hi = y; }
[lo, hi]`,
    array: `const y = award_data.array('Award Year').filter(v => v != null);
[Math.min(...y), Math.max(...y)]`,
    verbs: `const r = award_data.rollup({ lo: op.min('Award Year'), hi: op.max('Award Year') }).objects()[0];
[r.lo, r.hi]`,
    series: "[award_data['Award Year'].min(), award_data['Award Year'].max()]",
  },
  {
    id: 'employeesMean',
    label: 'mean number of employees',
    py: "float(df['Number Employees'].mean())",
    objects: `let s = 0, n = 0;
for (const r of award_data.select('Number Employees').objects()) if (r['Number Employees'] != null) { s += r['Number Employees']; n++; }
s / n`,
    array: `let s = 0, n = 0;
for (const v of award_data.array('Number Employees')) if (v != null) { s += v; n++; }
s / n`,
    verbs: "award_data.rollup({ m: op.mean('Number Employees') }).get('m', 0)",
    series: "award_data['Number Employees'].mean()",
  },
  {
    id: 'quantumTitles',
    label: "titles mentioning 'quantum' (any case)",
    py: "int(df['Award Title'].str.contains('quantum', case=False, na=False).sum())",
    objects: `let n = 0;
for (const r of award_data.select('Award Title').objects()) if (r['Award Title'] && r['Award Title'].toLowerCase().includes('quantum')) n++;
n`,
    array: `let n = 0;
for (const t of award_data.array('Award Title')) if (t && t.toLowerCase().includes('quantum')) n++;
n`,
    verbs: "award_data.filter(d => op.includes(op.lower(d['Award Title']), 'quantum')).numRows()",
    series: "award_data['Award Title'].str.contains('quantum', { case: false }).sum()",
  },
  {
    id: 'abstractMeanLength',
    label: 'mean abstract length (>= 100 chars)',
    py: "s = df['Abstract'].str.len()\nfloat(s[s >= 100].mean())",
    objects: `let total = 0, n = 0;
for (const r of award_data.select('Abstract').objects()) if (r.Abstract && r.Abstract.length >= 100) { total += r.Abstract.length; n++; }
total / n`,
    array: `let total = 0, n = 0;
for (const a of award_data.array('Abstract')) if (a && a.length >= 100) { total += a.length; n++; }
total / n`,
    verbs:
      "award_data.derive({ len: d => op.length(d.Abstract) }).filter(d => d.len >= 100).rollup({ m: op.mean('len') }).get('m', 0)",
    series: "const len = award_data['Abstract'].str.len();\nlen.filter(len.ge(100)).mean()",
  },
  {
    id: 'abstractMachineLearning',
    label: "abstracts mentioning 'machine learning'",
    py: "int(df['Abstract'].str.contains('machine learning', regex=False, na=False).sum())",
    objects: `award_data.select('Abstract').objects().filter(r => r.Abstract && r.Abstract.includes('machine learning')).length`,
    array: `let n = 0;
for (const a of award_data.array('Abstract')) if (a && a.includes('machine learning')) n++;
n`,
    verbs: "award_data.filter(d => op.includes(d.Abstract, 'machine learning')).numRows()",
    series: "award_data['Abstract'].str.contains('machine learning', { regex: false }).sum()",
  },
  {
    id: 'agencyPhaseTop5',
    label: 'awards per agency and phase, top 5',
    py: "s = df.groupby(['Agency', 'Phase']).size().sort_values(ascending=False).head(5)\n[[k[0] + ' / ' + k[1], int(v)] for k, v in s.items()]",
    objects: `const m = {};
for (const r of award_data.select('Agency', 'Phase').objects()) { const k = r.Agency + ' / ' + r.Phase; m[k] = (m[k] || 0) + 1; }
Object.entries(m).sort((a, b) => b[1] - a[1]).slice(0, 5)`,
    array: `const a = award_data.array('Agency'), p = award_data.array('Phase');
const m = new Map();
for (let i = 0; i < a.length; i++) { const k = a[i] + ' / ' + p[i]; m.set(k, (m.get(k) || 0) + 1); }
[...m].sort((x, y) => y[1] - x[1]).slice(0, 5)`,
    verbs: `award_data.groupby('Agency', 'Phase').count().orderby(aq.desc('count')).slice(0, 5)
  .objects().map(r => [r.Agency + ' / ' + r.Phase, r.count])`,
    series: `award_data.groupby(['Agency', 'Phase']).size().sort_values('size', { ascending: false }).head(5)
  .objects().map(r => [r.Agency + ' / ' + r.Phase, r.size])`,
  },
  {
    id: 'dollarsPerYearSince2018',
    label: 'award dollars per year since 2018',
    py: "df[df['Award Year'] >= 2018].groupby('Award Year')['Award Amount'].sum()",
    objects: `const by = {};
for (const r of award_data.select('Award Year', 'Award Amount').objects()) if (r['Award Year'] >= 2018) by[r['Award Year']] = (by[r['Award Year']] || 0) + (r['Award Amount'] || 0);
Object.entries(by).map(([y, s]) => [Number(y), s])`,
    array: `const y = award_data.array('Award Year'), a = award_data.array('Award Amount');
const by = new Map();
for (let i = 0; i < y.length; i++) if (y[i] >= 2018) by.set(y[i], (by.get(y[i]) || 0) + (a[i] || 0));
[...by].sort((p, q) => p[0] - q[0])`,
    verbs:
      "award_data.filter(d => d['Award Year'] >= 2018).groupby('Award Year').rollup({ total: op.sum('Award Amount') }).orderby('Award Year')",
    series: "award_data[award_data['Award Year'].ge(2018)].groupby('Award Year')['Award Amount'].sum()",
  },
  {
    id: 'californiaCitiesTop5',
    label: 'California cities with the most award dollars, top 5',
    py: "df[df['State'] == 'California'].groupby('City')['Award Amount'].sum().sort_values(ascending=False).head(5)",
    objects: `const by = {};
for (const r of award_data.select('State', 'City', 'Award Amount').objects()) if (r.State === 'California') by[r.City] = (by[r.City] || 0) + (r['Award Amount'] || 0);
Object.entries(by).sort((a, b) => b[1] - a[1]).slice(0, 5)`,
    array: `const s = award_data.array('State'), c = award_data.array('City'), a = award_data.array('Award Amount');
const by = new Map();
for (let i = 0; i < s.length; i++) if (s[i] === 'California') by.set(c[i], (by.get(c[i]) || 0) + (a[i] || 0));
[...by].sort((x, y) => y[1] - x[1]).slice(0, 5)`,
    verbs:
      "award_data.filter(d => d.State === 'California').groupby('City').rollup({ total: op.sum('Award Amount') }).orderby(aq.desc('total')).slice(0, 5)",
    series:
      "award_data[award_data.State.eq('California')].groupby('City')['Award Amount'].sum().sort_values({ ascending: false }).head(5)",
  },
  {
    id: 'dodBranchesTop5',
    label: 'DoD awards per branch, top 5',
    py: `df.loc[df['Agency'] == ${DOD}, 'Branch'].value_counts().head(5)`,
    objects: `const m = {};
for (const r of award_data.select('Agency', 'Branch').objects()) if (r.Agency === ${DOD} && r.Branch != null) m[r.Branch] = (m[r.Branch] || 0) + 1;
Object.entries(m).sort((a, b) => b[1] - a[1]).slice(0, 5)`,
    array: `const ag = award_data.array('Agency'), br = award_data.array('Branch');
const m = new Map();
for (let i = 0; i < ag.length; i++) if (ag[i] === ${DOD} && br[i] != null) m.set(br[i], (m.get(br[i]) || 0) + 1);
[...m].sort((a, b) => b[1] - a[1]).slice(0, 5)`,
    verbs: `award_data.filter(d => d.Agency === ${DOD} && d.Branch != null).groupby('Branch').count().orderby(aq.desc('count')).slice(0, 5)`,
    series: `award_data[award_data.Agency.eq(${DOD})]['Branch'].value_counts().head(5)`,
  },
  {
    id: 'missingAbstracts',
    label: 'awards without an abstract',
    py: "int(df['Abstract'].isna().sum())",
    objects: "award_data.select('Abstract').objects().filter(r => r.Abstract == null || r.Abstract === 'N/A').length",
    array: "award_data.array('Abstract').filter(a => a == null || a === 'N/A').length",
    verbs: "award_data.filter(d => d.Abstract == null || d.Abstract === 'N/A').numRows()",
    series: "award_data['Abstract'].isna().sum() + award_data['Abstract'].eq('N/A').sum()",
  },
  {
    id: 'latestAwardDate',
    label: 'the latest proposal award date',
    py: "pd.to_datetime(df['Proposal Award Date']).max().strftime('%Y-%m-%d')",
    objects: `let latest = null;
for (const r of award_data.select('Proposal Award Date').objects()) { const d = r['Proposal Award Date']; if (d && (!latest || d > latest)) latest = d; }
latest.toISOString().slice(0, 10)`,
    array: `const ds = award_data.array('Proposal Award Date');
let latest = -Infinity;
for (const d of ds) if (d && d.getTime() > latest) latest = d.getTime();
new Date(latest).toISOString().slice(0, 10)`,
    verbs: "award_data.rollup({ m: op.max('Proposal Award Date') }).get('m', 0).toISOString().slice(0, 10)",
    series: "award_data['Proposal Award Date'].max().toISOString().slice(0, 10)",
  },
  {
    id: 'awards2021ByMonth',
    label: 'awards per month of 2021 (proposal award date)',
    py: "d = pd.to_datetime(df['Proposal Award Date'])\nd[d.dt.year == 2021].dt.month.value_counts().sort_index()",
    objects: `const m = {};
for (const r of award_data.select('Proposal Award Date').objects()) {
  const d = r['Proposal Award Date'];
  if (d && d.getUTCFullYear() === 2021) m[d.getUTCMonth() + 1] = (m[d.getUTCMonth() + 1] || 0) + 1;
}
Object.entries(m).map(([k, v]) => [Number(k), v])`,
    array: `const m = new Array(13).fill(0);
for (const d of award_data.array('Proposal Award Date')) if (d && d.getUTCFullYear() === 2021) m[d.getUTCMonth() + 1]++;
m.map((n, k) => [k, n]).filter(([k, n]) => n > 0)`,
    verbs: `award_data.filter(d => op.year(d['Proposal Award Date']) === 2021)
  .derive({ month: d => op.month(d['Proposal Award Date']) }).groupby('month').count().orderby('month')`,
    series: `const d = award_data['Proposal Award Date'];
d.filter(d.dt.year.eq(2021)).dt.month.value_counts().sort_index()`,
  },
  {
    id: 'bigDodPhase2',
    label: 'DoD Phase II awards over $1M: count and dollars',
    py: `s = df.loc[(df['Agency'] == ${DOD}) & (df['Phase'] == 'Phase II') & (df['Award Amount'] > 1e6), 'Award Amount']\n[int(s.count()), float(s.sum())]`,
    objects: `const rows = award_data.select('Agency', 'Phase', 'Award Amount').objects()
  .filter(r => r.Agency === ${DOD} && r.Phase === 'Phase II' && r['Award Amount'] > 1e6);
[rows.length, rows.reduce((s, r) => s + r['Award Amount'], 0)]`,
    array: `const ag = award_data.array('Agency'), ph = award_data.array('Phase'), a = award_data.array('Award Amount');
let n = 0, s = 0;
for (let i = 0; i < ag.length; i++) if (ag[i] === ${DOD} && ph[i] === 'Phase II' && a[i] > 1e6) { n++; s += a[i]; }
[n, s]`,
    verbs: `const r = award_data.filter(d => d.Agency === ${DOD} && d.Phase === 'Phase II' && d['Award Amount'] > 1e6)
  .rollup({ n: op.count(), s: op.sum('Award Amount') }).objects()[0];
[r.n, r.s]`,
    series: `const t = award_data;
const sel = t[t.Agency.eq(${DOD}).and(t.Phase.eq('Phase II')).and(t['Award Amount'].gt(1e6))]['Award Amount'];
[sel.count(), sel.sum()]`,
  },
  {
    id: 'amountPerEmployeeTop3',
    label: 'top 3 companies by dollars per employee (>= 10 employees)',
    py: "t = df[df['Number Employees'] >= 10].groupby('Company').agg(s=('Award Amount', 'sum'), e=('Number Employees', 'max'))\n(t['s'] / t['e']).sort_values(ascending=False).head(3)",
    objects: `const by = new Map();
for (const r of award_data.select('Company', 'Award Amount', 'Number Employees').objects()) {
  if (!(r['Number Employees'] >= 10)) continue;
  const e = by.get(r.Company) || { s: 0, e: 0 };
  e.s += r['Award Amount'] || 0; e.e = Math.max(e.e, r['Number Employees']);
  by.set(r.Company, e);
}
[...by].map(([c, v]) => [c, v.s / v.e]).sort((a, b) => b[1] - a[1]).slice(0, 3)`,
    array: `const c = award_data.array('Company'), a = award_data.array('Award Amount'), n = award_data.array('Number Employees');
const by = new Map();
for (let i = 0; i < c.length; i++) { if (!(n[i] >= 10)) continue; const e = by.get(c[i]) || [0, 0]; e[0] += a[i] || 0; e[1] = Math.max(e[1], n[i]); by.set(c[i], e); }
[...by].map(([k, [s, e]]) => [k, s / e]).sort((x, y) => y[1] - x[1]).slice(0, 3)`,
    verbs: `award_data.filter(d => d['Number Employees'] >= 10).groupby('Company')
  .rollup({ s: op.sum('Award Amount'), e: op.max('Number Employees') })
  .derive({ per: d => d.s / d.e }).orderby(aq.desc('per')).slice(0, 3).select('Company', 'per')`,
    series: `const t = award_data[award_data['Number Employees'].ge(10)].groupby('Company').agg({ s: ['Award Amount', 'sum'], e: ['Number Employees', 'max'] });
t.derive({ per: d => d.s / d.e }).sort_values('per', { ascending: false }).head(3).select('Company', 'per')`,
  },
  {
    id: 'rowLoopDodCount',
    label: 'DoD awards counted in a loop over the table itself',
    py: `int((df['Agency'] == ${DOD}).sum())`,
    objects: `let n = 0;
for (const r of award_data.select('Agency')) if (r.Agency === ${DOD}) n++;
n`,
    array: `let n = 0;
const rows = award_data.numRows();
for (let i = 0; i < rows; i++) if (award_data.get('Agency', i) === ${DOD}) n++;
n`,
    verbs: `award_data.filter(d => d.Agency === ${DOD}).numRows()`,
    series: `award_data.Agency.eq(${DOD}).sum()`,
  },
  {
    id: 'tolistPhaseAmount',
    label: 'Phase I dollars from tolist() rows',
    py: "float(df.loc[df['Phase'] == 'Phase I', 'Award Amount'].sum())",
    objects: `let s = 0;
for (const [phase, amount] of award_data.select('Phase', 'Award Amount').tolist()) if (phase === 'Phase I') s += amount || 0;
s`,
    array: `const p = award_data['Phase'].tolist(), a = award_data['Award Amount'].tolist();
let s = 0;
for (let i = 0; i < p.length; i++) if (p[i] === 'Phase I') s += a[i] || 0;
s`,
    verbs: "award_data.filter(d => d.Phase === 'Phase I').rollup({ s: op.sum('Award Amount') }).get('s', 0)",
    series: "award_data[award_data.Phase.eq('Phase I')]['Award Amount'].sum()",
  },
  {
    id: 'derivedThenObjects',
    label: 'awards in millions, derived then objects(), over $2M',
    py: "int((df['Award Amount'] / 1e6 > 2).sum())",
    objects: `award_data.derive({ m: d => d['Award Amount'] / 1e6 }).select('m').objects().filter(r => r.m > 2).length`,
    array: "award_data.array('Award Amount').map(a => a / 1e6).filter(m => m > 2).length",
    verbs: "award_data.derive({ m: d => d['Award Amount'] / 1e6 }).filter(d => d.m > 2).numRows()",
    series: "award_data['Award Amount'].div(1e6).gt(2).sum()",
  },
  {
    id: 'filteredObjectsLimit',
    label: 'first 20 Phase II NSF awards as rows (objects({ limit }))',
    py: "s = df.loc[(df['Agency'] == 'National Science Foundation') & (df['Phase'] == 'Phase II'), 'Award Amount'].head(20)\nfloat(s.sum())",
    objects: `award_data.filter(d => d.Agency === 'National Science Foundation' && d.Phase === 'Phase II')
  .objects({ limit: 20 }).reduce((s, r) => s + (r['Award Amount'] || 0), 0)`,
    array: `const ag = award_data.array('Agency'), ph = award_data.array('Phase'), a = award_data.array('Award Amount');
let s = 0, n = 0;
for (let i = 0; i < ag.length && n < 20; i++) if (ag[i] === 'National Science Foundation' && ph[i] === 'Phase II') { s += a[i] || 0; n++; }
s`,
    verbs:
      "award_data.filter(d => d.Agency === 'National Science Foundation' && d.Phase === 'Phase II').slice(0, 20).rollup({ s: op.sum('Award Amount') }).get('s', 0)",
    series: `const t = award_data;
t[t.Agency.eq('National Science Foundation').and(t.Phase.eq('Phase II'))].head(20)['Award Amount'].sum()`,
  },
];

export const STYLES = ['objects', 'array', 'verbs', 'series'];

/** A run's answer as plain data: a table's rows (first two cells; one cell alone), or the value. */
export function answerOfRun(r) {
  if (!r.ok) return { error: r.error?.message };
  if (r.table) return r.table.rows.map((row) => (row.length === 1 ? row[0] : [row[0], row[1]]));
  return r.value;
}

/** A pandas answer as the same plain data: a Series is [index, value] pairs. */
export function answerOfPandas(a) {
  if (!a.ok) return { error: a.value };
  const v = a.value;
  return v && typeof v === 'object' && Array.isArray(v.index) ? v.index.map((k, i) => [k, v.data[i]]) : v;
}
