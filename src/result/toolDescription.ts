import { PRELUDE_API, type ApiEntry } from '../../schema/preludeApi.js';
import type { ColumnCard, DataCard } from '../../schema/dataCard.js';

/** The budget: 1,500 tokens, estimated as characters / 4. */
export const TOOL_DESCRIPTION_MAX_CHARS = 6000;

const GROUP_TITLES: Record<ApiEntry['group'], string> = {
  data: 'Data',
  output: 'Output',
  explore: 'Look',
  count: 'Count',
  sort: 'Sort',
  aggregate: 'Aggregate',
  reshape: 'Reshape',
  clean: 'Clean',
  math: 'Math',
  string: 'Strings (one value; use inside filter/derive)',
  date: 'Dates (UTC)',
};

const clip = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

function columnLine(c: ColumnCard, topValues: number): string {
  const bits = [c.type];
  if (c.nullRate >= 0.05) bits.push(`${Math.round(c.nullRate * 100)}% null`);
  if (c.type === 'date' && c.min !== undefined) bits.push(`${c.min}..${c.max}`);
  else if (c.min !== undefined && (c.type === 'number' || c.type === 'integer')) bits.push(`${c.min}..${c.max}`);
  if (topValues && c.top?.length && c.type === 'string')
    bits.push(
      `e.g. ${c.top
        .slice(0, topValues)
        .map((t) => clip(String(t.value), 18))
        .join(', ')}`,
    );
  return `${c.name} (${bits.join('; ')})`;
}

function pick(card: DataCard, preferred: string, test: (c: ColumnCard) => boolean): string | undefined {
  return card.columns.find((c) => c.name === preferred)?.name ?? card.columns.find(test)?.name;
}

function examples(card: DataCard): string[] {
  const q = (s: string) => `'${s.replace(/'/g, "\\'")}'`;
  const cat = pick(card, 'Agency', (c) => c.type === 'string' && !!c.top?.length);
  const amount = pick(card, 'Award Amount', (c) => c.type === 'number');
  const year = pick(card, 'Award Year', (c) => c.type === 'integer');
  const text = pick(card, 'Award Title', (c) => c.type === 'string' && !c.top?.length);
  const out: string[] = [];
  if (cat) out.push(`award_data[${q(cat)}].value_counts().head(10)`);
  if (cat && amount) {
    const t = year ? 'recent' : 'award_data';
    out.push(
      `${year ? `const recent = award_data[award_data[${q(year)}].ge(2020)];\n` : ''}${t}.groupby(${q(cat)})[${q(amount)}].agg(['sum', 'mean', 'count']).sort_values('sum', { ascending: false })`,
    );
  }
  if (text)
    out.push(
      `award_data[award_data[${q(text)}].str.contains('quantum', { case: false })].select(${[cat, text, amount]
        .filter(Boolean)
        .map((c) => q(c!))
        .join(', ')}).head(20)`,
    );
  return out.slice(0, 3);
}

/** The Series, first: what models write from pandas habits and what works here. */
function seriesSection(card: DataCard): string {
  const amount = pick(card, 'Award Amount', (c) => c.type === 'number') ?? 'x';
  const cat = pick(card, 'Agency', (c) => c.type === 'string') ?? 'k';
  const a = `t['${amount}']`;
  return [
    `Columns are pandas-like Series: ${a}.sum(), t.${/^[A-Za-z_$][\w$]*$/.test(cat) ? cat : `['${cat}']`}.value_counts(); mean median min max std count nunique quantile idxmax unique isna fillna dropna round cumsum map apply astype head sort_values nlargest tolist; .str.contains/startswith/lower/len/replace/split, .dt.year/month/quarter/dayofweek.`,
    `Masks (JS operators do not work on a Series): ${a}.gt(1e6).and(t.Phase.eq('Phase II')) with eq ne lt le gt ge between isin and or not; filter with t[mask], t.loc(mask, cols?) or t.filter(mask) (a Series with s[mask]); arithmetic with add sub mul div.`,
    `t.groupby(k)['col'].sum() | .mean() | .agg(['sum', 'mean']) | .size() | .value_counts() return tables with the keys as columns (sort_values({ ascending: false }), nlargest(n), idxmax() work on them). t.query("Phase == 'Phase II' and \`${amount}\` > @x").`,
  ].join('\n');
}

function apiSection(): string {
  const groups = new Map<ApiEntry['group'], string[]>();
  for (const a of PRELUDE_API) {
    if (a.group === 'data') continue;
    const list = groups.get(a.group) ?? [];
    list.push(a.group === 'string' || a.group === 'date' || a.group === 'output' ? a.sig : a.name);
    groups.set(a.group, list);
  }
  return [...groups].map(([g, names]) => `- ${GROUP_TITLES[g]}: ${names.join(', ')}`).join('\n');
}

/**
 * The description of the run_analysis tool: what the data is (from the data card), every name the
 * prelude installs (from PRELUDE_API, the list install() uses), the rules that trip models up, and
 * three short examples. Stays under 1,500 tokens (estimated as characters / 4).
 * @example toolDescription(dataCard(dataset))
 */
export function toolDescription(card: DataCard): string {
  const d = card.dataset;
  const origin = !d
    ? ''
    : d.synthetic
      ? ' NOTE: this is a SYNTHETIC SAMPLE (made-up rows for trying the tool), not real SBIR awards.'
      : ` Source: ${d.source}${d.asOf ? `, as of ${d.asOf.slice(0, 10)}` : ''}.`;
  const head = [
    `Run JavaScript over award_data, an Arquero table of ${card.rows} US SBIR/STTR awards (${card.columns.length} columns).${origin}`,
    'The last expression (or a variable named result) is the answer: a table comes back as Markdown, other values as JSON. print()/console.log write stdout; display(t) adds another table. No imports, files or network; top-level variables persist within a session.',
  ].join('\n');
  const rules = [
    "Rules: column names are exact and may contain spaces: t['Award Amount']. Table helpers work as functions f(t, ...) and methods t.f(...); free variables work inside filter/derive closures. Dates are UTC Date objects. Nulls are skipped by sum/mean/count; groupby(...).agg(...) drops null keys, sorts by key and returns keys as columns (no index). month() is 1-12.",
    "Arquero verbs also work: filter(d => ...), derive({ c: d => ... }), select, groupby(...).rollup({ n: op.count(), s: op.sum('col') }), orderby(aq.desc('col')), join.",
    "Plain loops: t.array('col') for one column; t.select('a', 'b').objects() for rows (select only the columns the loop reads: every selected column is read).",
  ].join('\n');
  const series = seriesSection(card);
  const api = `Helpers (call as f(t, ...) or t.f(...)):\n${apiSection()}\n- Data: award_data, aq (Arquero), op, describeData() (data card)`;
  const ex = `Examples:\n${examples(card)
    .map((e, i) => `${i + 1}. ${e}`)
    .join('\n')}`;
  const build = (topValues: number, maxColumns: number) => {
    const cols = card.columns.slice(0, maxColumns).map((c) => columnLine(c, topValues));
    const more =
      card.columns.length > maxColumns ? `; ... ${card.columns.length - maxColumns} more (describeData())` : '';
    return [head, series, `Columns: ${cols.join('; ')}${more}`, rules, api, ex].join('\n\n');
  };
  // shrink the column list until the description fits the budget
  for (const [top, max] of [
    [3, Infinity],
    [2, Infinity],
    [1, Infinity],
    [0, Infinity],
    [0, 40],
    [0, 25],
    [0, 12],
  ] as const) {
    const text = build(top, max);
    if (text.length <= TOOL_DESCRIPTION_MAX_CHARS) return text;
  }
  return build(0, 6).slice(0, TOOL_DESCRIPTION_MAX_CHARS);
}
