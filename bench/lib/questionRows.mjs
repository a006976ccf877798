// Issue 12: every warm question in every form (loop style, prelude, plain Arquero) against the
// pandas worker, with the geometric mean of the ratios; and DuckDB as the native reference.
// Reads the results of the warm, loop and verbs measures (whichever ran). Nothing here measures.

/** The issue's bar for one question-form: p50 <= this multiple of pandas'. */
export const PER_QUESTION_MAX = 0.5;
/** ... and for the geometric mean over all of them. */
export const GEOMEAN_MAX = 0.25;

const FORM = { js: 'prelude', aq: 'plain Arquero', loop: 'loop style' };
const ratio = (ours, base) => (ours && base && base.p50 > 0 ? ours.p50 / base.p50 : null);

/**
 * One row per question and form: { source, id, label, form, ours, pandas, ratio, met, agree }.
 * The trivial run has its own absolute target and is left out (its ratio is IPC against a
 * function call); the `fast` prototype of the warm measure is not a form a model writes.
 */
export function questionFormRows(r) {
  const rows = [];
  const push = (source, id, label, form, ours, pandas, agree) => {
    const x = ratio(ours, pandas);
    rows.push({
      source,
      id,
      label,
      form: FORM[form] ?? form,
      ours,
      pandas: pandas ?? null,
      ratio: x,
      met: x === null ? null : x <= PER_QUESTION_MAX,
      agree: agree ?? null,
    });
  };
  for (const [id, q] of Object.entries(r.warm?.questions ?? {})) {
    if (id === 'trivial') continue;
    for (const form of ['js', 'aq'])
      if (q.stats[`process.${form}`])
        push('warm', id, q.label, form, q.stats[`process.${form}`], q.stats.pandas, q.answersAgree);
  }
  for (const [id, q] of Object.entries(r.verbs?.questions ?? {})) {
    for (const form of ['js', 'aq'])
      if (q.stats?.[form]) push('verbs', id, q.label, form, q.stats[form], q.stats.pandas, q.answersAgree?.[form]);
  }
  for (const [id, q] of Object.entries(r.loop?.questions ?? {}))
    push('loop', id, q.label, 'loop', q.sbirtools, q.pandas, q.answersAgree);
  return rows;
}

/** Geometric mean of the rows' ratios (null without any). */
export function geomean(rows) {
  const xs = rows.map((x) => x.ratio).filter((x) => typeof x === 'number' && x > 0);
  return xs.length ? Math.exp(xs.reduce((a, x) => a + Math.log(x), 0) / xs.length) : null;
}

/** One row per DuckDB question and sbirtools form: { id, label, kind, form, ours, duckdb, ratio, agree }. */
export function duckdbRows(r) {
  const rows = [];
  for (const [id, q] of Object.entries(r.duckdb?.questions ?? {})) {
    for (const form of ['js', 'aq']) {
      if (!q.stats[form]) continue;
      // a `js` form that loops over .array() columns is the loop style, not the prelude
      const name = form === 'js' && /\.array\(/.test(q.js ?? '') ? FORM.loop : FORM[form];
      rows.push({
        id,
        label: q.label,
        kind: q.kind,
        form: name,
        ours: q.stats[form],
        duckdb: q.stats.duckdb,
        ratio: ratio(q.stats[form], q.stats.duckdb),
        agree: q.answersAgree?.[form] ?? null,
      });
    }
  }
  return rows;
}
