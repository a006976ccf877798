import type { RunResult, TableResult } from '../../schema/result.js';
import { renderChartIsolated } from '../sandbox/charts.js';
import type { CapsuleChart, CapsuleOutputs, CapsuleTable } from './capsuleOutputs.js';
import { fitOutputs } from './fitOutputs.js';

/** Default byte cap of one record's outputs (JSON). */
export const DEFAULT_OUTPUTS_MAX_BYTES = 256 * 1024;
/** Most table rows a record keeps (before the byte cap). */
export const CAPSULE_TABLE_ROWS = 1000;

function table(t: TableResult): CapsuleTable {
  const rows = t.rows.slice(0, CAPSULE_TABLE_ROWS);
  return {
    columns: t.columns,
    dtypes: t.dtypes,
    rows,
    totalRows: t.totalRows,
    truncated: t.truncated || rows.length < t.rows.length,
  };
}

async function chart(c: NonNullable<RunResult['charts']>[number]): Promise<CapsuleChart> {
  const base = { kind: c.kind, ...(c.title !== undefined ? { title: c.title } : {}), spec: c.spec };
  try {
    return { ...base, svg: await renderChartIsolated(c) };
  } catch (err) {
    return { ...base, svgError: (err as Error).message };
  }
}

/**
 * The outputs of a run as a capsule record keeps them: stdout, value, tables (first rows plus
 * shape), charts with their host-rendered SVG, the error; cut to `maxBytes` (see fitOutputs).
 * @default maxBytes DEFAULT_OUTPUTS_MAX_BYTES (256 KiB)
 * @example record.outputs = await recordOutputs(result);
 */
export async function recordOutputs(result: RunResult, maxBytes = DEFAULT_OUTPUTS_MAX_BYTES): Promise<CapsuleOutputs> {
  const outputs: CapsuleOutputs = {
    stdout: result.stdout,
    ...(result.stderr ? { stderr: result.stderr } : {}),
    ...(result.valueText !== undefined ? { valueText: result.valueText } : {}),
    ...(result.value !== undefined ? { value: result.value } : {}),
    ...(result.table ? { table: table(result.table) } : {}),
    ...(result.displays?.length ? { displays: result.displays.map(table) } : {}),
    ...(result.charts?.length ? { charts: await Promise.all(result.charts.map(chart)) } : {}),
    ...(result.error ? { error: result.error } : {}),
    truncated: result.truncated,
  };
  return fitOutputs(outputs, maxBytes);
}
