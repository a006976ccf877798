import type { Float64Column } from '../../../../schema/columnar.js';
import type { ColumnSink, PageRows } from './columnSink.js';
import { deltaInts } from './delta.js';
import { dictIndices } from './dictIndices.js';
import type { LeafPlan } from './leafPlan.js';
import { NeedsFallback, PageCorrupt } from './pageErrors.js';
import { plainNumbers } from './plainNumbers.js';
import { unsplit } from './unsplit.js';

/**
 * A float64 transfer column (numbers, integers, dates as UTC ms) built from PLAIN,
 * dictionary-coded, BYTE_STREAM_SPLIT and DELTA_BINARY_PACKED pages; other encodings are NeedsFallback.
 * @example const s = new NumberSink(plan, 'integer', numRows); ... s.finish();
 */
export class NumberSink implements ColumnSink {
  private readonly values: Float64Array;
  private readonly valid: Uint8Array;
  private row = 0;
  private dict: Float64Array | undefined;

  /**
   * @param capacity for the first part of a column: the whole column's rows, the length of the
   *   buffers its values and validity start (joinColumns fills the rest in place). @default numRows
   */
  constructor(
    private readonly plan: LeafPlan,
    private readonly type: Float64Column['type'],
    private readonly numRows: number,
    capacity = numRows,
  ) {
    const room = Math.max(numRows, capacity);
    this.values = new Float64Array(room).subarray(0, numRows);
    this.valid = new Uint8Array(room).subarray(0, numRows);
  }

  dictionary(buf: Uint8Array, pos: number, end: number, count: number): void {
    this.dict = plainNumbers(buf, pos, end, count, this.plan, this.type === 'integer').values;
  }

  page(p: PageRows): void {
    if (this.row + p.rows > this.numRows) throw new PageCorrupt('more values than rows');
    if (p.defs === null && p.encoding === 'PLAIN' && this.plan.physical === 'DOUBLE') {
      // no nulls, no conversion: the page's bytes are the values (one copy, no intermediate arrays)
      const bytes = p.rows * 8;
      if (p.pos + bytes > p.end || p.end > p.buf.length)
        throw new PageCorrupt(`${p.rows} values of 8 bytes do not fit in the ${p.end - p.pos} bytes left in the page`);
      new Uint8Array(this.values.buffer, this.values.byteOffset + this.row * 8, bytes).set(
        p.buf.subarray(p.pos, p.pos + bytes),
      );
      this.valid.fill(1, this.row, this.row + p.rows);
      this.row += p.rows;
      return;
    }
    const vals = this.decode(p);
    const { values, valid } = this;
    const at = this.row;
    if (p.defs === null) {
      values.set(vals, at);
      valid.fill(1, at, at + p.rows);
    } else {
      for (let i = 0, k = 0; i < p.rows; i++) {
        if (p.defs[i] === 0) continue;
        values[at + i] = vals[k++];
        valid[at + i] = 1;
      }
    }
    this.row += p.rows;
  }

  finish(): Float64Column {
    if (this.row !== this.numRows) throw new PageCorrupt(`${this.row} values for ${this.numRows} rows`);
    return { kind: 'float64', type: this.type, values: this.values, valid: this.valid };
  }

  private decode(p: PageRows): Float64Array {
    const n = p.nonNull;
    const integer = this.type === 'integer';
    switch (p.encoding) {
      case 'PLAIN':
        return plainNumbers(p.buf, p.pos, p.end, n, this.plan, integer).values;
      case 'PLAIN_DICTIONARY':
      case 'RLE_DICTIONARY': {
        const dict = this.dict;
        const idx = dictIndices(p.buf, p.pos, p.end, n, dict?.length);
        const out = new Float64Array(n);
        for (let i = 0; i < n; i++) out[i] = dict![idx[i]];
        return out;
      }
      case 'BYTE_STREAM_SPLIT': {
        const width = this.plan.physical === 'INT64' || this.plan.physical === 'DOUBLE' ? 8 : 4;
        return plainNumbers(unsplit(p.buf, p.pos, p.end, n, width), 0, n * width, n, this.plan, integer).values;
      }
      case 'DELTA_BINARY_PACKED': {
        if (this.plan.physical !== 'INT32' && this.plan.physical !== 'INT64')
          throw new NeedsFallback(`encoding ${p.encoding} for ${this.plan.physical}`);
        const { bytes } = deltaInts(p.buf, p.pos, p.end, n, this.plan.physical === 'INT64');
        return plainNumbers(bytes, 0, bytes.length, n, this.plan, integer).values;
      }
      default:
        throw new NeedsFallback(`encoding ${p.encoding}`);
    }
  }
}
