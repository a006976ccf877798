import type { ColumnData } from '../../../schema/columnar.js';
import { growF64, growI32, growU8 } from '../columns/grow.js';
import { isBlank } from './blank.js';
import { boolText, canonicalBool, canonicalDate, canonicalNumber, dateText } from './canonicalText.js';
import { parseDateBytes } from './parseDate.js';
import { parseNumberBytes } from './parseNumber.js';
import type { IssueLog } from './report.js';
import { ESCAPED, MALFORMED } from './scanner.js';
import { Utf8Builder } from './utf8Builder.js';
import { totalNonNull, type PartColumn, type PartDecision, type PartSummary } from './partColumn.js';

/**
 * Cells whose text is not the one their value gives back ({@link canonicalNumber}: `1.50`, `007`
 * as text, `1e3`) are kept as they are; past this share of the rows (and {@link ODD_MIN} rows) the
 * column keeps every cell's text beside its values instead, as before.
 */
const ODD_SHARE = 8;
const ODD_MIN = 4096;

/**
 * A column of a user's CSV whose type is inferred over ALL its cells: it parses each non-blank
 * cell as number, date and boolean while every earlier cell did too.
 * Final type: number (integer if all whole), else date, else boolean, else string.
 * Numbers use plain syntax and reject leading zeros (`0123` stays a string, like ZIP codes).
 *
 * While the column may still be typed, a cell's text is kept only when its value does not give it
 * back (canonicalText.ts): a 5M-row column of amounts holds its numbers, not ~60 MB of text and
 * offsets beside them (docs/benchmarks.md, session 23). When a cell proves the column text, the
 * earlier cells' text is written again from their values and kept cells, the same bytes as read,
 * and the column goes on as text.
 */
export class InferBuilder {
  /** Every cell's text so far, once the column is text (or keeps its text: too many odd cells). */
  private text: Utf8Builder | null = null;
  length = 0;
  private nonNull = 0;
  private valid: Uint8Array = new Uint8Array(1024);
  private num: Float64Array | null = new Float64Array(1024);
  private allInt = true;
  private date: Float64Array | null = new Float64Array(1024);
  private bool: Uint8Array | null = new Uint8Array(1024);
  /** The rows whose text is not their value's ({@link canonicalNumber}), and their bytes. */
  private oddRows: Int32Array = new Int32Array(64);
  private oddCount = 0;
  private oddBytes: Buffer = Buffer.allocUnsafe(1024);
  private oddEnds: Int32Array = new Int32Array(64);

  constructor(
    private readonly name: string,
    private readonly issues: IssueLog,
    private readonly maxBytes?: number,
    private readonly maxDict?: number,
  ) {}

  /** Appends the cell `buf[s, e)`. */
  add(buf: Buffer, s: number, e: number, flags: number): void {
    const i = this.length;
    if (i === this.valid.length) this.valid = growU8(this.valid, i + 1);
    if (this.text) this.text.add(buf, s, e, flags);
    this.length = i + 1;
    if (isBlank(buf, s, e)) {
      this.valid[i] = 0;
      return;
    }
    this.valid[i] = 1;
    this.nonNull++;
    const { num, date, bool } = this;
    if (!num && !date && !bool) return;
    const plain = (flags & (ESCAPED | MALFORMED)) === 0;
    let back = false; // the value gives the cell's text back
    if (num) {
      const v = plain ? parseNumberBytes(buf, s, e, false) : NaN;
      if (Number.isNaN(v)) this.num = null;
      else {
        this.num = growF64(num, i + 1);
        this.num[i] = v;
        if (!Number.isInteger(v)) this.allInt = false;
        back = canonicalNumber(buf, s, e);
      }
    }
    if (date) {
      const v = plain ? parseDateBytes(buf, s, e) : NaN;
      if (Number.isNaN(v)) this.date = null;
      else {
        this.date = growF64(date, i + 1);
        this.date[i] = v;
        back = canonicalDate(buf, s, e);
      }
    }
    if (bool) {
      const v = plain ? parseBool(buf, s, e) : -1;
      if (v < 0) this.bool = null;
      else {
        this.bool = growU8(bool, i + 1);
        this.bool[i] = v;
        back = canonicalBool(buf, s, e);
      }
    }
    if (this.text) return;
    const alive = (this.num ? 1 : 0) + (this.date ? 1 : 0) + (this.bool ? 1 : 0);
    if (alive === 0) {
      // the column is text: the earlier cells' text from the values they had, then this cell's
      this.text = this.writeText(i, num ? 'num' : date ? 'date' : 'bool', num ?? date ?? bool!);
      this.text.add(buf, s, e, flags);
      this.dropOdd();
    } else if (alive > 1 || !back) this.keepOdd(i, buf, s, e);
  }

  addNull(): void {
    const i = this.length;
    if (i === this.valid.length) this.valid = growU8(this.valid, i + 1);
    this.valid[i] = 0;
    this.length = i + 1;
    this.text?.addNull();
  }

  finish(): ColumnData {
    const n = this.length;
    const valid = this.valid.subarray(0, n);
    if (this.nonNull > 0) {
      if (this.num)
        return { kind: 'float64', type: this.allInt ? 'integer' : 'number', values: sized(this.num, n), valid };
      if (this.date) return { kind: 'float64', type: 'date', values: sized(this.date, n), valid };
      if (this.bool) return { kind: 'bool', type: 'boolean', values: sized(this.bool, n), valid };
    }
    return this.textOfAll().finish();
  }

  summary(): PartSummary {
    const infer = { num: this.num !== null, allInt: this.allInt, date: this.date !== null, bool: this.bool !== null };
    // a part that may still be typed skips the sketch: the column is text only if another part is
    const text = !infer.num && !infer.date && !infer.bool;
    return { nonNull: this.nonNull, infer, sketch: text ? this.textOfAll().sketch() : null };
  }

  /** {@link finish}'s rule over every part: a type only when every part's cells parse as it. */
  decide(parts: readonly PartSummary[]): PartDecision {
    if (totalNonNull(parts) > 0) {
      const all = (k: 'num' | 'date' | 'bool') => parts.every((p) => p.infer?.[k] === true);
      if (all('num')) return { as: 'number', integer: parts.every((p) => p.infer!.allInt) };
      if (all('date')) return { as: 'date' };
      if (all('bool')) return { as: 'boolean' };
    }
    return this.textOfAll().decide(parts);
  }

  finishPart(decision: PartDecision): PartColumn {
    const n = this.length;
    const valid = this.valid.subarray(0, n);
    if (decision.as === 'number')
      return { kind: 'float64', type: decision.integer ? 'integer' : 'number', values: sized(this.num!, n), valid };
    if (decision.as === 'date') return { kind: 'float64', type: 'date', values: sized(this.date!, n), valid };
    if (decision.as === 'boolean') return { kind: 'bool', type: 'boolean', values: sized(this.bool!, n), valid };
    return this.textOfAll().finishPart(decision);
  }

  /** Every row's text: written now from the values when the column was still typed. */
  private textOfAll(): Utf8Builder {
    if (this.text) return this.text;
    const kind = this.num ? 'num' : this.date ? 'date' : 'bool';
    this.text = this.writeText(this.length, kind, this.num ?? this.date ?? this.bool!);
    this.dropOdd();
    return this.text;
  }

  /** A cell whose text its value does not give back: its bytes, by row. */
  private keepOdd(row: number, buf: Buffer, s: number, e: number): void {
    const k = this.oddCount;
    if (k >= ODD_MIN && k * ODD_SHARE > row) {
      // mostly odd cells: keep every cell's text from here, as one column of text
      const kind = this.num ? 'num' : this.date ? 'date' : 'bool';
      this.text = this.writeText(row, kind, this.num ?? this.date ?? this.bool!);
      this.text.add(buf, s, e, 0);
      this.dropOdd();
      return;
    }
    const at = k === 0 ? 0 : this.oddEnds[k - 1];
    if (k === this.oddRows.length) {
      this.oddRows = growI32(this.oddRows, k + 1);
      this.oddEnds = growI32(this.oddEnds, k + 1);
    }
    if (at + (e - s) > this.oddBytes.length) {
      const b = Buffer.allocUnsafe(Math.max(2 * this.oddBytes.length, at + (e - s)));
      this.oddBytes.copy(b, 0, 0, at);
      this.oddBytes = b;
    }
    buf.copy(this.oddBytes, at, s, e);
    this.oddRows[k] = row;
    this.oddEnds[k] = at + (e - s);
    this.oddCount = k + 1;
  }

  private dropOdd(): void {
    this.oddRows = new Int32Array(0);
    this.oddEnds = new Int32Array(0);
    this.oddBytes = Buffer.alloc(0);
    this.oddCount = 0;
  }

  /**
   * The text of rows `[0, rows)` as they were read: a kept cell's bytes, else the text of the
   * value of `kind` (the one type every earlier cell had; canonicalText.ts).
   */
  private writeText(rows: number, kind: 'num' | 'date' | 'bool', values: Float64Array | Uint8Array): Utf8Builder {
    const text = new Utf8Builder(this.name, 'text', this.issues, false, 'auto', this.maxBytes, this.maxDict);
    const scratch = Buffer.allocUnsafe(64);
    let odd = 0;
    for (let r = 0; r < rows; r++) {
      if (this.valid[r] === 0) text.addNull();
      else if (odd < this.oddCount && this.oddRows[odd] === r) {
        text.add(this.oddBytes, odd === 0 ? 0 : this.oddEnds[odd - 1], this.oddEnds[odd], 0);
        odd++;
      } else {
        const v = values[r];
        const s = kind === 'num' ? String(v) : kind === 'date' ? dateText(v) : boolText(v);
        text.add(scratch, 0, scratch.write(s, 0, 'latin1'), 0);
      }
    }
    return text;
  }
}

function sized<T extends Float64Array | Uint8Array>(a: T, n: number): T {
  if (a.length >= n) return a.subarray(0, n) as T;
  const b = new (a.constructor as new (n: number) => T)(n);
  b.set(a);
  return b;
}

/** 1 for true, 0 for false (any case), -1 otherwise. */
function parseBool(buf: Uint8Array, s: number, e: number): number {
  const text = e - s === 4 || e - s === 5 ? String.fromCharCode(...buf.subarray(s, e)).toLowerCase() : '';
  return text === 'true' ? 1 : text === 'false' ? 0 : -1;
}
