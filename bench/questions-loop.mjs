// Loop-style questions (issue 12): plain JavaScript over `award_data.array(col)` the way a strong
// model writes it when given only the tool description, each with the pandas a model writes for
// the same question (`py`, frame `df`). Answers are compared with sameAnswer (bench/questions.mjs).
// Placeholders: pandas reads the literal `N/A` as NaN while sbirtools keeps it as text, so
// questions about lengths skip abstracts shorter than 100 characters on both sides.

/** @type {Array<{ id: string, label: string, js: string, py: string }>} */
export const LOOP_QUESTIONS = [
  {
    id: 'meanAbstractLength',
    label: 'mean length of abstracts (>= 100 chars), loop over .array',
    js: `const abs = award_data.array('Abstract');
let total = 0, n = 0;
for (const a of abs) {
  if (a && a.length >= 100) { total += a.length; n++; }
}
total / n`,
    py: "s = df['Abstract'].str.len()\nfloat(s[s >= 100].mean())",
  },
  {
    id: 'longAbstracts',
    label: 'abstracts longer than 2,000 characters',
    js: `let count = 0;
for (const a of award_data.array('Abstract')) if (a && a.length > 2000) count++;
count`,
    py: "int((df['Abstract'].str.len() > 2000).sum())",
  },
  {
    id: 'longAbstractsGet',
    label: 'abstracts longer than 2,000 characters, t.get(col, i) loop',
    js: `let count = 0;
const n = award_data.numRows();
for (let i = 0; i < n; i++) {
  const a = award_data.get('Abstract', i);
  if (a != null && a.length > 2000) count++;
}
count`,
    py: "int((df['Abstract'].str.len() > 2000).sum())",
  },
  {
    id: 'abstractMachineLearning',
    label: "abstracts mentioning 'machine learning' (includes)",
    js: `const abstracts = award_data.array('Abstract');
let hits = 0;
for (const a of abstracts) if (a && a.includes('machine learning')) hits++;
hits`,
    py: "int(df['Abstract'].str.contains('machine learning', regex=False, na=False).sum())",
  },
  {
    id: 'abstractDigitalTwinLower',
    label: "abstracts mentioning 'digital twin', any case (toLowerCase)",
    js: `let hits = 0;
for (const a of award_data.array('Abstract')) {
  if (a && a.toLowerCase().includes('digital twin')) hits++;
}
hits`,
    py: "int(df['Abstract'].str.contains('digital twin', case=False, regex=False, na=False).sum())",
  },
  {
    id: 'abstractRegexTrl',
    label: 'abstracts matching /TRL \\d/ (regex test in a loop)',
    js: `const re = /TRL \\d/;
award_data.array('Abstract').filter(a => a != null && re.test(a)).length`,
    py: "int(df['Abstract'].str.contains(r'TRL \\d', na=False).sum())",
  },
  {
    id: 'filterContainsQuantum',
    label: "filter(d => contains(d.Abstract, 'quantum', { case: false })).numRows()",
    js: "award_data.filter(d => contains(d.Abstract, 'quantum', { case: false })).numRows()",
    py: "int(df['Abstract'].str.contains('quantum', case=False, na=False).sum())",
  },
  {
    id: 'filterPrototypeLength',
    label: "Arquero filter: 'prototype' in the abstract and length > 1,500",
    js: "award_data.filter(d => op.includes(d.Abstract, 'prototype') && op.length(d.Abstract) > 1500).numRows()",
    py: "a = df['Abstract']\nint((a.str.contains('prototype', regex=False, na=False) & (a.str.len() > 1500)).sum())",
  },
  {
    id: 'filterClosureUniversity',
    label: "closure filter: abstracts mentioning 'university', any case (toLowerCase().includes)",
    js: "award_data.filter(d => d.Abstract && d.Abstract.toLowerCase().includes('university')).numRows()",
    py: "int(df['Abstract'].str.contains('university', case=False, regex=False, na=False).sum())",
  },
  {
    id: 'filterClosureAmountVar',
    label: 'closure filter over a variable: DoD awards above a threshold',
    js: `const min = 1e6;
award_data.filter(d => d['Award Amount'] > min && d.Agency === 'Department of Defense').numRows()`,
    py: "int(((df['Award Amount'] > 1e6) & (df['Agency'] == 'Department of Defense')).sum())",
  },
  {
    id: 'titleQuantumLower',
    label: "titles containing 'quantum', any case (loop over Award Title)",
    js: `const titles = award_data.array('Award Title');
let n = 0;
for (const t of titles) if (t && t.toLowerCase().includes('quantum')) n++;
n`,
    py: "int(df['Award Title'].str.contains('quantum', case=False, na=False).sum())",
  },
  {
    id: 'titleStartsWith',
    label: "titles starting with 'Autonomous' (startsWith in a loop)",
    js: `let n = 0;
for (const t of award_data.array('Award Title')) if (t && t.startsWith('Autonomous')) n++;
n`,
    py: "int(df['Award Title'].str.startswith('Autonomous', na=False).sum())",
  },
  {
    id: 'agencyCountsMap',
    label: 'awards per Agency in a Map, top 5',
    js: `const counts = new Map();
for (const a of award_data.array('Agency')) counts.set(a, (counts.get(a) || 0) + 1);
[...counts.entries()].sort((x, y) => y[1] - x[1]).slice(0, 5)`,
    py: "df['Agency'].value_counts().head(5)",
  },
  {
    id: 'distinctCompanies',
    label: 'distinct companies (Set size)',
    js: "new Set(award_data.array('Company').filter(c => c != null)).size",
    py: "int(df['Company'].nunique())",
  },
  {
    id: 'dodAmountSince2015',
    label: 'DoD award dollars since 2015 (three arrays, filter in a loop)',
    js: `const agency = award_data.array('Agency');
const year = award_data.array('Award Year');
const amount = award_data.array('Award Amount');
let total = 0;
for (let i = 0; i < agency.length; i++) {
  if (agency[i] === 'Department of Defense' && year[i] >= 2015) total += amount[i] || 0;
}
total`,
    py: "float(df.loc[(df['Agency'] == 'Department of Defense') & (df['Award Year'] >= 2015), 'Award Amount'].sum())",
  },
  {
    id: 'phase2StatesMap',
    label: 'Phase II awards per State in a Map, top 5',
    js: `const phase = award_data.array('Phase'), state = award_data.array('State');
const byState = {};
for (let i = 0; i < phase.length; i++) {
  if (phase[i] !== 'Phase II' || state[i] == null) continue;
  byState[state[i]] = (byState[state[i]] || 0) + 1;
}
Object.entries(byState).sort((a, b) => b[1] - a[1]).slice(0, 5)`,
    py: "df.loc[df['Phase'] == 'Phase II', 'State'].value_counts().head(5)",
  },
  {
    id: 'abstractLengthByAgency',
    label: 'mean abstract length (>= 100 chars) per Agency, loop with a Map',
    js: `const ag = award_data.array('Agency'), abs = award_data.array('Abstract');
const acc = new Map();
for (let i = 0; i < ag.length; i++) {
  const a = abs[i];
  if (!a || a.length < 100) continue;
  const e = acc.get(ag[i]) || [0, 0];
  e[0] += a.length; e[1]++;
  acc.set(ag[i], e);
}
[...acc].map(([k, [s, n]]) => [k, s / n]).sort((x, y) => (x[0] < y[0] ? -1 : 1))`,
    py: "l = df['Abstract'].str.len()\nl[l >= 100].groupby(df['Agency']).mean()",
  },
];
