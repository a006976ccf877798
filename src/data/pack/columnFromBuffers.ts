import type { ColumnData } from '../../../schema/columnar.js';
import { ROLES } from '../cache/roles.js';
import type { PackColumn } from './manifest.js';

/**
 * A column from its inflated buffers (role -> bytes). Portable: no `node:` import, so the edge
 * bundle uses it after inflating with `DecompressionStream`. Each buffer is copied into its own
 * ArrayBuffer when it is not aligned for its typed array.
 * @returns the column, or a string saying what is wrong (wrong row count, missing buffer, bad length).
 * @example const col = columnFromBuffers(entry, manifest.numRows, { values, valid });
 */
export function columnFromBuffers(
  entry: PackColumn,
  numRows: number,
  raw: Record<string, Uint8Array>,
): ColumnData | string {
  for (const role of ROLES[entry.kind]) if (!raw[role]) return `no ${role} buffer`;
  const u8 = (role: string) => raw[role]!;
  const typed = <T>(role: string, unit: number, Ctor: new (b: ArrayBuffer, o: number, n: number) => T): T | string => {
    const b = raw[role]!;
    if (b.byteLength % unit !== 0) return `${role} length ${b.byteLength}`;
    // a copy: `slice()` of a Node Buffer is a view at the same (misaligned) offset
    const aligned = b.byteOffset % unit === 0 ? b : new Uint8Array(b);
    return new Ctor(aligned.buffer as ArrayBuffer, aligned.byteOffset, aligned.byteLength / unit);
  };
  let col: ColumnData;
  if (entry.kind === 'float64') {
    const values = typed('values', 8, Float64Array);
    if (typeof values === 'string') return values;
    col = { kind: 'float64', type: entry.type as 'number', values, valid: u8('valid') };
  } else if (entry.kind === 'bool') {
    col = { kind: 'bool', type: 'boolean', values: u8('values'), valid: u8('valid') };
  } else if (entry.kind === 'utf8') {
    const offsets = typed('offsets', 4, Int32Array);
    if (typeof offsets === 'string') return offsets;
    col = { kind: 'utf8', type: 'string', bytes: u8('bytes'), offsets, valid: u8('valid') };
  } else {
    const codes = typed('codes', 4, Int32Array);
    const dictOffsets = typed('dictOffsets', 4, Int32Array);
    if (typeof codes === 'string') return codes;
    if (typeof dictOffsets === 'string') return dictOffsets;
    col = { kind: 'dict', type: 'string', codes, dictBytes: u8('dictBytes'), dictOffsets };
  }
  const rows =
    col.kind === 'dict' ? col.codes.length : col.kind === 'utf8' ? col.offsets.length - 1 : col.values.length;
  if (rows !== numRows) return `${rows} rows instead of ${numRows}`;
  if ((col.kind === 'float64' || col.kind === 'bool' || col.kind === 'utf8') && col.valid.length !== numRows)
    return `valid has ${col.valid.length} entries instead of ${numRows}`;
  if (col.kind === 'utf8' && (col.offsets[0] !== 0 || col.offsets[numRows] !== col.bytes.length))
    return 'offsets do not span the bytes';
  if (
    col.kind === 'dict' &&
    col.dictOffsets.length > 0 &&
    col.dictOffsets[col.dictOffsets.length - 1] !== col.dictBytes.length
  )
    return 'dictionary offsets do not span the dictionary';
  return col;
}
