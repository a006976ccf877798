// The questions every comparison asks, three ways: JavaScript as an LLM writes it with the
// prelude (`js`), plain Arquero verbs (`aq`, when it differs), and the equivalent pandas (`py`,
// with the frame as `df`). `answer` normalizes both results so the bench can check they agree.

/** Warm-session questions (issue 8, 2c), in table order. */
export const WARM_QUESTIONS = [
  { id: 'trivial', label: 'trivial run', js: '1 + 1', py: '1 + 1' },
  {
    id: 'agencyTop5',
    label: 'sum of Award Amount by Agency, top 5',
    js: "award_data.groupby('Agency').agg({ 'Award Amount': 'sum' }).sort_values('Award Amount', { ascending: false }).head(5)",
    aq: "award_data.groupby('Agency').rollup({ 'Award Amount': op.sum('Award Amount') }).orderby(aq.desc('Award Amount')).slice(0, 5)",
    py: "df.groupby('Agency')['Award Amount'].sum().sort_values(ascending=False).head(5)",
    // what a prelude fast path for agg() on a dictionary-encoded key could run: one pass over the
    // codes and the Float64Array, no string hashing (guest code can reach the raw column data)
    fast: `(() => {
  const a = award_data.column('Agency').data(), v = award_data.column('Award Amount').data();
  const k = a.dictOffsets.length - 1, sums = new Float64Array(k), first = new Int32Array(k).fill(-1);
  const codes = a.codes, vals = v.values, ok = v.valid;
  for (let i = 0; i < codes.length; i++) { const c = codes[i]; if (c < 0) continue; if (first[c] < 0) first[c] = i; if (ok[i]) sums[c] += vals[i]; }
  const keys = [], totals = [];
  for (let c = 0; c < k; c++) if (first[c] >= 0) { keys.push(award_data.get('Agency', first[c])); totals.push(sums[c]); }
  return aq.table({ Agency: keys, 'Award Amount': totals }).orderby(aq.desc('Award Amount')).slice(0, 5);
})()`,
  },
  {
    id: 'phase2Since2015',
    label: 'count of Phase II awards since 2015',
    js: "len(award_data.filter(d => d.Phase === 'Phase II' && d['Award Year'] >= 2015))",
    aq: "award_data.filter(d => d.Phase === 'Phase II' && d['Award Year'] >= 2015).numRows()",
    py: "int(((df['Phase'] == 'Phase II') & (df['Award Year'] >= 2015)).sum())",
  },
  {
    id: 'quantumTitles',
    label: 'titles containing "quantum" (any case)',
    js: "award_data.filter(d => contains(d['Award Title'], 'quantum', { case: false })).numRows()",
    aq: "award_data.filter(d => op.match(d['Award Title'], /quantum/i) != null).numRows()",
    py: "int(df['Award Title'].str.contains('quantum', case=False, na=False).sum())",
  },
];

/** The mixed set of the concurrency measure (2f): the warm questions and three more. */
export const MIXED_QUESTIONS = [
  ...WARM_QUESTIONS,
  {
    id: 'programCounts',
    label: 'awards per Program',
    js: "value_counts(award_data, 'Program')",
    py: "df['Program'].value_counts()",
  },
  {
    id: 'meanByYear',
    label: 'mean Award Amount per year since 2020',
    js: "award_data.filter(d => d['Award Year'] >= 2020).groupby('Award Year').agg({ 'Award Amount': 'mean' })",
    py: "df[df['Award Year'] >= 2020].groupby('Award Year')['Award Amount'].mean()",
  },
  {
    id: 'topCompanies',
    label: 'top 5 companies by awards',
    js: "value_counts(award_data, 'Company').head(5)",
    py: "df['Company'].value_counts().head(5)",
  },
];

/** An sbirtools RunResult as plain data: table rows (first two cells) or the value. */
export function answerOfRun(r) {
  if (!r.ok) return { error: r.error?.message };
  return r.table ? r.table.rows.map((row) => [row[0], row[1]]) : r.value;
}

/** A pandas answer ({ index, data } for a Series) as the same plain data. */
export function answerOfPandas(a) {
  if (!a.ok) return { error: a.value };
  const v = a.value;
  return v && typeof v === 'object' && Array.isArray(v.index) ? v.index.map((k, i) => [k, v.data[i]]) : v;
}

/** Equal, numbers within a relative 1e-9 (summation order differs between engines). */
export function sameAnswer(a, b) {
  if (typeof a === 'number' && typeof b === 'number')
    return Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => sameAnswer(x, b[i]));
  return JSON.stringify(a) === JSON.stringify(b);
}
