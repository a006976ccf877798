import type { ColumnData, ColumnType } from '../../../schema/columnar.js';
import { dictEncode, USER_MAX_DICT_SIZE } from '../columns/dictEncode.js';
import { boolColumn } from '../columns/fromValues.js';

/** The type a file's schema declares for a column; 'string' also covers JSON and decimal text. */
export type DeclaredType = Exclude<ColumnType, never>;

const SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/**
 * A transfer column from decoded values of a typed file column (Parquet, Arrow): the type comes
 * from the file's schema, not from guessing, so an all-null integer column stays 'integer'.
 * Integers beyond +-2^53 cannot be float64 without loss: such a column becomes exact decimal
 * strings (`large` is set) instead of silently rounded numbers.
 * @example typedColumn([1n, null, 3n], 'integer') // { column: { kind: 'float64', type: 'integer', ... }, large: false }
 */
export function typedColumn(values: ArrayLike<unknown>, type: DeclaredType): { column: ColumnData; large: boolean } {
  if (type === 'integer' && hasLargeInteger(values)) return { column: stringColumn(values), large: true };
  switch (type) {
    case 'number':
    case 'integer':
    case 'date':
      return { column: floatColumn(values, type), large: false };
    case 'boolean':
      return { column: boolColumn(values), large: false };
    default:
      return { column: stringColumn(values), large: false };
  }
}

function hasLargeInteger(values: ArrayLike<unknown>): boolean {
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (typeof v === 'bigint' && (v > SAFE || v < -SAFE)) return true;
    if (typeof v === 'number' && !Number.isSafeInteger(v) && Number.isFinite(v) && Number.isInteger(v)) return true;
  }
  return false;
}

function floatColumn(values: ArrayLike<unknown>, type: 'number' | 'integer' | 'date'): ColumnData {
  const n = values.length;
  const out = new Float64Array(n);
  const valid = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const v = values[i];
    if (v === null || v === undefined) continue;
    const x =
      typeof v === 'number' ? v : typeof v === 'bigint' ? Number(v) : v instanceof Date ? v.getTime() : Number(v);
    if (type === 'date' && !Number.isFinite(x)) continue; // an invalid date is null, never NaN ms
    out[i] = x;
    valid[i] = 1;
  }
  return { kind: 'float64', type, values: out, valid };
}

/**
 * Strings: UTF-8 bytes + offsets, then dictionary-coded when that pays off (dictEncode.ts: at most
 * USER_MAX_DICT_SIZE distinct values, each used twice on average). Raw UTF-8 byte values (Parquet with
 * `utf8: false`) are copied as they are, with no decode/encode round trip.
 */
export function stringColumn(values: ArrayLike<unknown>): ColumnData {
  const n = values.length;
  const parts: Array<Uint8Array | null> = new Array(n);
  const valid = new Uint8Array(n);
  let total = 0;
  let nonNull = 0;
  for (let i = 0; i < n; i++) {
    const v = values[i];
    let b: Uint8Array | null;
    if (v instanceof Uint8Array) b = v;
    else {
      const s = text(v);
      b = s === null ? null : Buffer.from(s, 'utf8');
    }
    parts[i] = b;
    if (b === null) continue;
    valid[i] = 1;
    total += b.byteLength;
    nonNull++;
  }
  if (total > 0x7fffffff) throw new RangeError('a text column is larger than 2 GiB');
  const bytes = new Uint8Array(total);
  const offsets = new Int32Array(n + 1);
  let at = 0;
  for (let i = 0; i < n; i++) {
    const b = parts[i];
    if (b !== null) {
      bytes.set(b, at);
      at += b.byteLength;
    }
    offsets[i + 1] = at;
  }
  const col = { kind: 'utf8' as const, type: 'string' as const, bytes, offsets, valid };
  return dictEncode(col, nonNull, USER_MAX_DICT_SIZE) ?? col;
}

function text(v: unknown): string | null {
  if (v === null || v === undefined) return null;
  if (typeof v === 'string') return v;
  if (v instanceof Date) return Number.isNaN(v.getTime()) ? null : v.toISOString();
  if (v instanceof Uint8Array) return Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('base64');
  if (typeof v === 'object') {
    try {
      return JSON.stringify(v, (_k, x) => (typeof x === 'bigint' ? x.toString() : x)) ?? String(v);
    } catch {
      return String(v);
    }
  }
  return String(v);
}
