import type { ColumnData } from '../../../schema/columnar.js';

const utf8 = new TextDecoder();

/**
 * A transfer column's values as JS values for a file writer: numbers, Dates (UTC ms), booleans,
 * strings, null for missing. Dictionary strings are decoded once per dictionary entry.
 * @example columnValues(ds.loadColumn('Agency')) // ['Department of Defense', ...]
 */
export function columnValues(c: ColumnData): Array<number | Date | boolean | string | null> {
  switch (c.kind) {
    case 'float64': {
      const out = new Array<number | Date | null>(c.values.length);
      for (let i = 0; i < out.length; i++)
        out[i] = c.valid[i] ? (c.type === 'date' ? new Date(c.values[i]) : c.values[i]) : null;
      return out;
    }
    case 'bool': {
      const out = new Array<boolean | null>(c.values.length);
      for (let i = 0; i < out.length; i++) out[i] = c.valid[i] ? c.values[i] === 1 : null;
      return out;
    }
    case 'dict': {
      const dict = new Array<string>(c.dictOffsets.length - 1);
      for (let k = 0; k < dict.length; k++)
        dict[k] = utf8.decode(c.dictBytes.subarray(c.dictOffsets[k], c.dictOffsets[k + 1]));
      const out = new Array<string | null>(c.codes.length);
      for (let i = 0; i < out.length; i++) out[i] = c.codes[i] < 0 ? null : dict[c.codes[i]];
      return out;
    }
    case 'utf8': {
      const out = new Array<string | null>(c.valid.length);
      for (let i = 0; i < out.length; i++)
        out[i] = c.valid[i] ? utf8.decode(c.bytes.subarray(c.offsets[i], c.offsets[i + 1])) : null;
      return out;
    }
  }
}
