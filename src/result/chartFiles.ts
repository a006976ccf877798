import type { RunResult } from '../../schema/result.js';
import { isSafeFileName } from '../../schema/fileName.js';
import { renderChartIsolated } from './renderChartIsolated.js';

/**
 * Whether `result` has a chart that save_chart() marked for a file (what addChartFiles renders):
 * a run without one skips addChartFiles' promise on the reply's path.
 * @example if (marksChartFiles(result)) result = await addChartFiles(result)
 */
export function marksChartFiles(result: RunResult): boolean {
  return result.charts?.some((c) => typeof c.file === 'string') ?? false;
}

/**
 * Renders the charts that save_chart() marked (`chart.file`) to SVG and adds them to
 * `result.files`, within the run's `maxFileBytes` together with the files already saved. A chart
 * that cannot be rendered or does not fit is reported on stderr, not as a failed run.
 * @example await addChartFiles(result)
 */
export async function addChartFiles(result: RunResult): Promise<RunResult> {
  const marked = (result.charts ?? []).filter((c) => typeof c.file === 'string');
  if (!marked.length) return result;
  const files = [...(result.files ?? [])];
  let used = files.reduce((n, f) => n + f.size, 0);
  const notes: string[] = [];
  for (const c of marked) {
    const name = c.file!;
    if (!isSafeFileName(name)) {
      notes.push(`save_chart: invalid file name ${JSON.stringify(name)}`);
      continue;
    }
    let svg: Uint8Array;
    try {
      // drawn in the chart process: a guest spec must not stall or exhaust the host (renderChartIsolated)
      svg = new TextEncoder().encode(await renderChartIsolated(c));
    } catch (err) {
      notes.push(`save_chart: ${name} could not be rendered as SVG: ${(err as Error).message}`);
      continue;
    }
    const at = files.findIndex((f) => f.name === name);
    const previous = at >= 0 ? files[at]!.size : 0;
    if (used - previous + svg.byteLength > result.limits.maxFileBytes) {
      notes.push(
        `save_chart: ${name} (${svg.byteLength} bytes) would pass this run's limit of ${result.limits.maxFileBytes} bytes of files`,
      );
      continue;
    }
    used += svg.byteLength - previous;
    if (at >= 0) files.splice(at, 1);
    files.push({ name, mediaType: 'image/svg+xml', size: svg.byteLength, bytes: svg });
  }
  return { ...result, files, ...(notes.length ? { stderr: `${result.stderr}${notes.join('\n')}\n` } : {}) };
}
