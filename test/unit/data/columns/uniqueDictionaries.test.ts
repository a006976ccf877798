// A caller's own columnar table reaches the guest with one dictionary entry per string: the fast
// paths group and count by code (repeatedDictionary.test.ts runs the whole path).
import { describe, expect, test } from 'vitest';
import type { ColumnarTable, DictColumn } from '../../../../schema/columnar.js';
import { uniqueDictionaries } from '../../../../src/data/columns/uniqueDictionaries.js';

function dictOf(entries: Uint8Array[], codes: number[]): DictColumn {
  const dictOffsets = new Int32Array(entries.length + 1);
  entries.forEach((e, j) => (dictOffsets[j + 1] = dictOffsets[j]! + e.length));
  const dictBytes = new Uint8Array(dictOffsets[entries.length]!);
  entries.forEach((e, j) => dictBytes.set(e, dictOffsets[j]!));
  return { kind: 'dict', type: 'string', codes: Int32Array.from(codes), dictBytes, dictOffsets };
}
const text = (s: string) => new TextEncoder().encode(s);
const table = (data: DictColumn): ColumnarTable => ({
  name: 't',
  numRows: data.codes.length,
  columns: [{ name: 'K', type: 'string', kind: 'dict', data }],
});
const strings = (d: DictColumn) =>
  Array.from(d.codes, (c) =>
    c < 0
      ? null
      : new TextDecoder('utf-8', { ignoreBOM: true }).decode(
          d.dictBytes.subarray(d.dictOffsets[c], d.dictOffsets[c + 1]),
        ),
  );

describe('uniqueDictionaries', () => {
  test('repeated entries (same bytes, or bytes that decode to one string) become the first', () => {
    const entries = [
      text('b'),
      text('a'),
      text('b'),
      Uint8Array.of(0x7a, 0xfe),
      Uint8Array.of(0x7a, 0xff),
      text('\uFEFFa'),
    ];
    const before = dictOf(entries, [0, 1, 2, -1, 3, 4, 5, 2]);
    const out = uniqueDictionaries(table(before)).columns[0]!.data as DictColumn;
    expect(Array.from(out.codes)).toEqual([0, 1, 0, -1, 2, 2, 3, 0]);
    expect(out.dictOffsets.length).toBe(5); // b, a, z\uFFFD, \uFEFFa (a byte order mark is kept, as the guest keeps it)
    expect(strings(out)).toEqual(strings(before));
  });

  test('a table that holds each string once is returned as it is', () => {
    const t = table(dictOf([text('a'), text('b')], [1, 0, -1]));
    expect(uniqueDictionaries(t)).toBe(t);
  });

  test('damaged offsets are left to the checks that name them', () => {
    const d = dictOf([text('a'), text('a')], [0, 1]);
    const bad = { ...d, dictOffsets: Int32Array.of(0, 5, 2) };
    const t = table(bad);
    expect(uniqueDictionaries(t)).toBe(t);
  });
});
