import type { DictColumn, Utf8Column } from '../../../../schema/columnar.js';
import type { ColumnSink, PageRows } from './columnSink.js';
import { dictIndices } from './dictIndices.js';
import { NeedsFallback } from './pageErrors.js';
import { plainBytes, type ByteRanges } from './plainBytes.js';
import { StringBuilder } from './stringBuilder.js';

/**
 * A string transfer column (dictionary-coded or UTF-8) built from PLAIN and dictionary-coded
 * BYTE_ARRAY pages, through StringBuilder. A Parquet dictionary entry is interned once, when a
 * row first uses it; later rows with that index copy its column code (no hashing per row).
 * @example const s = new StringSink(numRows); ... s.finish();
 */
export class StringSink implements ColumnSink {
  private readonly out: StringBuilder;
  private dict: ByteRanges | undefined;
  /** Per entry of the current Parquet dictionary: its column code, or -1 before first use. */
  private codeOf = new Int32Array(0);

  constructor(numRows: number) {
    this.out = new StringBuilder(numRows);
  }

  dictionary(buf: Uint8Array, pos: number, end: number, count: number): void {
    this.dict = plainBytes(buf, pos, end, count).ranges;
    this.codeOf = new Int32Array(count).fill(-1);
  }

  page(p: PageRows): void {
    const out = this.out;
    const n = p.nonNull;
    let get: (k: number) => void;
    if (p.encoding === 'PLAIN') {
      const { buf, begin, end } = plainBytes(p.buf, p.pos, p.end, n).ranges;
      get = (k) => void out.add(buf, begin[k], end[k]);
    } else if (p.encoding === 'PLAIN_DICTIONARY' || p.encoding === 'RLE_DICTIONARY') {
      const { buf, begin, end } = this.dict ?? { buf: p.buf, begin: new Int32Array(0), end: new Int32Array(0) };
      const idx = dictIndices(p.buf, p.pos, p.end, n, this.dict?.begin.length);
      const codeOf = this.codeOf;
      get = (k) => {
        const e = idx[k];
        const code = codeOf[e];
        if (code >= 0 && !out.isText) out.addCode(code);
        else codeOf[e] = out.add(buf, begin[e], end[e]);
      };
    } else {
      throw new NeedsFallback(`encoding ${p.encoding}`);
    }
    if (p.defs === null) for (let k = 0; k < p.rows; k++) get(k);
    else for (let i = 0, k = 0; i < p.rows; i++) p.defs[i] === 0 ? out.nul() : get(k++);
  }

  finish(): DictColumn | Utf8Column {
    return this.out.finish();
  }
}
