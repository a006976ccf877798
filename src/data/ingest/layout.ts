import { SBIR_COLUMNS, sbirColumnForHeader, type SbirColumnSpec } from '../../../schema/sbirColumns.js';
import type { IngestReport } from './report.js';

/** How one column of the file is read: by an SBIR spec, as an extra string, or inferred. */
export interface ColumnPlan {
  name: string;
  mode: 'sbir' | 'extra' | 'infer';
  spec?: SbirColumnSpec;
}

/** The plan for a whole header. */
export interface HeaderPlan {
  layout: IngestReport['layout'];
  columns: ColumnPlan[];
  unknownColumns: string[];
  missingColumns: string[];
  renamedColumns: IngestReport['renamedColumns'];
}

/** A header naming at least this many SBIR columns is an SBIR award file. */
const SBIR_MIN_MATCHES = 20;

/**
 * Classifies a header: 'current' (SBIR, current names), 'legacy' (SBIR with a legacy alias or
 * without `UEI`), or 'custom'. Blank names become `column_<n>`; duplicates get `_2`, `_3`.
 * @example planHeader(['Company', 'Women Owned', ...]).layout // 'legacy'
 */
export function planHeader(header: string[], forceCustom = false): HeaderPlan {
  const renamedColumns: IngestReport['renamedColumns'] = [];
  const seen = new Set<string>();
  const matched = new Set<SbirColumnSpec>();
  const raw = header.map((h) => {
    const spec = sbirColumnForHeader(h);
    if (spec && !matched.has(spec)) {
      matched.add(spec);
      return { name: h, spec };
    }
    return { name: h, spec: undefined };
  });
  const sbir = !forceCustom && matched.size >= SBIR_MIN_MATCHES;
  const columns: ColumnPlan[] = raw.map(({ name, spec }, i) => {
    let final = sbir && spec ? spec.name : name.trim() === '' ? `column_${i + 1}` : name;
    for (let k = 2; seen.has(final); k++) final = `${name}_${k}`;
    seen.add(final);
    if (final !== name) renamedColumns.push({ from: name, to: final });
    if (!sbir) return { name: final, mode: 'infer' };
    return spec ? { name: final, mode: 'sbir', spec } : { name: final, mode: 'extra' };
  });
  if (!sbir) return { layout: 'custom', columns, unknownColumns: [], missingColumns: [], renamedColumns };
  const usedAlias = raw.some(
    ({ name, spec }) => spec && spec.aliases.some((a) => a.toLowerCase() === name.trim().toLowerCase()),
  );
  const layout = usedAlias || !matched.has(SBIR_COLUMNS.find((s) => s.name === 'UEI')!) ? 'legacy' : 'current';
  return {
    layout,
    columns,
    unknownColumns: columns.filter((c) => c.mode === 'extra').map((c) => c.name),
    missingColumns: SBIR_COLUMNS.filter((s) => s.layouts.includes(layout) && !matched.has(s)).map((s) => s.name),
    renamedColumns,
  };
}
