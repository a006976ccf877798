import type { ColumnData } from '../../../schema/columnar.js';
import { Float64Builder } from './float64Builder.js';
import { InferBuilder } from './inferBuilder.js';
import type { ColumnPlan } from './layout.js';
import type { PartColumn, PartDecision, PartSummary } from './partColumn.js';
import type { IssueLog } from './report.js';
import { Utf8Builder } from './utf8Builder.js';

/** What the ingest loop needs from any column builder. */
export interface ColumnBuilder {
  add(buf: Buffer, s: number, e: number, flags: number): void;
  addNull(): void;
  finish(): ColumnData;
  /** What this part of the file saw of the column (partColumn.ts). */
  summary(): PartSummary;
  /** How the whole column is stored, from every part's summary (this builder's among them). */
  decide(parts: readonly PartSummary[]): PartDecision;
  /** This part's rows, encoded as `decision` says. */
  finishPart(decision: PartDecision): PartColumn;
}

/**
 * The builder for one planned column: typed by its SBIR spec, a plain string, or inferred.
 * `maxBytes` bounds any one text column (reserved address space, not memory); `maxDict` is the
 * most distinct values a dictionary-coded text column may have (dictEncode.ts).
 */
export function makeBuilder(plan: ColumnPlan, issues: IssueLog, maxBytes: number, maxDict?: number): ColumnBuilder {
  if (plan.mode === 'infer') return new InferBuilder(plan.name, issues, maxBytes, maxDict);
  const spec = plan.spec;
  if (!spec) return new Utf8Builder(plan.name, 'text', issues, false, 'auto', maxBytes, maxDict);
  const reportBlank = !spec.nullable;
  switch (spec.parse) {
    case 'amount':
    case 'integer':
    case 'date':
      return new Float64Builder(spec.name, spec.parse, issues, reportBlank);
    case 'duns':
    case 'flag':
      return new Utf8Builder(spec.name, spec.parse, issues, reportBlank, spec.encoding, maxBytes, maxDict);
    default:
      return new Utf8Builder(spec.name, 'text', issues, reportBlank, spec.encoding, maxBytes, maxDict);
  }
}
