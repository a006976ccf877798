import type { IngestReport } from './report.js';

type Issues = IngestReport['invalidCells'];

/** Examples kept per column (IssueLog's cap). */
const MAX_EXAMPLES = 5;

/**
 * The invalid cells of a file read in two parts, as one pass would list them: columns in the
 * order they first failed, counts summed, the first examples kept, and the later part's record
 * numbers shifted by the earlier part's `rowsBefore`.
 * @example joinIssues(first.issues.list(), second.invalidCells, first.rows)
 */
export function joinIssues(first: Issues, later: Issues, rowsBefore: number): Issues {
  const byColumn = new Map(first.map((e) => [e.column, { ...e, examples: [...e.examples] }]));
  for (const e of later) {
    const shifted = e.examples.map((x) => ({ record: x.record + rowsBefore, value: x.value }));
    const had = byColumn.get(e.column);
    if (!had) byColumn.set(e.column, { ...e, examples: shifted });
    else {
      had.count += e.count;
      had.examples.push(...shifted.slice(0, MAX_EXAMPLES - had.examples.length));
    }
  }
  return [...byColumn.values()];
}
