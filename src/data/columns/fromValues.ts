import type { ColumnData } from '../../../schema/columnar.js';
import { dictEncode } from './dictEncode.js';

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/**
 * A column from JS values, typed over ALL of them (never a sample): numbers (and bigints) ->
 * 'integer' if all whole else 'number'; Dates -> 'date' (ms UTC); booleans -> 'boolean'; strings
 * -> string. null/undefined (and invalid Dates) are null. Mixed types become strings
 * (`String(v)`, Dates as ISO-8601, objects as JSON) so nothing is lost silently.
 * @example columnFromValues([1, 2, null]) // { kind: 'float64', type: 'integer', ... }
 */
export function columnFromValues(values: ArrayLike<unknown>): ColumnData {
  const n = values.length;
  let kinds = 0; // bit set of NUM | DATE | BOOL | STR | OTHER
  let whole = true;
  for (let i = 0; i < n; i++) {
    const v = values[i];
    if (v === null || v === undefined) continue;
    // a bigint a double cannot hold exactly is kept as its exact text (the column becomes text)
    if (typeof v === 'bigint' && (v > MAX_SAFE || v < -MAX_SAFE)) kinds |= 8;
    else if (typeof v === 'number' || typeof v === 'bigint') {
      kinds |= 1;
      if (whole && !Number.isInteger(Number(v))) whole = false;
    } else if (v instanceof Date) kinds |= 2;
    else if (typeof v === 'boolean') kinds |= 4;
    else if (typeof v === 'string') kinds |= 8;
    else kinds |= 16;
  }
  const valid = new Uint8Array(n);
  if (kinds === 1 || kinds === 2) {
    const out = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      const v = values[i];
      if (v === null || v === undefined) continue;
      const x = kinds === 1 ? Number(v) : (v as Date).getTime();
      if (kinds === 2 && Number.isNaN(x)) continue; // an invalid Date is null
      out[i] = x;
      valid[i] = 1;
    }
    return { kind: 'float64', type: kinds === 2 ? 'date' : whole ? 'integer' : 'number', values: out, valid };
  }
  if (kinds === 4) return boolColumn(values);
  return stringColumn(values, valid);
}

/** A boolean column: truthy -> 1, null/undefined -> null. */
export function boolColumn(values: ArrayLike<unknown>): ColumnData {
  const n = values.length;
  const out = new Uint8Array(n);
  const valid = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const v = values[i];
    if (v === null || v === undefined) continue;
    out[i] = v ? 1 : 0;
    valid[i] = 1;
  }
  return { kind: 'bool', type: 'boolean', values: out, valid };
}

function stringColumn(values: ArrayLike<unknown>, valid: Uint8Array): ColumnData {
  const n = values.length;
  const texts: string[] = new Array(n);
  let total = 0;
  let nonNull = 0;
  for (let i = 0; i < n; i++) {
    const v = values[i];
    if (v === null || v === undefined || (v instanceof Date && Number.isNaN(v.getTime()))) continue;
    const s =
      typeof v === 'string' ? v : v instanceof Date ? v.toISOString() : typeof v === 'object' ? safeJson(v) : String(v);
    texts[i] = s;
    total += Buffer.byteLength(s, 'utf8');
    valid[i] = 1;
    nonNull++;
  }
  const bytes = Buffer.allocUnsafe(total);
  const offsets = new Int32Array(n + 1);
  let at = 0;
  for (let i = 0; i < n; i++) {
    if (valid[i]) at += bytes.write(texts[i], at, 'utf8');
    offsets[i + 1] = at;
  }
  const col = {
    kind: 'utf8' as const,
    type: 'string' as const,
    bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, at).slice(),
    offsets,
    valid,
  };
  return dictEncode(col, nonNull) ?? col;
}

function safeJson(v: object): string {
  try {
    return JSON.stringify(v) ?? String(v);
  } catch {
    return String(v);
  }
}
