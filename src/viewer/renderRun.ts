import type { CapsuleChart, CapsuleOutputs } from '../capsule/capsuleOutputs.js';
import type { CapsuleRecord } from '../capsule/capsuleRecord.js';
import { renderChartIsolated } from '../sandbox/charts.js';
import { clipText } from './clip.js';
import { html, trusted, type SafeHtml } from './html.js';
import type { LogEntry } from './logSource.js';
import { errorNote, renderCode } from './renderCode.js';
import { LIVE_LIMITS, REPORT_LIMITS, type RenderLimits, type TextField } from './renderLimits.js';
import { renderTable } from './renderTable.js';
import { sanitizeSvg } from './sanitizeSvg.js';

/** How a run is drawn: `live` may add the replay button; `report` is the static notebook cell. */
export interface RunRenderOptions {
  mode: 'live' | 'report';
  /** Show the Replay button (live only). @default true */
  replay?: boolean;
  /** Bounds of each part of the cell. @default LIVE_LIMITS, or REPORT_LIMITS for a report */
  limits?: RenderLimits;
  /** The way to the full text of a cut field of the run on log line `line` (a link, or a command). */
  more?: (line: number, field: TextField) => SafeHtml | string;
}

async function chartFigure(c: CapsuleChart, id: string, maxSvgBytes: number): Promise<SafeHtml> {
  let svg = c.svg;
  let problem = c.svgError;
  if (svg !== undefined && svg.length > maxSvgBytes) {
    problem = `its SVG (${svg.length.toLocaleString('en-US')} characters) is over this page's bound of ${maxSvgBytes.toLocaleString('en-US')}; the chart's spec is in the log`;
    svg = undefined;
  }
  if (svg === undefined && c.spec && !problem && c.svg === undefined) {
    // a record without an SVG (older viewer, or cut): draw it now from the spec, on the host
    try {
      svg = await renderChartIsolated({ kind: c.kind, spec: c.spec });
    } catch (err) {
      problem = (err as Error).message;
    }
  }
  let clean: string | null = null;
  try {
    clean = svg === undefined ? null : await sanitizeSvg(svg, `${id}-`);
    if (clean === null && svg !== undefined) problem = "The chart's SVG had nothing drawable left after sanitizing.";
  } catch (err) {
    problem = (err as Error).message; // no sanitizer here (jsdom missing): never inline an unsanitized SVG
  }
  return html`<figure class="sb-chart">${clean ? trusted(clean) : html`<div class="sb-note">Chart not shown: ${problem ?? 'no SVG in the record'}</div>`}${c.title ? html`<figcaption>${c.title}</figcaption>` : ''}</figure>`;
}

function textBlock(
  label: string,
  text: string | undefined,
  cls: string,
  max: number,
  more: SafeHtml | string,
): SafeHtml | string {
  if (!text) return '';
  return html`<div class="sb-out"><div class="sb-label">${label}</div><pre class="${cls}">${clipText(text, max, more)}</pre></div>`;
}

async function outputsOf(
  o: CapsuleOutputs,
  id: string,
  rec: CapsuleRecord,
  limits: RenderLimits,
  more: (field: TextField) => SafeHtml | string,
): Promise<SafeHtml> {
  const allCharts = o.charts ?? [];
  const charts = allCharts.slice(0, limits.charts);
  const allTables = [
    ...(o.displays ?? []).map((t, i) => [t, `display() ${i + 1}`] as const),
    ...(o.table ? [[o.table, 'Returned table'] as const] : []),
  ];
  // the returned table first among those kept: it is the run's answer
  const keptTables =
    allTables.length > limits.tables ? [...allTables.slice(-1), ...allTables.slice(0, limits.tables - 1)] : allTables;
  const notes = [
    o.truncated.stdout && "The run's own output limit cut stdout.",
    o.truncated.value && "The run's own result limit cut the value.",
    o.cut &&
      `The capsule log cut these outputs to ${o.cut.maxBytes.toLocaleString('en-US')} bytes (from ${o.cut.originalBytes.toLocaleString('en-US')}): ${o.cut.fields.slice(0, 20).join(', ').slice(0, 2000)}.`,
    allTables.length > keptTables.length &&
      `${allTables.length - keptTables.length} more tables not shown (at most ${limits.tables} per run on this page).`,
    allCharts.length > charts.length &&
      `${allCharts.length - charts.length} more charts not shown (at most ${limits.charts} per run on this page).`,
  ].filter(Boolean);
  // an error with a line is shown at its line in the code; one without a line comes here
  const error =
    o.error && !o.error.line && !o.error.violations?.length
      ? errorNote(o.error, limits.messageChars, more('error'))
      : '';
  // the parts in reading order, each drawn only while the run's bound has room (a chart is not
  // even sanitized once the bound is spent); the rest is counted in a note
  type Part = () => SafeHtml | string | Promise<SafeHtml | string>;
  const parts: Part[] = [
    ...(error ? [() => error] : []),
    ...(o.stdout ? [() => textBlock('stdout', o.stdout, 'sb-stdout', limits.textChars, more('stdout'))] : []),
    ...(o.stderr ? [() => textBlock('stderr', o.stderr, 'sb-stderr', limits.textChars, more('stderr'))] : []),
    ...keptTables.map(
      ([t, caption]): Part =>
        () =>
          renderTable(t, caption, limits.tableChars),
    ),
    ...charts.map(
      (c, i): Part =>
        () =>
          chartFigure(c, `${id}c${i}`, limits.svgBytes),
    ),
    ...(!o.table && o.valueText
      ? [() => textBlock('value', o.valueText, 'sb-value', limits.textChars, more('value'))]
      : []),
  ];
  const kept: SafeHtml[] = [];
  let bytes = 0;
  let left = 0;
  for (const part of parts) {
    if (bytes >= limits.runBytes) {
      left++;
      continue;
    }
    const p = await part();
    const size = typeof p === 'string' ? p.length : p.value.length;
    if (bytes + size > limits.runBytes) {
      left++;
      bytes = limits.runBytes; // keep the reading order: nothing after a part that did not fit
      continue;
    }
    bytes += size;
    kept.push(typeof p === 'string' ? html`${p}` : p);
  }
  if (left)
    notes.push(
      `${left} more output${left === 1 ? '' : 's'} of this run not shown: they would pass this page's bound of ${limits.runBytes.toLocaleString('en-US')} bytes per run.`,
    );
  return html`${kept}${notes.map((n) => html`<div class="sb-note">${n}</div>`)}${!rec.result.ok && !o.error ? html`<div class="sb-note">The run failed (${(rec.result.errorType ?? 'error').slice(0, 100)}).</div>` : ''}`;
}

function header(e: LogEntry & { record: CapsuleRecord }, options: RunRenderOptions): SafeHtml {
  const r = e.record;
  const ok = r.result.ok;
  const data = r.dataset;
  return html`<header class="sb-run-head">
<span class="sb-seq">${r.session ? `[${r.session.seq}]` : '[·]'}</span>
<span class="sb-badge ${ok ? 'sb-ok' : 'sb-bad'}">${ok ? 'ok' : (r.result.errorType ?? 'error').slice(0, 100)}</span>
<time datetime="${r.time}">${r.time.replace('T', ' ').replace(/\.\d+Z$/, ' UTC')}</time>
<span class="sb-stats" title="wall-clock ms, CPU ms, heap used MB">${r.stats.wallMs.toFixed(0)} ms wall · ${r.stats.cpuMs.toFixed(0)} ms CPU · ${r.stats.heapUsedMb.toFixed(1)} MB heap</span>
${data?.synthetic ? html`<span class="sb-badge sb-synth" title="award_data was the generated sample, not real SBIR awards">SYNTHETIC data</span>` : data ? html`<span class="sb-data" title="${data.identity.slice(0, 300)}">${data.name.slice(0, 200)}: ${data.rows.toLocaleString('en-US')} rows</span>` : ''}
<span class="sb-line">log line ${e.line}</span>
${options.mode === 'live' && options.replay !== false ? html`<button type="button" class="sb-replay" data-line="${e.line}">Replay</button><output class="sb-replay-out" aria-live="polite"></output>` : ''}
</header>`;
}

/**
 * One run as a notebook cell: header (status, time, stats, data label), the highlighted code with
 * the error at its line, then its outputs (error, stdout, tables, charts, value). Every string from
 * the log is escaped and every SVG sanitized.
 * @example await renderRun(entry, { mode: 'report' })
 */
export async function renderRun(e: LogEntry, options: RunRenderOptions): Promise<SafeHtml> {
  if (!e.record)
    return html`<article class="sb-run sb-problem" data-line="${e.line}"><div class="sb-note">${e.problem ?? `Line ${e.line} is unreadable.`}</div></article>`;
  const rec = e.record;
  const id = `r${e.line}`;
  const o = rec.outputs;
  const limits = options.limits ?? (options.mode === 'report' ? REPORT_LIMITS : LIVE_LIMITS);
  const more = (field: TextField) => options.more?.(e.line, field) ?? '';
  const body = o
    ? await outputsOf(o, id, rec, limits, more)
    : html`<div class="sb-note">No outputs in this record: it was logged without outputs (--capsule-outputs). Replay re-runs it.</div>`;
  return html`<article class="sb-run" id="${id}" data-line="${e.line}" data-session="${(rec.session?.id ?? '').slice(0, 200)}">
${header({ ...e, record: rec }, options)}
${renderCode(rec.code, o?.error?.line || o?.error?.violations?.length ? o.error : undefined, limits, more('code'))}
<div class="sb-outputs">${body}</div>
</article>`;
}
