// Markdown for the model-code styles measure (bench/measures/modelStyles.mjs): one row per
// question with each style's warm and first-run ratio to pandas, then one row per style with the
// geometric means, the worst question and the counts against issue 25's targets.

/** Issue 25 item 1's targets: warm geo-mean and worst question, first-run geo-mean and worst. */
export const STYLE_TARGETS = { warmGeomean: 0.15, warmWorst: 0.5, firstGeomean: 0.35, firstWorst: 1 };

const n3 = (x) => (x === null || x === undefined ? '—' : x >= 10 ? x.toFixed(1) : x >= 1 ? x.toFixed(2) : x.toFixed(3));
const ms = (x) =>
  x === null || x === undefined ? '—' : x >= 100 ? `${Math.round(x)}` : x >= 10 ? x.toFixed(1) : x.toFixed(2);
const row = (cells) => `| ${cells.join(' | ')} |`;

/** The per-question table and the per-style summary, or '' when the measure did not run. */
export function modelStylesTables(r) {
  const m = r?.styles;
  if (!m?.questions) return '';
  const styles = Object.keys(m.summary).filter((s) => s !== 'all');
  const head = [
    row(['question', 'pandas ms', ...styles.flatMap((s) => [`${s} warm`, `${s} first`])]),
    `|---|--:|${styles.map(() => '--:|--:|').join('')}`,
  ];
  const cell = (ratio, t) => (ratio === null || ratio === undefined ? '—' : `${n3(ratio)}x (${ms(t)})`);
  const body = Object.entries(m.questions).map(([id, q]) =>
    row([
      `${q.label} (\`${id}\`)`,
      ms(q.pandas?.p50),
      ...styles.flatMap((s) => {
        const e = q.styles[s] ?? {};
        const bad = e.agree === false ? ' **answer differs**' : '';
        return [cell(e.ratio, e.warm?.p50) + bad, cell(e.firstRatio, e.firstMs)];
      }),
    ]),
  );
  const t = STYLE_TARGETS;
  const met = (ok) => (ok ? 'met' : '**not met**');
  const summary = [
    row([
      'style',
      'warm geo-mean',
      'worst warm',
      'warm > 0.5x',
      'first-run geo-mean',
      'worst first run',
      'first run > pandas',
      'answers',
    ]),
    '|---|--:|---|--:|--:|---|--:|---|',
    ...[...styles, 'all'].map((s) => {
      const x = m.summary[s];
      const worst = (w) => (w ? `${n3(w.ratio)}x \`${w.id}\`` : '—');
      return row([
        s === 'all' ? `**all ${m.summary.all.programs} programs**` : s,
        `${n3(x.warmGeomean)}x`,
        worst(x.warmWorst),
        String(x.warmAboveHalf),
        `${n3(x.firstGeomean)}x`,
        worst(x.firstWorst),
        String(x.firstSlowerThanPandas),
        x.agree === undefined ? '' : x.agree ? 'all agree with pandas' : '**some differ**',
      ]);
    }),
  ];
  const all = m.summary.all;
  const targets = [
    `Targets (issue 25): warm geo-mean <= ${t.warmGeomean}x (${met(all.warmGeomean <= t.warmGeomean)}: ${n3(all.warmGeomean)}x), no question above ${t.warmWorst}x (${met(all.warmAboveHalf === 0)}: ${all.warmAboveHalf} above), first-run geo-mean <= ${t.firstGeomean}x (${met(all.firstGeomean <= t.firstGeomean)}: ${n3(all.firstGeomean)}x), none slower than pandas on its first run (${met(all.firstSlowerThanPandas === 0)}: ${all.firstSlowerThanPandas} slower).`,
  ];
  return [...summary, '', ...targets, '', ...head, ...body].join('\n');
}
