import type { Float64Column } from '../../../schema/columnar.js';
import { exact, growF64, growU8 } from '../columns/grow.js';
import { parseDateBytes } from './parseDate.js';
import { parseNumberBytes } from './parseNumber.js';
import type { IssueLog } from './report.js';
import { isBlank } from './blank.js';
import type { PartDecision, PartSummary } from './partColumn.js';

/** How cells become numbers: `amount` (money: `$` and commas allowed), `integer`, `date` (ms UTC). */
export type Float64Rule = 'amount' | 'integer' | 'date';

const REASON: Record<Float64Rule, string> = {
  amount: 'not a number; stored null',
  integer: 'not a whole number; stored null',
  date: 'not a date (YYYY-MM-DD or M/D/YYYY); stored null',
};

/** Builds a Float64Column from raw cells; blanks are null, unparseable cells null and reported. */
export class Float64Builder {
  length = 0;
  nonNull = 0;
  private values: Float64Array = new Float64Array(1024);
  private valid: Uint8Array = new Uint8Array(1024);

  constructor(
    readonly name: string,
    private readonly rule: Float64Rule,
    private readonly issues: IssueLog,
    private readonly reportBlank = false,
  ) {}

  /** Appends the cell `buf[s, e)`. */
  add(buf: Buffer, s: number, e: number): void {
    const i = this.length;
    if (i === this.values.length) {
      this.values = growF64(this.values, i + 1);
      this.valid = growU8(this.valid, i + 1);
    }
    this.length = i + 1;
    if (isBlank(buf, s, e)) {
      this.valid[i] = 0;
      if (this.reportBlank)
        this.issues.invalid(this.name, 'blank in a column that is always filled; stored null', () => '');
      return;
    }
    const v = this.rule === 'date' ? parseDateBytes(buf, s, e) : parseNumberBytes(buf, s, e, true);
    if (Number.isNaN(v) || (this.rule === 'integer' && !Number.isInteger(v))) {
      this.valid[i] = 0;
      this.issues.invalid(this.name, REASON[this.rule], () => buf.toString('utf8', s, e));
      return;
    }
    this.values[i] = v;
    this.valid[i] = 1;
    this.nonNull++;
  }

  /** Appends a null (a cell missing from a short record). */
  addNull(): void {
    const i = this.length;
    if (i === this.values.length) {
      this.values = growF64(this.values, i + 1);
      this.valid = growU8(this.valid, i + 1);
    }
    this.valid[i] = 0;
    this.length = i + 1;
  }

  finish(): Float64Column {
    const type = this.rule === 'amount' ? 'number' : this.rule;
    return { kind: 'float64', type, values: exact(this.values, this.length), valid: exact(this.valid, this.length) };
  }

  summary(): PartSummary {
    return { nonNull: this.nonNull };
  }

  decide(): PartDecision {
    return { as: 'typed' };
  }

  finishPart(): Float64Column {
    return this.finish();
  }
}
