import type { BoolColumn, ColumnData, DictColumn, Float64Column, Utf8Column } from '../../../schema/columnar.js';
import type { PartColumn, PartText } from './partColumn.js';
import { DataError } from '../errors.js';
import { MAX_COLUMN_BYTES } from '../columns/byteStore.js';

/**
 * One column from its parts, in row order, exactly as one pass over the whole file builds it:
 * typed arrays end to end; text parts joined, and dictionary-coded when every part was within
 * `dictLimit` and so are their values together (merged in first-seen order: the first part's values,
 * then the later parts' new ones, each part's codes renumbered).
 * @throws {DataError} DATA_TOO_LARGE past 2 GiB of text (as one pass); DATA_DECODE_FAILED when the parts' kinds cannot belong to one column (a bug).
 * @example joinColumn('Company', [partA, partB], 500_000)
 */
export function joinColumn(name: string, parts: PartColumn[], dictLimit: number | null): ColumnData {
  const first = parts[0];
  if (first.kind === 'float64' && parts.every((p) => p.kind === 'float64' && p.type === first.type)) {
    const typed = parts as Float64Column[];
    return { ...first, values: concat(typed.map((p) => p.values)), valid: concat(typed.map((p) => p.valid)) };
  }
  if (first.kind === 'bool' && parts.every((p) => p.kind === 'bool')) {
    const typed = parts as BoolColumn[];
    return { ...first, values: concat(typed.map((p) => p.values)), valid: concat(typed.map((p) => p.valid)) };
  }
  if (parts.every((p) => p.kind === 'part-text') && dictLimit !== null) {
    const text = parts as PartText[];
    return (
      mergeCodes(text, dictLimit) ??
      joinUtf8(
        name,
        text.map((p) => p.text),
      )
    );
  }
  if (parts.every((p) => p.kind === 'utf8') && dictLimit === null) return joinUtf8(name, parts as Utf8Column[]);
  throw new DataError('DATA_DECODE_FAILED', `the parts of a column do not match (${parts.map((p) => p.kind)})`, {
    hint: 'Parse the file on one thread: set SBIRTOOLS_CSV_PARALLEL=0, and report this as a bug.',
  });
}

/**
 * The parts' codes as one dictionary column, or null when a part, or all together, hold more than
 * `limit` distinct values. Values are matched by their hash, then their bytes.
 */
function mergeCodes(parts: PartText[], limit: number): DictColumn | null {
  if (parts.some((p) => p.coded === null)) return null;
  const base = parts[0];
  const baseCodes = base.coded!;
  // an open-addressing table over the first part's values (code + 1; 0 = empty), by their hashes
  let cap = 1024;
  while (cap < baseCodes.distinct * 2) cap *= 2;
  const slots = new Int32Array(cap);
  for (let c = 0; c < baseCodes.distinct; c++) {
    let slot = baseCodes.hashes[c] & (cap - 1);
    while (slots[slot] !== 0) slot = (slot + 1) & (cap - 1);
    slots[slot] = c + 1;
  }
  // the dictionary, as (part, row) of each value's first occurrence
  const from: Array<{ part: PartText; rows: Int32Array; count: number }> = [
    { part: base, rows: baseCodes.firstRow, count: baseCodes.distinct },
  ];
  let distinct = baseCodes.distinct;
  const remaps: Int32Array[] = [];
  for (const p of parts.slice(1)) {
    const { hashes, firstRow, distinct: size } = p.coded!;
    const remap = new Int32Array(size);
    const added = new Int32Array(size);
    let count = 0;
    for (let c = 0; c < size; c++) {
      const h = hashes[c];
      let found = -1;
      for (let slot = h & (cap - 1); slots[slot] !== 0; slot = (slot + 1) & (cap - 1)) {
        const code = slots[slot] - 1;
        if (baseCodes.hashes[code] === h && sameValue(base.text, baseCodes.firstRow[code], p.text, firstRow[c])) {
          found = code;
          break;
        }
      }
      if (found < 0) {
        if (distinct === limit) return null;
        found = distinct++;
        added[count++] = firstRow[c];
      }
      remap[c] = found;
    }
    remaps.push(remap);
    from.push({ part: p, rows: added, count });
  }
  const codes = new Int32Array(parts.reduce((n, p) => n + p.coded!.codes.length, 0));
  codes.set(baseCodes.codes);
  let at = baseCodes.codes.length;
  parts.slice(1).forEach((p, i) => {
    const src = p.coded!.codes;
    const remap = remaps[i];
    for (let r = 0; r < src.length; r++) codes[at + r] = src[r] < 0 ? -1 : remap[src[r]];
    at += src.length;
  });
  return { kind: 'dict', type: 'string', codes, ...dictionaryOf(from, distinct) };
}

function sameValue(a: Utf8Column, ra: number, b: Utf8Column, rb: number): boolean {
  const s = a.offsets[ra];
  const t = b.offsets[rb];
  const n = a.offsets[ra + 1] - s;
  if (b.offsets[rb + 1] - t !== n) return false;
  for (let k = 0; k < n; k++) if (a.bytes[s + k] !== b.bytes[t + k]) return false;
  return true;
}

function dictionaryOf(from: Array<{ part: PartText; rows: Int32Array; count: number }>, distinct: number) {
  const dictOffsets = new Int32Array(distinct + 1);
  let c = 0;
  for (const { part, rows, count } of from)
    for (let i = 0; i < count; i++, c++)
      dictOffsets[c + 1] = dictOffsets[c] + part.text.offsets[rows[i] + 1] - part.text.offsets[rows[i]];
  const dictBytes = new Uint8Array(dictOffsets[distinct]);
  c = 0;
  for (const { part, rows, count } of from)
    for (let i = 0; i < count; i++, c++) {
      const { bytes, offsets } = part.text;
      dictBytes.set(bytes.subarray(offsets[rows[i]], offsets[rows[i] + 1]), dictOffsets[c]);
    }
  return { dictBytes, dictOffsets };
}

function concat<T extends Float64Array | Int32Array | Uint8Array>(arrays: T[]): T {
  const out = new (arrays[0].constructor as new (n: number) => T)(arrays.reduce((n, a) => n + a.length, 0));
  let at = 0;
  for (const a of arrays) {
    out.set(a, at);
    at += a.length;
  }
  return out;
}

function joinUtf8(name: string, parts: Utf8Column[]): Utf8Column {
  // each part stayed under the limit; together they may not (one pass stops at the same bound)
  if (parts.reduce((n, p) => n + p.offsets[p.valid.length], 0) > MAX_COLUMN_BYTES) {
    throw new DataError(
      'DATA_TOO_LARGE',
      `Column "${name}" holds more than 2 GiB of text; split the CSV into smaller files.`,
    );
  }
  const rows = parts.reduce((n, p) => n + p.valid.length, 0);
  const offsets = new Int32Array(rows + 1);
  let row = 0;
  let base = 0;
  for (const p of parts) {
    const n = p.valid.length;
    for (let i = 1; i <= n; i++) offsets[row + i] = base + p.offsets[i];
    row += n;
    base += p.offsets[n];
  }
  return {
    kind: 'utf8',
    type: 'string',
    bytes: concat(parts.map((p) => p.bytes.subarray(0, p.offsets[p.valid.length]))),
    offsets,
    valid: concat(parts.map((p) => p.valid)),
  };
}
