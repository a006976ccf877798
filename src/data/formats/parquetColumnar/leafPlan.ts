import type { ParquetLeaf } from '../parquetSchema.js';

/** How raw values of a column become transfer values (the same mapping as the hyparquet path's parsers). */
export type Conversion = 'none' | 'days' | 'ms' | 'us' | 'ns' | 'uint32' | 'uint64';

/** What the columnar decoder does with one column. */
export interface LeafPlan {
  physical: 'BOOLEAN' | 'INT32' | 'INT64' | 'FLOAT' | 'DOUBLE' | 'BYTE_ARRAY';
  conversion: Conversion;
  /** OPTIONAL: the page carries definition levels (bit width 1). */
  optional: boolean;
}

/**
 * The plan for one flat column, or null when the columnar decoder leaves it to the hyparquet
 * path (DECIMAL, INT96, FIXED_LEN_BYTE_ARRAY, BSON, geo types, or an annotation on a physical
 * type it does not fit). The conversions follow hyparquet's `convert` in its order, with the
 * parsers decodeParquet passes, so both paths give the same values.
 * @example leafPlan(leaf) // { physical: 'INT32', conversion: 'days', optional: true }
 */
export function leafPlan(leaf: ParquetLeaf): LeafPlan | null {
  const e = leaf.element;
  const conv = e.converted_type;
  const logical = e.logical_type;
  const optional = e.repetition_type !== 'REQUIRED';
  const plan = (physical: LeafPlan['physical'], conversion: Conversion): LeafPlan => ({
    physical,
    conversion,
    optional,
  });
  if (conv === 'DECIMAL' || logical?.type === 'DECIMAL' || conv === 'BSON' || conv === 'INTERVAL') return null;
  if (
    logical?.type === 'GEOMETRY' ||
    logical?.type === 'GEOGRAPHY' ||
    logical?.type === 'UUID' ||
    logical?.type === 'FLOAT16' ||
    logical?.type === 'VARIANT'
  )
    return null;
  switch (e.type) {
    case 'BOOLEAN':
    case 'FLOAT':
    case 'DOUBLE':
      return conv === undefined && logical === undefined ? plan(e.type, 'none') : null;
    case 'BYTE_ARRAY':
      // every other BYTE_ARRAY annotation (UTF8, STRING, ENUM, JSON, none) stays UTF-8 bytes
      return plan('BYTE_ARRAY', 'none');
    case 'INT32':
      if (conv === 'DATE') return plan('INT32', 'days');
      if (
        conv === 'TIMESTAMP_MILLIS' ||
        conv === 'TIMESTAMP_MICROS' ||
        conv === 'UINT_64' ||
        logical?.type === 'TIMESTAMP'
      )
        return null;
      if (logical?.type === 'INTEGER' && logical.bitWidth === 64) return null;
      if (conv === 'UINT_32' || (logical?.type === 'INTEGER' && logical.bitWidth === 32 && !logical.isSigned))
        return plan('INT32', 'uint32');
      return plan('INT32', 'none');
    case 'INT64':
      if (
        conv === 'DATE' ||
        conv === 'UINT_32' ||
        (logical?.type === 'INTEGER' && logical.bitWidth === 32 && !logical.isSigned)
      )
        return null;
      if (conv === 'TIMESTAMP_MILLIS') return plan('INT64', 'ms');
      if (conv === 'TIMESTAMP_MICROS') return plan('INT64', 'us');
      if (conv === 'UINT_64' || (logical?.type === 'INTEGER' && logical.bitWidth === 64 && !logical.isSigned))
        return plan('INT64', 'uint64');
      if (logical?.type === 'TIMESTAMP')
        return plan('INT64', logical.unit === 'MICROS' ? 'us' : logical.unit === 'NANOS' ? 'ns' : 'ms');
      return plan('INT64', 'none');
    default:
      return null;
  }
}
