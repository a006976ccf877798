// The per-method Series table (issue 25 item 3): each documented Series/DataFrame method as the
// Series form, the plain loop over `award_data.array()` it stands for, and the pandas line. Each
// form computes the same answer (bench/series-methods.mjs times them; the prelude's differential
// tests check the answers agree). A loop form reads its columns with `.array()` every time, as
// model-written loops do.
const A = "award_data['Award Amount']";
const amt = "const v = award_data.array('Award Amount');";

export const SERIES_METHODS = [
  // reductions
  {
    name: 'sum',
    series: `${A}.sum()`,
    loop: `${amt} let t = 0; for (let i = 0; i < v.length; i++) { const x = v[i]; if (x != null && x === x) t += x; } t`,
    pandas: "df['Award Amount'].sum()",
  },
  {
    name: 'mean',
    series: `${A}.mean()`,
    loop: `${amt} let t = 0, n = 0; for (let i = 0; i < v.length; i++) { const x = v[i]; if (x != null && x === x) { t += x; n++; } } t / n`,
    pandas: "df['Award Amount'].mean()",
  },
  {
    name: 'min',
    series: `${A}.min()`,
    loop: `${amt} let m = Infinity; for (let i = 0; i < v.length; i++) { const x = v[i]; if (x != null && x < m) m = x; } m`,
    pandas: "df['Award Amount'].min()",
  },
  {
    name: 'max',
    series: `${A}.max()`,
    loop: `${amt} let m = -Infinity; for (let i = 0; i < v.length; i++) { const x = v[i]; if (x != null && x > m) m = x; } m`,
    pandas: "df['Award Amount'].max()",
  },
  {
    name: 'std',
    series: `${A}.std()`,
    loop: `${amt} let t = 0, n = 0; for (const x of v) if (x != null) { t += x; n++; } const mu = t / n; let q = 0; for (const x of v) if (x != null) q += (x - mu) ** 2; Math.sqrt(q / (n - 1))`,
    pandas: "df['Award Amount'].std()",
  },
  {
    name: 'count',
    series: `${A}.count()`,
    loop: `${amt} let n = 0; for (const x of v) if (x != null) n++; n`,
    pandas: "df['Award Amount'].count()",
  },
  {
    name: 'nunique (Company)',
    series: 'award_data.Company.nunique()',
    loop: "const s = new Set(); for (const x of award_data.array('Company')) if (x != null) s.add(x); s.size",
    pandas: "df['Company'].nunique()",
  },
  {
    name: 'value_counts (Agency)',
    series: 'award_data.Agency.value_counts()',
    loop: "const m = new Map(); for (const x of award_data.array('Agency')) if (x != null) m.set(x, (m.get(x) || 0) + 1); [...m].sort((a, b) => b[1] - a[1])",
    pandas: "df['Agency'].value_counts()",
  },
  {
    name: 'value_counts (Company) head 10',
    series: 'award_data.Company.value_counts().head(10)',
    loop: "const m = new Map(); for (const x of award_data.array('Company')) if (x != null) m.set(x, (m.get(x) || 0) + 1); [...m].sort((a, b) => b[1] - a[1]).slice(0, 10)",
    pandas: "df['Company'].value_counts().head(10)",
  },
  {
    name: 'describe (Award Amount)',
    series: `${A}.describe()`,
    loop: `${amt} const xs = Float64Array.from(v.filter((x) => x != null)).sort(); const q = (p) => { const h = (xs.length - 1) * p, lo = Math.floor(h); return xs[lo] + (h - lo) * ((xs[lo + 1] ?? xs[lo]) - xs[lo]); }; let t = 0; for (const x of xs) t += x; const mu = t / xs.length; let s2 = 0; for (const x of xs) s2 += (x - mu) ** 2; [xs.length, mu, Math.sqrt(s2 / (xs.length - 1)), xs[0], q(0.25), q(0.5), q(0.75), xs[xs.length - 1]]`,
    pandas: "df['Award Amount'].describe()",
  },
  // long text
  {
    name: 'str.len().mean() (Abstract)',
    series: 'award_data.Abstract.str.len().mean()',
    loop: "const v = award_data.array('Abstract'); let t = 0, n = 0; for (const x of v) if (x != null) { t += x.length; n++; } t / n",
    pandas: "df['Abstract'].str.len().mean()",
  },
  {
    name: 'str.contains count (Abstract)',
    series: "award_data.Abstract.str.contains('quantum', { case: false }).sum()",
    loop: "let n = 0; for (const x of award_data.array('Abstract')) if (x != null && x.toLowerCase().includes('quantum')) n++; n",
    pandas: "df['Abstract'].str.contains('quantum', case=False).sum()",
  },
  {
    name: 'str.contains literal (Abstract)',
    series: "award_data.Abstract.str.contains('sensor', { regex: false }).sum()",
    loop: "let n = 0; for (const x of award_data.array('Abstract')) if (x != null && x.includes('sensor')) n++; n",
    pandas: "df['Abstract'].str.contains('sensor', regex=False).sum()",
  },
  {
    name: 'str.lower (Award Title)',
    series: "award_data['Award Title'].str.lower().length",
    loop: "const v = award_data.array('Award Title'); const o = new Array(v.length); for (let i = 0; i < v.length; i++) o[i] = v[i] == null ? null : v[i].toLowerCase(); o.length",
    pandas: "len(df['Award Title'].str.lower())",
  },
  {
    name: 'str.startswith (Company)',
    series: "award_data.Company.str.startswith('A').sum()",
    loop: "let n = 0; for (const x of award_data.array('Company')) if (x != null && x.startsWith('A')) n++; n",
    pandas: "df['Company'].str.startswith('A').sum()",
  },
  // masks
  {
    name: 'mask & count',
    series: `${A}.gt(1e6).and(award_data.Phase.eq('Phase II')).sum()`,
    loop: "const a = award_data.array('Award Amount'), p = award_data.array('Phase'); let n = 0; for (let i = 0; i < a.length; i++) if (a[i] > 1e6 && p[i] === 'Phase II') n++; n",
    pandas: "((df['Award Amount'] > 1e6) & (df['Phase'] == 'Phase II')).sum()",
  },
  {
    name: 'mask | filter numRows',
    series: "award_data[award_data.Agency.eq('Department of Defense').or(award_data.State.eq('CA'))].numRows()",
    loop: "const a = award_data.array('Agency'), s = award_data.array('State'); let n = 0; for (let i = 0; i < a.length; i++) if (a[i] === 'Department of Defense' || s[i] === 'CA') n++; n",
    pandas: "len(df[(df['Agency'] == 'Department of Defense') | (df['State'] == 'CA')])",
  },
  {
    name: 'isin count',
    series: "award_data.State.isin(['CA', 'MA', 'TX']).sum()",
    loop: "const k = new Set(['CA', 'MA', 'TX']); let n = 0; for (const x of award_data.array('State')) if (k.has(x)) n++; n",
    pandas: "df['State'].isin(['CA', 'MA', 'TX']).sum()",
  },
  {
    name: 'between mean',
    series: `award_data[${A}.between(1e5, 1e6)]['Award Amount'].mean()`,
    loop: `${amt} let t = 0, n = 0; for (const x of v) if (x != null && x >= 1e5 && x <= 1e6) { t += x; n++; } t / n`,
    pandas: "df['Award Amount'][df['Award Amount'].between(1e5, 1e6)].mean()",
  },
  // group-by
  {
    name: 'groupby sum',
    series: "award_data.groupby('Agency')['Award Amount'].sum()",
    loop: "const k = award_data.array('Agency'), v = award_data.array('Award Amount'); const m = new Map(); for (let i = 0; i < k.length; i++) if (k[i] != null && v[i] != null) m.set(k[i], (m.get(k[i]) || 0) + v[i]); [...m].sort()",
    pandas: "df.groupby('Agency')['Award Amount'].sum()",
  },
  {
    name: 'groupby agg mean/count (2 keys)',
    series: "award_data.groupby(['Agency', 'Phase']).agg({ 'Award Amount': ['mean', 'count'] })",
    loop: "const k = award_data.array('Agency'), p = award_data.array('Phase'), v = award_data.array('Award Amount'); const m = new Map(); for (let i = 0; i < k.length; i++) { if (k[i] == null || p[i] == null) continue; const key = k[i] + '|' + p[i]; let e = m.get(key); if (!e) m.set(key, (e = [0, 0])); if (v[i] != null) { e[0] += v[i]; e[1]++; } } [...m].sort()",
    pandas: "df.groupby(['Agency', 'Phase'])['Award Amount'].agg(['mean', 'count'])",
  },
  {
    name: 'groupby size',
    series: "award_data.groupby('State').size()",
    loop: "const m = new Map(); for (const x of award_data.array('State')) if (x != null) m.set(x, (m.get(x) || 0) + 1); [...m].sort()",
    pandas: "df.groupby('State').size()",
  },
  {
    name: 'pivot_table sum',
    series:
      "award_data.pivot_table({ index: 'Agency', columns: 'Phase', values: 'Award Amount', aggfunc: 'sum', fill_value: 0 })",
    loop: "const k = award_data.array('Agency'), p = award_data.array('Phase'), v = award_data.array('Award Amount'); const m = new Map(); for (let i = 0; i < k.length; i++) { if (k[i] == null || p[i] == null) continue; let r = m.get(k[i]); if (!r) m.set(k[i], (r = new Map())); r.set(p[i], (r.get(p[i]) || 0) + (v[i] ?? 0)); } [...m].sort()",
    pandas: "df.pivot_table(index='Agency', columns='Phase', values='Award Amount', aggfunc='sum', fill_value=0)",
  },
  // order
  {
    name: 'nlargest 10',
    series: `${A}.nlargest(10)`,
    loop: `${amt} const idx = []; for (let i = 0; i < v.length; i++) if (v[i] != null) idx.push(i); idx.sort((a, b) => v[b] - v[a]).slice(0, 10).map((i) => v[i])`,
    pandas: "df['Award Amount'].nlargest(10)",
  },
  {
    name: 'sort_values head 10',
    series: "award_data.sort_values('Award Amount', { ascending: false }).head(10)",
    loop: `${amt} const idx = []; for (let i = 0; i < v.length; i++) if (v[i] != null) idx.push(i); idx.sort((a, b) => v[b] - v[a]).slice(0, 10)`,
    pandas: "df.sort_values('Award Amount', ascending=False).head(10)",
  },
  {
    name: 'Series sort_values',
    series: `${A}.sort_values().length`,
    loop: `${amt} Float64Array.from(v.filter((x) => x != null)).sort().length`,
    pandas: "len(df['Award Amount'].sort_values())",
  },
  // combine
  {
    name: 'merge (left, small right)',
    series:
      "const names = aq.table({ Agency: ['Department of Defense', 'National Aeronautics and Space Administration'], short: ['DOD', 'NASA'] }); merge(award_data.select('Agency', 'Award Amount'), names, { on: 'Agency', how: 'left' }).numRows()",
    loop: "const names = new Map([['Department of Defense', 'DOD'], ['National Aeronautics and Space Administration', 'NASA']]); const k = award_data.array('Agency'), v = award_data.array('Award Amount'); const o = new Array(k.length); for (let i = 0; i < k.length; i++) o[i] = [k[i], v[i], names.get(k[i]) ?? null]; o.length",
    pandas:
      "len(df[['Agency', 'Award Amount']].merge(pd.DataFrame({'Agency': ['Department of Defense', 'National Aeronautics and Space Administration'], 'short': ['DOD', 'NASA']}), on='Agency', how='left'))",
  },
  {
    name: 'concat two halves',
    series: 'concat([award_data.slice(0, 100000), award_data.slice(100000)]).numRows()',
    loop: "const a = award_data.array('Agency'); a.slice(0, 100000).concat(a.slice(100000)).length",
    pandas: 'len(pd.concat([df.iloc[:100000], df.iloc[100000:]]))',
  },
];

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
};

/** A form as a function body returning its last expression (each form ends with one). */
const returning = (code) => {
  const i = Math.max(code.lastIndexOf('; '), code.lastIndexOf('} '));
  return i < 0 ? `return ${code}` : `${code.slice(0, i + 2)}return ${code.slice(i + 2)}`;
};

/**
 * Guest code timing `a` and `b` `reps` times each, interleaved, in the isolate (Date.now, 1 ms
 * steps: the isolate has no performance.now). Each result is stored in a global, so the engine
 * cannot drop a computation whose value is unused. A first evaluation of each warms the columns
 * and sizes an inner repeat so one measurement lasts ~50 ms; the figures are per evaluation.
 */
const timedPair = (a, b, reps) => `let __sink = null;
  const __fa = () => { ${returning(a)}; }, __fb = () => { ${returning(b)}; };
  const __size = (f) => { let n = 0; const t = Date.now(); while (Date.now() - t < 20 && n < 2000) { __sink = f(); n++; } return Math.max(1, Math.ceil(n * 50 / Math.max(Date.now() - t, 1))); };
  const __na = Math.min(__size(__fa), 5000), __nb = Math.min(__size(__fb), 5000);
  const __run = (f, n) => { const t = Date.now(); for (let j = 0; j < n; j++) __sink = f(); return (Date.now() - t) / n; };
  const __ta = [], __tb = [];
  for (let __k = 0; __k < ${reps}; __k++) { __ta.push(__run(__fa, __na)); __tb.push(__run(__fb, __nb)); }
  [__ta, __tb, __sink !== undefined]`;

/**
 * Each method's Series and loop medians (ms, inside the isolate) and pandas' (ms, inside Python),
 * in one session and one pandas worker. `onRow` sees each row as it is measured.
 */
export async function measureSeriesMethods({ box, pandas, reps, methods = SERIES_METHODS, onRow = () => {} }) {
  const rows = [];
  for (const m of methods) {
    const r = await box.run(timedPair(m.series, m.loop, reps));
    if (!r.ok) throw new Error(`${m.name}: ${r.error?.message}`);
    let pandasMs = null;
    if (pandas && m.pandas) {
      const ps = [];
      for (let i = 0; i < reps + 1; i++) {
        const a = await pandas.ask(m.pandas);
        if (!a.ok) throw new Error(`pandas ${m.name}: ${a.value}`);
        if (i > 0) ps.push(a.computeMs);
      }
      pandasMs = median(ps);
    }
    const row = { name: m.name, series: m.series, seriesMs: median(r.value[0]), loopMs: median(r.value[1]), pandasMs };
    rows.push(row);
    onRow(row);
  }
  return rows;
}
