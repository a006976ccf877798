import type { ColumnData } from '../../../schema/columnar.js';
import { growF64, growU8 } from '../columns/grow.js';
import { parseDateBytes } from './parseDate.js';
import { parseNumberBytes } from './parseNumber.js';
import type { IssueLog } from './report.js';
import { ESCAPED, MALFORMED } from './scanner.js';
import { Utf8Builder } from './utf8Builder.js';
import { totalNonNull, type PartColumn, type PartDecision, type PartSummary } from './partColumn.js';

/**
 * A column of a user's CSV whose type is inferred over ALL its cells: it keeps the text, and
 * parses each non-blank cell as number, date and boolean while every earlier cell did too.
 * Final type: number (integer if all whole), else date, else boolean, else string.
 * Numbers use plain syntax and reject leading zeros (`0123` stays a string, like ZIP codes).
 */
export class InferBuilder {
  private readonly text: Utf8Builder;
  private num: Float64Array | null = new Float64Array(1024);
  private allInt = true;
  private date: Float64Array | null = new Float64Array(1024);
  private bool: Uint8Array | null = new Uint8Array(1024);

  constructor(name: string, issues: IssueLog, maxBytes?: number, maxDict?: number) {
    this.text = new Utf8Builder(name, 'text', issues, false, 'auto', maxBytes, maxDict);
  }

  get length(): number {
    return this.text.length;
  }

  /** Appends the cell `buf[s, e)`. */
  add(buf: Buffer, s: number, e: number, flags: number): void {
    const i = this.text.length;
    this.text.add(buf, s, e, flags);
    if (this.text.valid[i] === 0) return;
    const plain = (flags & (ESCAPED | MALFORMED)) === 0;
    if (this.num) {
      const v = plain ? parseNumberBytes(buf, s, e, false) : NaN;
      if (Number.isNaN(v)) this.num = null;
      else {
        this.num = growF64(this.num, i + 1);
        this.num[i] = v;
        if (!Number.isInteger(v)) this.allInt = false;
      }
    }
    if (this.date) {
      const v = plain ? parseDateBytes(buf, s, e) : NaN;
      if (Number.isNaN(v)) this.date = null;
      else {
        this.date = growF64(this.date, i + 1);
        this.date[i] = v;
      }
    }
    if (this.bool) {
      const v = plain ? parseBool(buf, s, e) : -1;
      if (v < 0) this.bool = null;
      else {
        this.bool = growU8(this.bool, i + 1);
        this.bool[i] = v;
      }
    }
  }

  addNull(): void {
    this.text.addNull();
  }

  finish(): ColumnData {
    const n = this.text.length;
    const valid = this.text.valid.subarray(0, n);
    if (this.text.nonNull > 0) {
      if (this.num)
        return { kind: 'float64', type: this.allInt ? 'integer' : 'number', values: sized(this.num, n), valid };
      if (this.date) return { kind: 'float64', type: 'date', values: sized(this.date, n), valid };
      if (this.bool) return { kind: 'bool', type: 'boolean', values: sized(this.bool, n), valid };
    }
    return this.text.finish();
  }

  summary(): PartSummary {
    const infer = { num: this.num !== null, allInt: this.allInt, date: this.date !== null, bool: this.bool !== null };
    // a part that may still be typed skips the sketch: the column is text only if another part is
    const text = !infer.num && !infer.date && !infer.bool;
    return { nonNull: this.text.nonNull, infer, sketch: text ? this.text.sketch() : null };
  }

  /** {@link finish}'s rule over every part: a type only when every part's cells parse as it. */
  decide(parts: readonly PartSummary[]): PartDecision {
    if (totalNonNull(parts) > 0) {
      const all = (k: 'num' | 'date' | 'bool') => parts.every((p) => p.infer?.[k] === true);
      if (all('num')) return { as: 'number', integer: parts.every((p) => p.infer!.allInt) };
      if (all('date')) return { as: 'date' };
      if (all('bool')) return { as: 'boolean' };
    }
    return this.text.decide(parts);
  }

  finishPart(decision: PartDecision): PartColumn {
    const n = this.text.length;
    const valid = this.text.valid.subarray(0, n);
    if (decision.as === 'number')
      return { kind: 'float64', type: decision.integer ? 'integer' : 'number', values: sized(this.num!, n), valid };
    if (decision.as === 'date') return { kind: 'float64', type: 'date', values: sized(this.date!, n), valid };
    if (decision.as === 'boolean') return { kind: 'bool', type: 'boolean', values: sized(this.bool!, n), valid };
    return this.text.finishPart(decision);
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
