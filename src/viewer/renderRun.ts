import type { CapsuleChart, CapsuleOutputs } from '../capsule/capsuleOutputs.js';
import type { CapsuleRecord } from '../capsule/capsuleRecord.js';
import { renderChartIsolated } from '../sandbox/charts.js';
import { clipText } from './clip.js';
import { html, trusted, type SafeHtml } from './html.js';
import type { LogEntry } from './logSource.js';
import { errorNote, renderCode } from './renderCode.js';
import { renderTable } from './renderTable.js';
import { sanitizeSvg } from './sanitizeSvg.js';

/** How a run is drawn: `live` may add the replay button; `report` is the static notebook cell. */
export interface RunRenderOptions {
  mode: 'live' | 'report';
  /** Show the Replay button (live only). @default true */
  replay?: boolean;
}

async function chartFigure(c: CapsuleChart, id: string): Promise<SafeHtml> {
  let svg = c.svg;
  let problem = c.svgError;
  if (svg === undefined && c.spec && !problem) {
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
    if (clean === null && svg !== undefined) problem = 'The chart\'s SVG had nothing drawable left after sanitizing.';
  } catch (err) {
    problem = (err as Error).message; // no sanitizer here (jsdom missing): never inline an unsanitized SVG
  }
  return html`<figure class="sb-chart">${clean ? trusted(clean) : html`<div class="sb-note">Chart not shown: ${problem ?? 'no SVG in the record'}</div>`}${c.title ? html`<figcaption>${c.title}</figcaption>` : ''}</figure>`;
}

function textBlock(label: string, text: string | undefined, cls: string): SafeHtml | string {
  if (!text) return '';
  return html`<div class="sb-out"><div class="sb-label">${label}</div><pre class="${cls}">${clipText(text)}</pre></div>`;
}

async function outputsOf(o: CapsuleOutputs, id: string, rec: CapsuleRecord): Promise<SafeHtml> {
  const charts = await Promise.all((o.charts ?? []).slice(0, 50).map((c, i) => chartFigure(c, `${id}c${i}`)));
  const tables = [...(o.displays ?? []).map((t, i) => renderTable(t, `display() ${i + 1}`)), ...(o.table ? [renderTable(o.table, 'Returned table')] : [])];
  const notes = [
    o.truncated.stdout && 'The run\'s own output limit cut stdout.',
    o.truncated.value && 'The run\'s own result limit cut the value.',
    o.cut && `The capsule log cut these outputs to ${o.cut.maxBytes.toLocaleString('en-US')} bytes (from ${o.cut.originalBytes.toLocaleString('en-US')}): ${o.cut.fields.join(', ')}.`,
  ].filter(Boolean);
  // an error with a line is shown at its line in the code; one without a line comes here
  const error = o.error && !o.error.line && !o.error.violations?.length ? errorNote(o.error) : '';
  return html`${error}${textBlock('stdout', o.stdout, 'sb-stdout')}${textBlock('stderr', o.stderr, 'sb-stderr')}${tables}${charts}${!o.table ? textBlock('value', o.valueText, 'sb-value') : ''}${notes.map((n) => html`<div class="sb-note">${n}</div>`)}${!rec.result.ok && !o.error ? html`<div class="sb-note">The run failed (${rec.result.errorType ?? 'error'}).</div>` : ''}`;
}

function header(e: LogEntry & { record: CapsuleRecord }, options: RunRenderOptions): SafeHtml {
  const r = e.record;
  const ok = r.result.ok;
  const data = r.dataset;
  return html`<header class="sb-run-head">
<span class="sb-seq">${r.session ? `[${r.session.seq}]` : '[·]'}</span>
<span class="sb-badge ${ok ? 'sb-ok' : 'sb-bad'}">${ok ? 'ok' : r.result.errorType ?? 'error'}</span>
<time datetime="${r.time}">${r.time.replace('T', ' ').replace(/\.\d+Z$/, ' UTC')}</time>
<span class="sb-stats" title="wall-clock ms, CPU ms, heap used MB">${r.stats.wallMs.toFixed(0)} ms wall · ${r.stats.cpuMs.toFixed(0)} ms CPU · ${r.stats.heapUsedMb.toFixed(1)} MB heap</span>
${data?.synthetic ? html`<span class="sb-badge sb-synth" title="award_data was the generated sample, not real SBIR awards">SYNTHETIC data</span>` : data ? html`<span class="sb-data" title="${data.identity}">${data.name}: ${data.rows.toLocaleString('en-US')} rows</span>` : ''}
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
  if (!e.record) return html`<article class="sb-run sb-problem" data-line="${e.line}"><div class="sb-note">${e.problem ?? `Line ${e.line} is unreadable.`}</div></article>`;
  const rec = e.record;
  const id = `r${e.line}`;
  const o = rec.outputs;
  const body = o
    ? await outputsOf(o, id, rec)
    : html`<div class="sb-note">No outputs in this record: it was logged without outputs (--capsule-outputs). Replay re-runs it.</div>`;
  return html`<article class="sb-run" id="${id}" data-line="${e.line}" data-session="${rec.session?.id ?? ''}">
${header({ ...e, record: rec }, options)}
${renderCode(rec.code, o?.error?.line || o?.error?.violations?.length ? o.error : undefined)}
<div class="sb-outputs">${body}</div>
</article>`;
}
