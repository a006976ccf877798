// Group-by, value_counts, filter and top-n questions (issue 12, part B), each three ways: the
// prelude as an LLM writes it (`js`), plain Arquero verbs (`aq`) and loop-free pandas (`py`).
// `answer` of a run and of pandas normalize to rows of cells so bench/measures/verbQuestions.mjs
// can check that every form agrees with pandas.

/** The questions, in table order. */
export const VERB_QUESTIONS = [
  {
    id: 'sumByAgencyTop5',
    label: 'sum of Award Amount by Agency, top 5',
    js: "award_data.groupby('Agency').agg({ 'Award Amount': 'sum' }).sort_values('Award Amount', { ascending: false }).head(5)",
    aq: "award_data.groupby('Agency').rollup({ 'Award Amount': op.sum('Award Amount') }).orderby(aq.desc('Award Amount')).slice(0, 5)",
    py: "df.groupby('Agency')['Award Amount'].sum().sort_values(ascending=False).head(5)",
  },
  {
    id: 'meanByAgency',
    label: 'mean Award Amount per Agency',
    js: "award_data.groupby('Agency').agg({ 'Award Amount': 'mean' })",
    aq: "award_data.groupby('Agency').rollup({ mean: op.mean('Award Amount') }).orderby('Agency')",
    py: "df.groupby('Agency')['Award Amount'].mean()",
  },
  {
    id: 'sizeByAgencyPhase',
    label: 'awards per Agency and Phase',
    js: "award_data.groupby(['Agency', 'Phase']).size()",
    aq: "award_data.groupby('Agency', 'Phase').count().orderby('Agency', 'Phase')",
    py: "df.groupby(['Agency', 'Phase']).size()",
  },
  {
    id: 'perYear',
    label: 'awards and total amount per year',
    js: "award_data.groupby('Award Year').agg({ n: 'size', total: ['Award Amount', 'sum'] })",
    aq: "award_data.groupby('Award Year').rollup({ n: op.count(), total: op.sum('Award Amount') }).orderby('Award Year')",
    py: "df.groupby('Award Year').agg(n=('Award Amount', 'size'), total=('Award Amount', 'sum'))",
  },
  {
    id: 'valueCountsAgency',
    label: 'value_counts of Agency',
    js: "value_counts(award_data, 'Agency')",
    aq: "award_data.groupby('Agency').count().orderby(aq.desc('count'))",
    py: "df['Agency'].value_counts()",
  },
  {
    id: 'valueCountsState',
    label: 'value_counts of State, top 10',
    js: "award_data.value_counts('State').head(10)",
    aq: "award_data.groupby('State').count().orderby(aq.desc('count')).slice(0, 10)",
    py: "df['State'].value_counts().head(10)",
  },
  {
    id: 'phase2Since2015',
    label: 'count of Phase II awards since 2015',
    js: "len(award_data.filter(d => d.Phase === 'Phase II' && d['Award Year'] >= 2015))",
    aq: "award_data.filter(d => d.Phase === 'Phase II' && d['Award Year'] >= 2015).numRows()",
    py: "int(((df['Phase'] == 'Phase II') & (df['Award Year'] >= 2015)).sum())",
  },
  {
    id: 'phase2SinceVar',
    label: 'count of Phase II awards since a year held in a variable',
    js: "const since = 2015; len(award_data.filter(d => d.Phase === 'Phase II' && d['Award Year'] >= since))",
    aq: "award_data.params({ since: 2015 }).filter((d, $) => d.Phase === 'Phase II' && d['Award Year'] >= $.since).numRows()",
    py: "since = 2015\nint(((df['Phase'] == 'Phase II') & (df['Award Year'] >= since)).sum())",
  },
  {
    id: 'dodNasaInCA',
    label: 'DOD or NASA awards in CA',
    js: "len(award_data.filter(d => op.includes(['DOD', 'NASA'], d.Agency) && d.State === 'CA'))",
    aq: "award_data.filter(d => (d.Agency === 'DOD' || d.Agency === 'NASA') && d.State === 'CA').numRows()",
    py: "int((df['Agency'].isin(['DOD', 'NASA']) & (df['State'] == 'CA')).sum())",
  },
  {
    id: 'filteredMeanByYear',
    label: 'mean Award Amount per year since 2020, Phase II',
    js: "award_data.filter(d => d['Award Year'] >= 2020 && d.Phase === 'Phase II').groupby('Award Year').agg({ 'Award Amount': 'mean' })",
    aq: "award_data.filter(d => d['Award Year'] >= 2020 && d.Phase === 'Phase II').groupby('Award Year').rollup({ m: op.mean('Award Amount') }).orderby('Award Year')",
    py: "df[(df['Award Year'] >= 2020) & (df['Phase'] == 'Phase II')].groupby('Award Year')['Award Amount'].mean()",
  },
  {
    id: 'top10Amounts',
    label: 'the 10 largest awards (company, amount)',
    js: "award_data.sort_values('Award Amount', { ascending: false }).head(10).select('Company', 'Award Amount')",
    aq: "award_data.orderby(aq.desc('Award Amount')).slice(0, 10).select('Company', 'Award Amount')",
    py: "df.sort_values('Award Amount', ascending=False, kind='stable').head(10)[['Company', 'Award Amount']]",
    pyIndex: false,
  },
  {
    id: 'nlargest5',
    label: 'nlargest(5) by Award Amount',
    js: "nlargest(award_data, 5, 'Award Amount').select('Company', 'Award Amount')",
    py: "df.nlargest(5, 'Award Amount')[['Company', 'Award Amount']]",
    pyIndex: false,
  },
];

/** A run's answer as rows of cells (a table) or the value. */
export function verbAnswerOfRun(r) {
  if (!r.ok) return { error: r.error?.message };
  return r.table ? r.table.rows : r.value;
}

/** A pandas answer as the same rows: index parts then values (DataFrame rows without the index when `pyIndex` is false). */
export function verbAnswerOfPandas(a, pyIndex = true) {
  if (!a.ok) return { error: a.value };
  const v = a.value;
  if (!v || typeof v !== 'object' || !Array.isArray(v.index)) return v;
  const keys = (k) => (Array.isArray(k) ? k : [k]);
  return v.index.map((k, i) => {
    const cells = Array.isArray(v.columns) ? v.data[i] : [v.data[i]];
    return pyIndex ? [...keys(k), ...cells] : cells;
  });
}
