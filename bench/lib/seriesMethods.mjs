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
    sql: 'SELECT sum("Award Amount") FROM t',
  },
  {
    name: 'mean',
    series: `${A}.mean()`,
    loop: `${amt} let t = 0, n = 0; for (let i = 0; i < v.length; i++) { const x = v[i]; if (x != null && x === x) { t += x; n++; } } t / n`,
    pandas: "df['Award Amount'].mean()",
    sql: 'SELECT avg("Award Amount") FROM t',
  },
  {
    name: 'min',
    series: `${A}.min()`,
    loop: `${amt} let m = Infinity; for (let i = 0; i < v.length; i++) { const x = v[i]; if (x != null && x < m) m = x; } m`,
    pandas: "df['Award Amount'].min()",
    sql: 'SELECT min("Award Amount") FROM t',
  },
  {
    name: 'max',
    series: `${A}.max()`,
    loop: `${amt} let m = -Infinity; for (let i = 0; i < v.length; i++) { const x = v[i]; if (x != null && x > m) m = x; } m`,
    pandas: "df['Award Amount'].max()",
    sql: 'SELECT max("Award Amount") FROM t',
  },
  {
    name: 'std',
    series: `${A}.std()`,
    loop: `${amt} let t = 0, n = 0; for (const x of v) if (x != null) { t += x; n++; } const mu = t / n; let q = 0; for (const x of v) if (x != null) q += (x - mu) ** 2; Math.sqrt(q / (n - 1))`,
    pandas: "df['Award Amount'].std()",
    sql: 'SELECT stddev_samp("Award Amount") FROM t',
  },
  {
    name: 'count',
    series: `${A}.count()`,
    loop: `${amt} let n = 0; for (const x of v) if (x != null) n++; n`,
    pandas: "df['Award Amount'].count()",
    sql: 'SELECT count("Award Amount") FROM t',
  },
  {
    name: 'nunique (Company)',
    series: 'award_data.Company.nunique()',
    loop: "const s = new Set(); for (const x of award_data.array('Company')) if (x != null) s.add(x); s.size",
    pandas: "df['Company'].nunique()",
    sql: 'SELECT count(DISTINCT "Company") FROM t',
  },
  {
    name: 'value_counts (Agency)',
    series: 'award_data.Agency.value_counts()',
    loop: "const m = new Map(); for (const x of award_data.array('Agency')) if (x != null) m.set(x, (m.get(x) || 0) + 1); [...m].sort((a, b) => b[1] - a[1])",
    pandas: "df['Agency'].value_counts()",
    sql: 'SELECT "Agency", count(*) AS n FROM t WHERE "Agency" IS NOT NULL GROUP BY 1 ORDER BY n DESC',
  },
  {
    name: 'value_counts (Company) head 10',
    series: 'award_data.Company.value_counts().head(10)',
    loop: "const m = new Map(); for (const x of award_data.array('Company')) if (x != null) m.set(x, (m.get(x) || 0) + 1); [...m].sort((a, b) => b[1] - a[1]).slice(0, 10)",
    pandas: "df['Company'].value_counts().head(10)",
    sql: 'SELECT "Company", count(*) AS n FROM t WHERE "Company" IS NOT NULL GROUP BY 1 ORDER BY n DESC LIMIT 10',
  },
  {
    name: 'describe (Award Amount)',
    series: `${A}.describe()`,
    loop: `${amt} const xs = Float64Array.from(v.filter((x) => x != null)).sort(); const q = (p) => { const h = (xs.length - 1) * p, lo = Math.floor(h); return xs[lo] + (h - lo) * ((xs[lo + 1] ?? xs[lo]) - xs[lo]); }; let t = 0; for (const x of xs) t += x; const mu = t / xs.length; let s2 = 0; for (const x of xs) s2 += (x - mu) ** 2; [xs.length, mu, Math.sqrt(s2 / (xs.length - 1)), xs[0], q(0.25), q(0.5), q(0.75), xs[xs.length - 1]]`,
    pandas: "df['Award Amount'].describe()",
    sql: 'SELECT count(x), avg(x), stddev_samp(x), min(x), quantile_cont(x, [0.25, 0.5, 0.75]), max(x) FROM (SELECT "Award Amount" AS x FROM t)',
  },
  // long text
  {
    name: 'str.len().mean() (Abstract)',
    series: 'award_data.Abstract.str.len().mean()',
    loop: "const v = award_data.array('Abstract'); let t = 0, n = 0; for (const x of v) if (x != null) { t += x.length; n++; } t / n",
    pandas: "df['Abstract'].str.len().mean()",
    sql: 'SELECT avg(length("Abstract")) FROM t',
  },
  {
    name: 'str.contains count (Abstract)',
    series: "award_data.Abstract.str.contains('quantum', { case: false }).sum()",
    loop: "let n = 0; for (const x of award_data.array('Abstract')) if (x != null && x.toLowerCase().includes('quantum')) n++; n",
    pandas: "df['Abstract'].str.contains('quantum', case=False).sum()",
    sql: `SELECT count(*) FROM t WHERE "Abstract" ILIKE '%quantum%'`,
  },
  {
    name: 'str.contains literal (Abstract)',
    series: "award_data.Abstract.str.contains('sensor', { regex: false }).sum()",
    loop: "let n = 0; for (const x of award_data.array('Abstract')) if (x != null && x.includes('sensor')) n++; n",
    pandas: "df['Abstract'].str.contains('sensor', regex=False).sum()",
    sql: `SELECT count(*) FROM t WHERE contains("Abstract", 'sensor')`,
  },
  {
    name: 'str.lower (Award Title)',
    series: "award_data['Award Title'].str.lower().length",
    loop: "const v = award_data.array('Award Title'); const o = new Array(v.length); for (let i = 0; i < v.length; i++) o[i] = v[i] == null ? null : v[i].toLowerCase(); o.length",
    pandas: "len(df['Award Title'].str.lower())",
    sql: 'SELECT count(*) FROM t WHERE lower("Award Title") IS NOT NULL OR "Award Title" IS NULL',
  },
  {
    name: 'str.startswith (Company)',
    series: "award_data.Company.str.startswith('A').sum()",
    loop: "let n = 0; for (const x of award_data.array('Company')) if (x != null && x.startsWith('A')) n++; n",
    pandas: "df['Company'].str.startswith('A').sum()",
    sql: `SELECT count(*) FROM t WHERE starts_with("Company", 'A')`,
  },
  // masks
  {
    name: 'mask & count',
    series: `${A}.gt(1e6).and(award_data.Phase.eq('Phase II')).sum()`,
    loop: "const a = award_data.array('Award Amount'), p = award_data.array('Phase'); let n = 0; for (let i = 0; i < a.length; i++) if (a[i] > 1e6 && p[i] === 'Phase II') n++; n",
    pandas: "((df['Award Amount'] > 1e6) & (df['Phase'] == 'Phase II')).sum()",
    sql: `SELECT count(*) FROM t WHERE "Award Amount" > 1e6 AND "Phase" = 'Phase II'`,
  },
  {
    name: 'mask | filter numRows',
    series: "award_data[award_data.Agency.eq('Department of Defense').or(award_data.State.eq('CA'))].numRows()",
    loop: "const a = award_data.array('Agency'), s = award_data.array('State'); let n = 0; for (let i = 0; i < a.length; i++) if (a[i] === 'Department of Defense' || s[i] === 'CA') n++; n",
    pandas: "len(df[(df['Agency'] == 'Department of Defense') | (df['State'] == 'CA')])",
    sql: `SELECT count(*) FROM t WHERE "Agency" = 'Department of Defense' OR "State" = 'CA'`,
  },
  {
    name: 'isin count',
    series: "award_data.State.isin(['CA', 'MA', 'TX']).sum()",
    loop: "const k = new Set(['CA', 'MA', 'TX']); let n = 0; for (const x of award_data.array('State')) if (k.has(x)) n++; n",
    pandas: "df['State'].isin(['CA', 'MA', 'TX']).sum()",
    sql: `SELECT count(*) FROM t WHERE "State" IN ('CA', 'MA', 'TX')`,
  },
  {
    name: 'between mean',
    series: `award_data[${A}.between(1e5, 1e6)]['Award Amount'].mean()`,
    loop: `${amt} let t = 0, n = 0; for (const x of v) if (x != null && x >= 1e5 && x <= 1e6) { t += x; n++; } t / n`,
    pandas: "df['Award Amount'][df['Award Amount'].between(1e5, 1e6)].mean()",
    sql: 'SELECT avg("Award Amount") FROM t WHERE "Award Amount" BETWEEN 1e5 AND 1e6',
  },
  // group-by
  {
    name: 'groupby sum',
    series: "award_data.groupby('Agency')['Award Amount'].sum()",
    loop: "const k = award_data.array('Agency'), v = award_data.array('Award Amount'); const m = new Map(); for (let i = 0; i < k.length; i++) if (k[i] != null && v[i] != null) m.set(k[i], (m.get(k[i]) || 0) + v[i]); [...m].sort()",
    pandas: "df.groupby('Agency')['Award Amount'].sum()",
    sql: 'SELECT "Agency", sum("Award Amount") FROM t WHERE "Agency" IS NOT NULL GROUP BY 1 ORDER BY 1',
  },
  {
    name: 'groupby agg mean/count (2 keys)',
    series: "award_data.groupby(['Agency', 'Phase']).agg({ 'Award Amount': ['mean', 'count'] })",
    loop: "const k = award_data.array('Agency'), p = award_data.array('Phase'), v = award_data.array('Award Amount'); const m = new Map(); for (let i = 0; i < k.length; i++) { if (k[i] == null || p[i] == null) continue; const key = k[i] + '|' + p[i]; let e = m.get(key); if (!e) m.set(key, (e = [0, 0])); if (v[i] != null) { e[0] += v[i]; e[1]++; } } [...m].sort()",
    pandas: "df.groupby(['Agency', 'Phase'])['Award Amount'].agg(['mean', 'count'])",
    sql: 'SELECT "Agency", "Phase", avg("Award Amount"), count("Award Amount") FROM t WHERE "Agency" IS NOT NULL AND "Phase" IS NOT NULL GROUP BY 1, 2 ORDER BY 1, 2',
  },
  {
    name: 'groupby size',
    series: "award_data.groupby('State').size()",
    loop: "const m = new Map(); for (const x of award_data.array('State')) if (x != null) m.set(x, (m.get(x) || 0) + 1); [...m].sort()",
    pandas: "df.groupby('State').size()",
    sql: 'SELECT "State", count(*) FROM t WHERE "State" IS NOT NULL GROUP BY 1 ORDER BY 1',
  },
  // group-by with many groups (~186,000 number keys, ~tens of thousands of companies)
  {
    name: 'groupby size (Award Amount, many groups)',
    series: "award_data.groupby('Award Amount').size()",
    loop: `${amt} const m = new Map(); for (const x of v) if (x != null && x === x) m.set(x, (m.get(x) || 0) + 1); [...m].sort((a, b) => a[0] - b[0])`,
    pandas: "df.groupby('Award Amount').size()",
    sql: 'SELECT "Award Amount", count(*) FROM t WHERE "Award Amount" IS NOT NULL GROUP BY 1 ORDER BY 1',
  },
  {
    name: 'groupby size (Company, many groups)',
    series: "award_data.groupby('Company').size()",
    loop: "const m = new Map(); for (const x of award_data.array('Company')) if (x != null) m.set(x, (m.get(x) || 0) + 1); [...m].sort()",
    pandas: "df.groupby('Company').size()",
    sql: 'SELECT "Company", count(*) FROM t WHERE "Company" IS NOT NULL GROUP BY 1 ORDER BY 1',
  },
  {
    name: 'groupby sum (Company, many groups)',
    series: "award_data.groupby('Company')['Award Amount'].sum()",
    loop: "const k = award_data.array('Company'), v = award_data.array('Award Amount'); const m = new Map(); for (let i = 0; i < k.length; i++) if (k[i] != null && v[i] != null) m.set(k[i], (m.get(k[i]) || 0) + v[i]); [...m].sort()",
    pandas: "df.groupby('Company')['Award Amount'].sum()",
    sql: 'SELECT "Company", sum("Award Amount") FROM t WHERE "Company" IS NOT NULL GROUP BY 1 ORDER BY 1',
  },
  {
    name: 'groupby agg sum (Company, many groups)',
    series: "award_data.groupby('Company').agg({ 'Award Amount': 'sum' })",
    loop: "const k = award_data.array('Company'), v = award_data.array('Award Amount'); const m = new Map(); for (let i = 0; i < k.length; i++) if (k[i] != null && v[i] != null) m.set(k[i], (m.get(k[i]) || 0) + v[i]); [...m].sort()",
    pandas: "df.groupby('Company').agg({'Award Amount': 'sum'})",
    sql: 'SELECT "Company", sum("Award Amount") FROM t WHERE "Company" IS NOT NULL GROUP BY 1 ORDER BY 1',
  },
  {
    name: 'groupby mean (Company, many groups)',
    series: "award_data.groupby('Company')['Award Amount'].mean()",
    loop: "const k = award_data.array('Company'), v = award_data.array('Award Amount'); const m = new Map(); for (let i = 0; i < k.length; i++) { if (k[i] == null) continue; let e = m.get(k[i]); if (!e) m.set(k[i], (e = [0, 0])); if (v[i] != null) { e[0] += v[i]; e[1]++; } } [...m].map(([c, e]) => [c, e[0] / e[1]]).sort()",
    pandas: "df.groupby('Company')['Award Amount'].mean()",
    sql: 'SELECT "Company", avg("Award Amount") FROM t WHERE "Company" IS NOT NULL GROUP BY 1 ORDER BY 1',
  },
  {
    name: 'groupby count (Company, many groups)',
    series: "award_data.groupby('Company')['Award Amount'].count()",
    loop: "const k = award_data.array('Company'), v = award_data.array('Award Amount'); const m = new Map(); for (let i = 0; i < k.length; i++) if (k[i] != null) m.set(k[i], (m.get(k[i]) || 0) + (v[i] != null ? 1 : 0)); [...m].sort()",
    pandas: "df.groupby('Company')['Award Amount'].count()",
    sql: 'SELECT "Company", count("Award Amount") FROM t WHERE "Company" IS NOT NULL GROUP BY 1 ORDER BY 1',
  },
  {
    name: 'groupby nunique (Company, many groups)',
    series: "award_data.groupby('Company')['Agency'].nunique()",
    loop: "const k = award_data.array('Company'), c = award_data.array('Agency'); const m = new Map(); for (let i = 0; i < k.length; i++) if (k[i] != null && c[i] != null) { let s = m.get(k[i]); if (!s) m.set(k[i], (s = new Set())); s.add(c[i]); } [...m].map(([a, s]) => [a, s.size]).sort()",
    pandas: "df.groupby('Company')['Agency'].nunique()",
    sql: 'SELECT "Company", count(DISTINCT "Agency") FROM t WHERE "Company" IS NOT NULL GROUP BY 1 ORDER BY 1',
  },
  {
    name: 'groupby size (Company, Phase: many groups)',
    series: "award_data.groupby(['Company', 'Phase']).size()",
    loop: "const a = award_data.array('Company'), p = award_data.array('Phase'); const m = new Map(); for (let i = 0; i < a.length; i++) { if (a[i] == null || p[i] == null) continue; const k = a[i] + '\\u0000' + p[i]; m.set(k, (m.get(k) || 0) + 1); } [...m].sort()",
    pandas: "df.groupby(['Company', 'Phase']).size()",
    sql: 'SELECT "Company", "Phase", count(*) FROM t WHERE "Company" IS NOT NULL AND "Phase" IS NOT NULL GROUP BY 1, 2 ORDER BY 1, 2',
  },
  {
    name: 'pivot_table sum',
    series:
      "award_data.pivot_table({ index: 'Agency', columns: 'Phase', values: 'Award Amount', aggfunc: 'sum', fill_value: 0 })",
    loop: "const k = award_data.array('Agency'), p = award_data.array('Phase'), v = award_data.array('Award Amount'); const m = new Map(); for (let i = 0; i < k.length; i++) { if (k[i] == null || p[i] == null) continue; let r = m.get(k[i]); if (!r) m.set(k[i], (r = new Map())); r.set(p[i], (r.get(p[i]) || 0) + (v[i] ?? 0)); } [...m].sort()",
    pandas: "df.pivot_table(index='Agency', columns='Phase', values='Award Amount', aggfunc='sum', fill_value=0)",
    sql: `SELECT "Agency", coalesce(sum("Award Amount") FILTER (WHERE "Phase" = 'Phase I'), 0), coalesce(sum("Award Amount") FILTER (WHERE "Phase" = 'Phase II'), 0) FROM t WHERE "Agency" IS NOT NULL GROUP BY 1 ORDER BY 1`,
  },
  // more reductions
  {
    name: 'median',
    series: `${A}.median()`,
    loop: `${amt} const xs = Float64Array.from(v.filter((x) => x != null)).sort(); const h = (xs.length - 1) / 2; (xs[Math.floor(h)] + xs[Math.ceil(h)]) / 2`,
    pandas: "df['Award Amount'].median()",
    sql: 'SELECT median("Award Amount") FROM t',
  },
  {
    name: 'quantile [0.1, 0.9]',
    series: `${A}.quantile([0.1, 0.9]).tolist()`,
    loop: `${amt} const xs = Float64Array.from(v.filter((x) => x != null)).sort(); const q = (p) => { const h = (xs.length - 1) * p, lo = Math.floor(h); return xs[lo] + (h - lo) * ((xs[lo + 1] ?? xs[lo]) - xs[lo]); }; [q(0.1), q(0.9)]`,
    pandas: "df['Award Amount'].quantile([0.1, 0.9]).tolist()",
    sql: 'SELECT quantile_cont("Award Amount", [0.1, 0.9]) FROM t',
  },
  {
    name: 'idxmax',
    series: `${A}.idxmax()`,
    loop: `${amt} let b = -Infinity, p = -1; for (let i = 0; i < v.length; i++) if (v[i] != null && v[i] > b) { b = v[i]; p = i; } p`,
    pandas: "df['Award Amount'].idxmax()",
    sql: 'SELECT arg_max(rowid, "Award Amount") FROM t',
  },
  {
    name: 'corr (two columns)',
    series: "award_data.corr('Award Amount', 'Number Employees')",
    loop: "const a = award_data.array('Award Amount'), b = award_data.array('Number Employees'); let n = 0, sa = 0, sb = 0; for (let i = 0; i < a.length; i++) if (a[i] != null && b[i] != null) { n++; sa += a[i]; sb += b[i]; } const ma = sa / n, mb = sb / n; let c = 0, va = 0, vb = 0; for (let i = 0; i < a.length; i++) if (a[i] != null && b[i] != null) { const x = a[i] - ma, y = b[i] - mb; c += x * y; va += x * x; vb += y * y; } c / Math.sqrt(va * vb)",
    pandas: "df['Award Amount'].corr(df['Number Employees'])",
    sql: 'SELECT corr("Award Amount", "Number Employees") FROM t',
  },
  // missing values and element-wise arithmetic
  {
    name: 'isna sum',
    series: `${A}.isna().sum()`,
    loop: `${amt} let n = 0; for (let i = 0; i < v.length; i++) if (v[i] == null) n++; n`,
    pandas: "df['Award Amount'].isna().sum()",
    sql: 'SELECT count(*) - count("Award Amount") FROM t',
  },
  {
    name: 'fillna sum',
    series: `${A}.fillna(0).sum()`,
    loop: `${amt} const o = new Float64Array(v.length); for (let i = 0; i < v.length; i++) o[i] = v[i] ?? 0; let t = 0; for (let i = 0; i < o.length; i++) t += o[i]; t`,
    pandas: "df['Award Amount'].fillna(0).sum()",
    sql: 'SELECT sum(coalesce("Award Amount", 0)) FROM t',
  },
  {
    name: 'mul/add then sum',
    series: `${A}.mul(2).add(1).sum()`,
    loop: `${amt} const o = new Array(v.length); for (let i = 0; i < v.length; i++) o[i] = v[i] == null ? null : v[i] * 2 + 1; let t = 0; for (const x of o) if (x != null) t += x; t`,
    pandas: "(df['Award Amount'] * 2 + 1).sum()",
    sql: 'SELECT sum("Award Amount" * 2 + 1) FROM t',
  },
  {
    name: 'div by a column, mean',
    series: `${A}.div(award_data['Number Employees']).mean()`,
    loop: "const a = award_data.array('Award Amount'), b = award_data.array('Number Employees'); let t = 0, n = 0; for (let i = 0; i < a.length; i++) if (a[i] != null && b[i] != null) { const x = a[i] / b[i]; if (x === x) { t += x; n++; } } t / n",
    pandas: "(df['Award Amount'] / df['Number Employees']).mean()",
    sql: 'SELECT avg("Award Amount" / "Number Employees") FROM t',
  },
  {
    name: 'round nunique',
    series: `${A}.round(-3).nunique()`,
    loop: `${amt} const s = new Set(); for (const x of v) if (x != null) s.add(Math.round(x / 1000) * 1000); s.size`,
    pandas: "df['Award Amount'].round(-3).nunique()",
    sql: 'SELECT count(DISTINCT round("Award Amount", -3)) FROM t',
  },
  {
    name: 'clip mean',
    series: `${A}.clip(0, 1e6).mean()`,
    loop: `${amt} let t = 0, n = 0; for (const x of v) if (x != null) { t += Math.min(Math.max(x, 0), 1e6); n++; } t / n`,
    pandas: "df['Award Amount'].clip(0, 1e6).mean()",
    sql: 'SELECT avg(CASE WHEN "Award Amount" IS NOT NULL THEN least(greatest("Award Amount", 0), 1e6) END) FROM t',
  },
  {
    name: 'cumsum max',
    series: `${A}.cumsum().max()`,
    loop: `${amt} const o = new Array(v.length); let t = 0; for (let i = 0; i < v.length; i++) { if (v[i] != null) t += v[i]; o[i] = v[i] == null ? null : t; } let m = -Infinity; for (const x of o) if (x != null && x > m) m = x; m`,
    pandas: "df['Award Amount'].cumsum().max()",
    sql: 'SELECT max(s) FROM (SELECT sum("Award Amount") OVER (ORDER BY rowid ROWS UNBOUNDED PRECEDING) AS s FROM t)',
  },
  {
    name: 'diff abs sum',
    series: `${A}.diff().abs().sum()`,
    loop: `${amt} let t = 0; for (let i = 1; i < v.length; i++) if (v[i] != null && v[i - 1] != null) t += Math.abs(v[i] - v[i - 1]); t`,
    pandas: "df['Award Amount'].diff().abs().sum()",
    sql: 'SELECT sum(abs(d)) FROM (SELECT "Award Amount" - lag("Award Amount") OVER (ORDER BY rowid) AS d FROM t)',
  },
  {
    name: 'apply (function) sum',
    series: `${A}.apply((x) => x * 2).sum()`,
    loop: `${amt} const f = (x) => x * 2; let t = 0; for (const x of v) { const y = f(x); if (y != null && y === y) t += y; } t`,
    pandas: "df['Award Amount'].apply(lambda x: x * 2).sum()",
    sql: 'SELECT sum("Award Amount" * 2) FROM t',
  },
  {
    name: 'map (object) sum',
    series: "award_data.Phase.map({ 'Phase I': 1, 'Phase II': 2 }).sum()",
    loop: "const m = { 'Phase I': 1, 'Phase II': 2 }; let t = 0; for (const x of award_data.array('Phase')) if (x != null && m[x] !== undefined) t += m[x]; t",
    pandas: "df['Phase'].map({'Phase I': 1, 'Phase II': 2}).sum()",
    sql: `SELECT sum(CASE "Phase" WHEN 'Phase I' THEN 1 WHEN 'Phase II' THEN 2 END) FROM t`,
  },
  {
    name: 'dropna numRows',
    series: "award_data.dropna({ subset: ['Award Amount'] }).numRows()",
    loop: `${amt} let n = 0; for (const x of v) if (x != null) n++; n`,
    pandas: "len(df.dropna(subset=['Award Amount']))",
    sql: 'SELECT count("Award Amount") FROM t',
  },
  {
    name: 'table isna().sum() (42 columns)',
    series: 'award_data.isna().sum()',
    loop: 'const o = {}; for (const c of award_data.columnNames()) { let n = 0; for (const x of award_data.array(c)) if (x == null || x !== x) n++; o[c] = n; } o',
    pandas: 'df.isna().sum()',
    sql: null,
  },
  // distinct values
  {
    name: 'unique (Agency)',
    series: 'award_data.Agency.unique().length',
    loop: "const s = new Set(); for (const x of award_data.array('Agency')) s.add(x); s.size",
    pandas: "len(df['Agency'].unique())",
    sql: 'SELECT count(*) FROM (SELECT DISTINCT "Agency" FROM t)',
  },
  {
    name: 'mode (State)',
    series: 'award_data.State.mode()',
    loop: "const m = new Map(); for (const x of award_data.array('State')) if (x != null) m.set(x, (m.get(x) || 0) + 1); let b = 0; for (const c of m.values()) if (c > b) b = c; [...m].filter((e) => e[1] === b).map((e) => e[0]).sort()",
    pandas: "df['State'].mode().tolist()",
    sql: 'SELECT mode("State") FROM t',
  },
  {
    name: 'value_counts (Award Amount, numbers) head 5',
    series: `${A}.value_counts().head(5)`,
    loop: `${amt} const m = new Map(); for (const x of v) if (x != null) m.set(x, (m.get(x) || 0) + 1); [...m].sort((a, b) => b[1] - a[1]).slice(0, 5)`,
    pandas: "df['Award Amount'].value_counts().head(5)",
    sql: 'SELECT "Award Amount", count(*) AS n FROM t WHERE "Award Amount" IS NOT NULL GROUP BY 1 ORDER BY n DESC LIMIT 5',
  },
  {
    name: 'value_counts (2 columns)',
    series: "award_data.value_counts(['Agency', 'Phase'])",
    loop: "const a = award_data.array('Agency'), p = award_data.array('Phase'); const m = new Map(); for (let i = 0; i < a.length; i++) if (a[i] != null && p[i] != null) { const k = a[i] + '|' + p[i]; m.set(k, (m.get(k) || 0) + 1); } [...m].sort((x, y) => y[1] - x[1])",
    pandas: "df.value_counts(['Agency', 'Phase'])",
    sql: 'SELECT "Agency", "Phase", count(*) AS n FROM t WHERE "Agency" IS NOT NULL AND "Phase" IS NOT NULL GROUP BY 1, 2 ORDER BY n DESC',
  },
  {
    name: 'drop_duplicates (Company)',
    series: "award_data.drop_duplicates('Company').numRows()",
    loop: "const s = new Set(); for (const x of award_data.array('Company')) s.add(x); s.size",
    pandas: "len(df.drop_duplicates('Company'))",
    sql: 'SELECT count(*) FROM (SELECT DISTINCT "Company" FROM t)',
  },
  {
    name: 'describe (Agency, text)',
    series: 'award_data.Agency.describe()',
    loop: "const m = new Map(); let n = 0; for (const x of award_data.array('Agency')) if (x != null) { n++; m.set(x, (m.get(x) || 0) + 1); } let top = null, f = 0; for (const [k, c] of m) if (c > f) { top = k; f = c; } [n, m.size, top, f]",
    pandas: "df['Agency'].describe()",
    sql: 'SELECT count("Agency"), count(DISTINCT "Agency"), mode("Agency") FROM t',
  },
  // text and dates
  {
    name: 'str.split get(0) nunique (Company)',
    series: "award_data.Company.str.split(' ').str.get(0).nunique()",
    loop: "const s = new Set(); for (const x of award_data.array('Company')) if (x != null) s.add(x.split(' ')[0]); s.size",
    pandas: "df['Company'].str.split(' ').str.get(0).nunique()",
    sql: `SELECT count(DISTINCT split_part("Company", ' ', 1)) FROM t`,
  },
  {
    name: 'str.replace nunique (Company)',
    series: "award_data.Company.str.replace('Inc', 'Incorporated').nunique()",
    loop: "const s = new Set(); for (const x of award_data.array('Company')) if (x != null) s.add(x.replaceAll('Inc', 'Incorporated')); s.size",
    pandas: "df['Company'].str.replace('Inc', 'Incorporated', regex=False).nunique()",
    sql: `SELECT count(DISTINCT replace("Company", 'Inc', 'Incorporated')) FROM t`,
  },
  {
    name: 'str.upper nunique (Agency)',
    series: 'award_data.Agency.str.upper().nunique()',
    loop: "const s = new Set(); for (const x of award_data.array('Agency')) if (x != null) s.add(x.toUpperCase()); s.size",
    pandas: "df['Agency'].str.upper().nunique()",
    sql: 'SELECT count(DISTINCT upper("Agency")) FROM t',
  },
  {
    name: 'dt.year value_counts',
    series: "award_data['Proposal Award Date'].dt.year.value_counts()",
    loop: "const m = new Map(); for (const d of award_data.array('Proposal Award Date')) if (d != null) { const y = d.getUTCFullYear(); m.set(y, (m.get(y) || 0) + 1); } [...m].sort((a, b) => b[1] - a[1])",
    pandas: "df['Proposal Award Date'].dt.year.value_counts()",
    pandasSetup: "df['Proposal Award Date'] = pd.to_datetime(df['Proposal Award Date'], errors='coerce')",
    sql: 'SELECT year("Proposal Award Date") AS y, count(*) AS n FROM t WHERE y IS NOT NULL GROUP BY 1 ORDER BY n DESC',
  },
  {
    name: 'dt.month mean',
    series: "award_data['Proposal Award Date'].dt.month.mean()",
    loop: "let t = 0, n = 0; for (const d of award_data.array('Proposal Award Date')) if (d != null) { t += d.getUTCMonth() + 1; n++; } t / n",
    pandas: "df['Proposal Award Date'].dt.month.mean()",
    pandasSetup: "df['Proposal Award Date'] = pd.to_datetime(df['Proposal Award Date'], errors='coerce')",
    sql: 'SELECT avg(month("Proposal Award Date")) FROM t',
  },
  // more group-by, reshaping, queries
  {
    name: 'groupby nunique',
    series: "award_data.groupby('Agency')['Company'].nunique()",
    loop: "const k = award_data.array('Agency'), c = award_data.array('Company'); const m = new Map(); for (let i = 0; i < k.length; i++) if (k[i] != null && c[i] != null) { let s = m.get(k[i]); if (!s) m.set(k[i], (s = new Set())); s.add(c[i]); } [...m].map(([a, s]) => [a, s.size]).sort()",
    pandas: "df.groupby('Agency')['Company'].nunique()",
    sql: 'SELECT "Agency", count(DISTINCT "Company") FROM t WHERE "Agency" IS NOT NULL GROUP BY 1 ORDER BY 1',
  },
  {
    name: 'groupby median',
    series: "award_data.groupby('Agency')['Award Amount'].median()",
    loop: "const k = award_data.array('Agency'), v = award_data.array('Award Amount'); const m = new Map(); for (let i = 0; i < k.length; i++) if (k[i] != null && v[i] != null) { let a = m.get(k[i]); if (!a) m.set(k[i], (a = [])); a.push(v[i]); } [...m].map(([g, a]) => { const xs = Float64Array.from(a).sort(); const h = (xs.length - 1) / 2; return [g, (xs[Math.floor(h)] + xs[Math.ceil(h)]) / 2]; }).sort()",
    pandas: "df.groupby('Agency')['Award Amount'].median()",
    sql: 'SELECT "Agency", median("Award Amount") FROM t WHERE "Agency" IS NOT NULL GROUP BY 1 ORDER BY 1',
  },
  {
    name: 'groupby agg sum/std/median',
    series: "award_data.groupby('Agency').agg({ 'Award Amount': ['sum', 'std', 'median'] })",
    loop: "const k = award_data.array('Agency'), v = award_data.array('Award Amount'); const m = new Map(); for (let i = 0; i < k.length; i++) if (k[i] != null && v[i] != null) { let a = m.get(k[i]); if (!a) m.set(k[i], (a = [])); a.push(v[i]); } [...m].map(([g, a]) => { const xs = Float64Array.from(a).sort(); let t = 0; for (const x of xs) t += x; const mu = t / xs.length; let q = 0; for (const x of xs) q += (x - mu) ** 2; const h = (xs.length - 1) / 2; return [g, t, Math.sqrt(q / (xs.length - 1)), (xs[Math.floor(h)] + xs[Math.ceil(h)]) / 2]; }).sort()",
    pandas: "df.groupby('Agency')['Award Amount'].agg(['sum', 'std', 'median'])",
    sql: 'SELECT "Agency", sum("Award Amount"), stddev_samp("Award Amount"), median("Award Amount") FROM t WHERE "Agency" IS NOT NULL GROUP BY 1 ORDER BY 1',
  },
  {
    name: 'crosstab',
    series: "crosstab(award_data, 'Agency', 'Phase')",
    loop: "const k = award_data.array('Agency'), p = award_data.array('Phase'); const m = new Map(); for (let i = 0; i < k.length; i++) { if (k[i] == null || p[i] == null) continue; let r = m.get(k[i]); if (!r) m.set(k[i], (r = new Map())); r.set(p[i], (r.get(p[i]) || 0) + 1); } [...m].sort()",
    pandas: "pd.crosstab(df['Agency'], df['Phase'])",
    sql: `SELECT "Agency", count(*) FILTER (WHERE "Phase" = 'Phase I'), count(*) FILTER (WHERE "Phase" = 'Phase II') FROM t WHERE "Agency" IS NOT NULL GROUP BY 1 ORDER BY 1`,
  },
  {
    name: 'query numRows',
    series: 'award_data.query("Phase == \'Phase II\' and `Award Amount` >= 1e6").numRows()',
    loop: "const a = award_data.array('Award Amount'), p = award_data.array('Phase'); let n = 0; for (let i = 0; i < a.length; i++) if (p[i] === 'Phase II' && a[i] >= 1e6) n++; n",
    pandas: 'len(df.query("Phase == \'Phase II\' and `Award Amount` >= 1e6"))',
    sql: `SELECT count(*) FROM t WHERE "Phase" = 'Phase II' AND "Award Amount" >= 1e6`,
  },
  {
    name: 'sort_values by text head 10',
    series: "award_data.sort_values('Company').head(10)",
    loop: "const v = award_data.array('Company'); const idx = []; for (let i = 0; i < v.length; i++) if (v[i] != null) idx.push(i); idx.sort((a, b) => (v[a] < v[b] ? -1 : v[a] > v[b] ? 1 : a - b)).slice(0, 10)",
    pandas: "df.sort_values('Company').head(10)",
    sql: 'SELECT * FROM t ORDER BY "Company" NULLS LAST LIMIT 10',
  },
  // order
  {
    name: 'nlargest 10',
    series: `${A}.nlargest(10)`,
    loop: `${amt} const idx = []; for (let i = 0; i < v.length; i++) if (v[i] != null) idx.push(i); idx.sort((a, b) => v[b] - v[a]).slice(0, 10).map((i) => v[i])`,
    pandas: "df['Award Amount'].nlargest(10)",
    sql: 'SELECT "Award Amount" FROM t WHERE "Award Amount" IS NOT NULL ORDER BY 1 DESC LIMIT 10',
  },
  {
    name: 'sort_values head 10',
    series: "award_data.sort_values('Award Amount', { ascending: false }).head(10)",
    loop: `${amt} const idx = []; for (let i = 0; i < v.length; i++) if (v[i] != null) idx.push(i); idx.sort((a, b) => v[b] - v[a]).slice(0, 10)`,
    pandas: "df.sort_values('Award Amount', ascending=False).head(10)",
    sql: 'SELECT * FROM t ORDER BY "Award Amount" DESC NULLS LAST LIMIT 10',
  },
  {
    name: 'Series sort_values',
    series: `${A}.sort_values().length`,
    loop: `${amt} Float64Array.from(v.filter((x) => x != null)).sort().length`,
    pandas: "len(df['Award Amount'].sort_values())",
    sql: 'SELECT count(*) FROM (SELECT "Award Amount" FROM t ORDER BY 1 LIMIT 1000000000)',
  },
  {
    name: 'nsmallest 10',
    series: `${A}.nsmallest(10)`,
    loop: `${amt} const idx = []; for (let i = 0; i < v.length; i++) if (v[i] != null) idx.push(i); idx.sort((a, b) => v[a] - v[b]).slice(0, 10).map((i) => v[i])`,
    pandas: "df['Award Amount'].nsmallest(10)",
    sql: 'SELECT "Award Amount" FROM t WHERE "Award Amount" IS NOT NULL ORDER BY 1 LIMIT 10',
  },
  // issue 25's list, the forms pandas users write
  {
    name: 's[mask] sum (Series boolean indexing)',
    series: `const s = ${A}; s[s.gt(1e6)].sum()`,
    loop: `${amt} let t = 0; for (const x of v) if (x != null && x > 1e6) t += x; t`,
    pandas: "df['Award Amount'][df['Award Amount'] > 1e6].sum()",
    sql: 'SELECT sum("Award Amount") FROM t WHERE "Award Amount" > 1e6',
  },
  {
    name: 'groupby 2 keys size sort_values head 5',
    series: "award_data.groupby(['Agency', 'Phase']).size().sort_values({ ascending: false }).head(5)",
    loop: "const a = award_data.array('Agency'), p = award_data.array('Phase'); const m = new Map(); for (let i = 0; i < a.length; i++) { if (a[i] == null || p[i] == null) continue; const k = a[i] + '\\u0000' + p[i]; m.set(k, (m.get(k) || 0) + 1); } [...m].sort((x, y) => y[1] - x[1]).slice(0, 5)",
    pandas: "df.groupby(['Agency', 'Phase']).size().sort_values(ascending=False).head(5)",
    sql: 'SELECT "Agency", "Phase", count(*) AS n FROM t WHERE "Agency" IS NOT NULL AND "Phase" IS NOT NULL GROUP BY 1, 2 ORDER BY n DESC LIMIT 5',
  },
  {
    name: 'value_counts normalize (Phase)',
    series: 'award_data.Phase.value_counts({ normalize: true })',
    loop: "const m = new Map(); let n = 0; for (const x of award_data.array('Phase')) if (x != null) { m.set(x, (m.get(x) || 0) + 1); n++; } [...m].map(([k, c]) => [k, c / n]).sort((a, b) => b[1] - a[1])",
    pandas: "df['Phase'].value_counts(normalize=True)",
    sql: 'SELECT "Phase", count(*) / sum(count(*)) OVER () AS p FROM t WHERE "Phase" IS NOT NULL GROUP BY 1 ORDER BY p DESC',
  },
  // combine
  {
    name: 'merge (left, small right)',
    series:
      "const names = aq.table({ Agency: ['Department of Defense', 'National Aeronautics and Space Administration'], short: ['DOD', 'NASA'] }); merge(award_data.select('Agency', 'Award Amount'), names, { on: 'Agency', how: 'left' }).numRows()",
    loop: "const names = new Map([['Department of Defense', 'DOD'], ['National Aeronautics and Space Administration', 'NASA']]); const k = award_data.array('Agency'), v = award_data.array('Award Amount'); const o = new Array(k.length); for (let i = 0; i < k.length; i++) o[i] = [k[i], v[i], names.get(k[i]) ?? null]; o.length",
    pandas:
      "len(df[['Agency', 'Award Amount']].merge(pd.DataFrame({'Agency': ['Department of Defense', 'National Aeronautics and Space Administration'], 'short': ['DOD', 'NASA']}), on='Agency', how='left'))",
    sql: `SELECT count(*) FROM (SELECT t."Agency", t."Award Amount", n.short FROM t LEFT JOIN (VALUES ('Department of Defense', 'DOD'), ('National Aeronautics and Space Administration', 'NASA')) n("Agency", short) ON t."Agency" = n."Agency")`,
  },
  {
    name: 'concat two halves',
    series: 'concat([award_data.slice(0, 100000), award_data.slice(100000)]).numRows()',
    loop: "const a = award_data.array('Agency'); a.slice(0, 100000).concat(a.slice(100000)).length",
    pandas: 'len(pd.concat([df.iloc[:100000], df.iloc[100000:]]))',
    sql: 'SELECT count(*) FROM (SELECT * FROM (SELECT * FROM t LIMIT 100000) UNION ALL SELECT * FROM (SELECT * FROM t OFFSET 100000))',
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
 * and sizes an inner repeat so one measurement lasts ~50 ms; the figures are per evaluation. The
 * Series form's first value comes back when it is a number (checked against DuckDB's).
 */
const timedPair = (a, b, reps) => `let __sink = null;
  const __fa = () => { ${returning(a)}; }, __fb = () => { ${returning(b)}; };
  const __first = __fa();
  const __size = (f) => { let n = 0; const t = Date.now(); while (Date.now() - t < 20 && n < 2000) { __sink = f(); n++; } return Math.max(1, Math.ceil(n * 50 / Math.max(Date.now() - t, 1))); };
  const __na = Math.min(__size(__fa), 5000), __nb = Math.min(__size(__fb), 5000);
  const __run = (f, n) => { const t = Date.now(); for (let j = 0; j < n; j++) __sink = f(); return (Date.now() - t) / n; };
  const __ta = [], __tb = [];
  for (let __k = 0; __k < ${reps}; __k++) { __ta.push(__run(__fa, __na)); __tb.push(__run(__fb, __nb)); }
  [__ta, __tb, __sink !== undefined, typeof __first === 'number' ? __first : null]`;

/** Whether a Series answer (a number) and a DuckDB answer (one cell) agree to 1e-9 relative; null when not comparable. */
function agrees(mine, duck) {
  if (typeof mine !== 'number' || typeof duck !== 'number') return null;
  if (mine === duck) return true;
  return Math.abs(mine - duck) <= 1e-9 * Math.max(Math.abs(mine), Math.abs(duck));
}

/** The median ms of `reps` calls of `ask` after one warm-up call (the first call's value returned too). */
async function timedAsk(reps, ask) {
  const ms = [];
  let first;
  for (let i = 0; i < reps + 1; i++) {
    const { ms: t, value } = await ask();
    if (i === 0) first = value;
    else ms.push(t);
  }
  return { ms: median(ms), value: first };
}

/**
 * Each method's Series and loop medians (ms, inside the isolate), pandas' (ms, inside Python) and
 * DuckDB's (ms, `runAndReadAll` on the in-memory table of bench/lib/duckTable.mjs, result read into
 * JavaScript), in one session, one pandas worker and one DuckDB connection, method by method (so
 * the machine's load hits the engines alike). `onRow` sees each row as it is measured.
 */
export async function measureSeriesMethods({ box, pandas, duck, reps, methods = SERIES_METHODS, onRow = () => {} }) {
  const rows = [];
  const setupDone = new Set();
  for (const m of methods) {
    const r = await box.run(timedPair(m.series, m.loop, reps));
    if (!r.ok) throw new Error(`${m.name}: ${r.error?.message}`);
    let pandasMs = null;
    if (pandas && m.pandas) {
      if (m.pandasSetup && !setupDone.has(m.pandasSetup)) {
        const a = await pandas.ask(m.pandasSetup);
        if (!a.ok) throw new Error(`pandas setup ${m.name}: ${a.value}`);
        setupDone.add(m.pandasSetup);
      }
      pandasMs = (
        await timedAsk(reps, async () => {
          const a = await pandas.ask(m.pandas);
          if (!a.ok) throw new Error(`pandas ${m.name}: ${a.value}`);
          return { ms: a.computeMs, value: a.value };
        })
      ).ms;
    }
    let duckMs = null;
    let duckAgrees = null;
    if (duck && m.sql) {
      const d = await timedAsk(reps, async () => {
        const t = performance.now();
        const reader = await duck.db.runAndReadAll(m.sql);
        const rowsOut = reader.getRows();
        return {
          ms: performance.now() - t,
          value: rowsOut.length === 1 && rowsOut[0].length === 1 ? rowsOut[0][0] : null,
        };
      });
      duckMs = d.ms;
      duckAgrees = agrees(r.value[3], typeof d.value === 'bigint' ? Number(d.value) : d.value);
    }
    const row = {
      name: m.name,
      series: m.series,
      sql: m.sql ?? null,
      seriesMs: median(r.value[0]),
      loopMs: median(r.value[1]),
      pandasMs,
      duckMs,
      duckAgrees,
    };
    rows.push(row);
    onRow(row);
  }
  return rows;
}
