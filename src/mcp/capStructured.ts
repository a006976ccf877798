import type { RunResult, TableResult } from '../../schema/result.js';

type Structured = Omit<RunResult, 'files'> & {
  files?: Array<Omit<NonNullable<RunResult['files']>[number], 'bytes'>>;
  cut?: string[];
};

const size = (v: unknown) => JSON.stringify(v).length;

/**
 * The structured result within `maxChars` characters of JSON: what fits is returned as it is;
 * otherwise, in this order until it fits, table rows are dropped from the end (the shape and
 * `totalRows` stay, `truncated` is set), the charts' inline specs, a non-table value, and the
 * middle of stdout/stderr. `cut` lists each step, so a program knows the result is partial.
 * @example capStructured(result, 262144).cut // ['award_data: 120 of 5000 rows kept ...']
 */
export function capStructured(result: Structured, maxChars: number): Structured {
  if (size(result) <= maxChars) return result;
  const cut: string[] = [];
  // `cut` is part of what is measured: its own lines count against the cap
  const out: Structured = { ...result, cut };
  const tables: Array<'table' | number> = [
    ...(out.table ? ['table' as const] : []),
    ...(out.displays ?? []).map((_, i) => i),
  ];
  if (tables.length) {
    out.displays = out.displays ? [...out.displays] : undefined;
    const get = (k: 'table' | number) => (k === 'table' ? out.table! : out.displays![k]!);
    const set = (k: 'table' | number, t: TableResult) => (k === 'table' ? (out.table = t) : (out.displays![k] = t));
    // the rows (and their Markdown) are what grows: keep the same fraction of each table's rows,
    // halving until it fits
    const full = tables.map((k) => get(k));
    for (let keep = 0.5; size(out) > maxChars && full.some((t) => t.rows.length > 0); keep /= 2) {
      tables.forEach((k, i) => {
        const t = full[i]!;
        const n = keep < 1 / 1024 ? 0 : Math.floor(t.rows.length * keep);
        set(k, {
          ...t,
          rows: t.rows.slice(0, n),
          truncated: true,
          markdown: `(${n} of ${t.totalRows} rows kept in the structured result; the text content shows the first rows)`,
        });
      });
    }
    tables.forEach((k, i) => {
      const t = get(k);
      if (t.rows.length < full[i]!.rows.length)
        cut.push(
          `${k === 'table' ? 'The returned table' : `display table ${k + 1}`}: ${t.rows.length} of ${full[i]!.totalRows} rows kept (cap ${maxChars} characters); return fewer rows, page with row_offset, or save it with to_parquet() and read the file.`,
        );
    });
  }
  if (size(out) > maxChars && out.charts?.length) {
    out.charts = out.charts.map((c) => ({ ...c, spec: {} }));
    cut.push('Chart specs were left out (their inline data was too large); save_chart() returns each as an SVG file.');
  }
  if (size(out) > maxChars && out.value !== undefined && !out.table) {
    out.value = undefined;
    cut.push(
      'The value was left out (too large); valueText holds its text, cut to fit. Return an aggregate or .slice() of it.',
    );
  }
  for (const key of ['valueText', 'stdout', 'stderr'] as const) {
    const text = out[key];
    const over = size(out) - maxChars;
    if (over <= 0 || !text) continue;
    // room for the marker and this step's line in `cut`
    const keep = Math.max(0, text.length - over - 300);
    out[key] =
      `${text.slice(0, Math.ceil(keep / 2))}\n… [${text.length - keep} characters cut] …\n${text.slice(text.length - Math.floor(keep / 2))}`;
    cut.push(`${key}: ${text.length - keep} of ${text.length} characters cut from the middle.`);
  }
  return out;
}
