import type { BoolColumn } from '../../../../schema/columnar.js';
import { booleans } from './booleans.js';
import type { ColumnSink, PageRows } from './columnSink.js';
import { NeedsFallback, PageCorrupt } from './pageErrors.js';

/**
 * A bool transfer column built from PLAIN (bit-packed) and RLE boolean pages; dictionary-coded
 * booleans (no common writer makes them) are NeedsFallback.
 * @example const s = new BoolSink(numRows); ... s.finish();
 */
export class BoolSink implements ColumnSink {
  private readonly values: Uint8Array;
  private readonly valid: Uint8Array;
  private row = 0;

  constructor(private readonly numRows: number) {
    this.values = new Uint8Array(numRows);
    this.valid = new Uint8Array(numRows);
  }

  dictionary(): void {
    throw new NeedsFallback('a dictionary of booleans');
  }

  page(p: PageRows): void {
    if (this.row + p.rows > this.numRows) throw new PageCorrupt('more values than rows');
    if (p.encoding !== 'PLAIN' && p.encoding !== 'RLE') throw new NeedsFallback(`encoding ${p.encoding}`);
    const vals = booleans(p.buf, p.pos, p.end, p.nonNull, p.encoding);
    const at = this.row;
    if (p.defs === null) {
      this.values.set(vals, at);
      this.valid.fill(1, at, at + p.rows);
    } else {
      for (let i = 0, k = 0; i < p.rows; i++) {
        if (p.defs[i] === 0) continue;
        this.values[at + i] = vals[k++];
        this.valid[at + i] = 1;
      }
    }
    this.row += p.rows;
  }

  finish(): BoolColumn {
    if (this.row !== this.numRows) throw new PageCorrupt(`${this.row} values for ${this.numRows} rows`);
    return { kind: 'bool', type: 'boolean', values: this.values, valid: this.valid };
  }
}
