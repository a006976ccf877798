import type { DictColumn, Utf8Column } from '../../../../schema/columnar.js';
import type { ColumnSink, PageRows } from './columnSink.js';
import { deltaInts } from './delta.js';
import { dictIndices } from './dictIndices.js';
import { NeedsFallback, PageCorrupt } from './pageErrors.js';
import { plainBytes, type ByteRanges } from './plainBytes.js';
import { StringBuilder } from './stringBuilder.js';

/**
 * A string transfer column (dictionary-coded or UTF-8) built from PLAIN, DELTA_LENGTH_BYTE_ARRAY
 * and dictionary-coded BYTE_ARRAY pages, through StringBuilder. A Parquet dictionary entry is interned once, when a
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
    this.out.reserve(count);
  }

  page(p: PageRows): void {
    const out = this.out;
    const { defs, rows } = p;
    if (p.encoding === 'PLAIN' || p.encoding === 'DELTA_LENGTH_BYTE_ARRAY') {
      const { buf, begin, end } = p.encoding === 'PLAIN' ? plainBytes(p.buf, p.pos, p.end, p.nonNull).ranges : deltaLengthBytes(p.buf, p.pos, p.end, p.nonNull);
      for (let i = 0, k = 0; i < rows; i++) {
        if (defs !== null && defs[i] === 0) out.nul();
        else {
          out.add(buf, begin[k], end[k]);
          k++;
        }
      }
      return;
    }
    if (p.encoding !== 'PLAIN_DICTIONARY' && p.encoding !== 'RLE_DICTIONARY') throw new NeedsFallback(`encoding ${p.encoding}`);
    const idx = dictIndices(p.buf, p.pos, p.end, p.nonNull, this.dict?.begin.length);
    const { buf, begin, end } = this.dict!;
    const codeOf = this.codeOf;
    for (let i = 0, k = 0; i < rows; i++) {
      if (defs !== null && defs[i] === 0) {
        out.nul();
        continue;
      }
      const e = idx[k++];
      const code = codeOf[e];
      // a cached code is valid only while the column is still dictionary-coded
      if (code >= 0 && !out.isText) out.addCode(code);
      else codeOf[e] = out.add(buf, begin[e], end[e]);
    }
  }

  finish(): DictColumn | Utf8Column {
    return this.out.finish();
  }
}

/** DELTA_LENGTH_BYTE_ARRAY: the lengths (DELTA_BINARY_PACKED), then the values back to back; each length checked. */
function deltaLengthBytes(buf: Uint8Array, pos: number, stop: number, n: number): ByteRanges {
  const { bytes, pos: at } = deltaInts(buf, pos, stop, n, false);
  const lengths = new Int32Array(bytes.buffer, bytes.byteOffset, n);
  const begin = new Int32Array(n);
  const end = new Int32Array(n);
  let p = at;
  for (let i = 0; i < n; i++) {
    const len = lengths[i];
    if (len < 0 || len > stop - p) throw new PageCorrupt(`a text value of ${len} bytes, with ${stop - p} bytes left in the page`);
    begin[i] = p;
    p += len;
    end[i] = p;
  }
  return { buf, begin, end };
}
