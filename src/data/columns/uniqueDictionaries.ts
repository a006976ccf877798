import type { ColumnarTable, DictColumn } from '../../../schema/columnar.js';

/**
 * `t` with every dictionary column holding each string once: entries that decode to the same
 * string (the same bytes twice, or bytes that are not UTF-8 and decode to the same U+FFFD text)
 * merged into the first, the codes renumbered. The guest's fast paths count, group and filter a
 * dictionary column by its codes and assume one code per string (docs/dataset.md "One code per
 * string"); our readers and encoders intern their entries, a caller's own columnar table need not.
 * Columns (and `t`) that already hold each string once are returned as they are, uncopied.
 * @example tables.push({ name, kind: 'columnar', table: uniqueDictionaries({ ...t, name }) })
 */
export function uniqueDictionaries(t: ColumnarTable): ColumnarTable {
  let changed = false;
  const columns = t.columns.map((c) => {
    if (c.data.kind !== 'dict') return c;
    const data = uniqueDictionary(c.data);
    if (data === c.data) return c;
    changed = true;
    return { ...c, data };
  });
  return changed ? { ...t, columns } : t;
}

function uniqueDictionary(d: DictColumn): DictColumn {
  const { dictBytes, dictOffsets, codes } = d;
  const size = dictOffsets.length - 1;
  if (size < 2 || !spans(dictOffsets, dictBytes.length)) return d; // a damaged dictionary is left to the checks that name it
  // the guest's decoder (prelude/polyfills/utf8.ts) keeps a leading BOM and makes U+FFFD of bad bytes, as this one
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  const first = new Map<string, number>();
  const map = new Int32Array(size);
  const kept: number[] = [];
  for (let k = 0; k < size; k++) {
    const s = decoder.decode(dictBytes.subarray(dictOffsets[k], dictOffsets[k + 1]));
    let c = first.get(s);
    if (c === undefined) {
      first.set(s, (c = kept.length));
      kept.push(k);
    }
    map[k] = c;
  }
  if (kept.length === size) return d;
  const offsets = new Int32Array(kept.length + 1);
  kept.forEach((k, j) => (offsets[j + 1] = offsets[j] + dictOffsets[k + 1] - dictOffsets[k]));
  const bytes = new Uint8Array(offsets[kept.length]);
  kept.forEach((k, j) => bytes.set(dictBytes.subarray(dictOffsets[k], dictOffsets[k + 1]), offsets[j]));
  const out = new Int32Array(codes.length);
  // a code outside the dictionary stays as it is: the checks that reject it see it unchanged
  for (let i = 0; i < codes.length; i++) {
    const c = codes[i];
    out[i] = c < 0 || c >= size ? c : map[c];
  }
  return { ...d, codes: out, dictBytes: bytes, dictOffsets: offsets };
}

/** Whether `offsets` rise from 0 and stay within `bytes` bytes. */
function spans(offsets: Int32Array, bytes: number): boolean {
  if (offsets[0] !== 0) return false;
  for (let k = 1; k < offsets.length; k++) if (offsets[k] < offsets[k - 1]) return false;
  return offsets[offsets.length - 1] <= bytes;
}
