// A long text column decoded in two parts (lazyParquet/decodeColumn.ts): the parts' PLAIN pages are
// copied out as they come (parquetColumnar/textStage.ts), the first part's offsets and validity
// have room for every row so the join writes the second part after them, and the second part's
// buffers are given back as soon as the join has copied them (releaseBuffers.ts). The column is
// the one a single decode gives.
import { describe, expect, it } from 'vitest';
import type { ColumnData, Utf8Column } from '../../../../../schema/columnar.js';
import { joinColumns } from '../../../../../src/data/formats/lazyParquet/joinColumns.js';
import { releaseParts } from '../../../../../src/data/columns/releaseBuffers.js';
import { StringSink } from '../../../../../src/data/formats/parquetColumnar/stringSink.js';
import { plainByteArray } from '../../../../helpers/plainByteArray.js';

const resizable = typeof (ArrayBuffer.prototype as { resize?: unknown }).resize === 'function';

/** Rows [from, to) of `all` through a StringSink as lazyParquet's column worker makes one part of it. */
function part(all: Array<string | null>, from: number, to: number, pageRows: number): ColumnData {
  const first = from === 0 && to < all.length;
  const sink = new StringSink(
    to - from,
    100,
    undefined,
    to - from === all.length ? undefined : all.length,
    first ? all.length : undefined,
  );
  for (let at = from; at < to; at += pageRows) {
    const rows = all.slice(at, Math.min(to, at + pageRows));
    const values = rows.filter((r): r is string => r !== null);
    const buf = plainByteArray(values);
    const defs = values.length === rows.length ? null : Int32Array.from(rows, (r) => (r === null ? 0 : 1));
    sink.page({ buf, pos: 0, end: buf.length, encoding: 'PLAIN', rows: rows.length, defs, nonNull: values.length });
  }
  return sink.finish();
}

function rowsOf(c: ColumnData): Array<string | null> {
  const u = c as Utf8Column;
  return Array.from(u.valid, (v, i) =>
    v ? Buffer.from(u.bytes.subarray(u.offsets[i], u.offsets[i + 1])).toString() : null,
  );
}

describe('a staged text column joined from two parts', () => {
  it.each([
    ['no nulls', (i: number) => `abstract ${i} ${'é'.repeat(i % 5)}`],
    ['nulls', (i: number) => (i % 17 === 3 ? null : `abstract ${i} 😀`)],
  ])('%s: the whole column, the first part grown in place, the second part released', (_what, value) => {
    const all = Array.from({ length: 3001 }, (_, i) => value(i));
    const one = part(all, 0, all.length, 250);
    expect(one.kind).toBe('utf8');
    const a = part(all, 0, 1400, 250) as Utf8Column;
    const b = part(all, 1400, all.length, 250) as Utf8Column;
    // the first part's offsets and validity have room for every row (joinColumns fills the rest in)
    expect(a.offsets.buffer.byteLength).toBe((all.length + 1) * 4);
    expect(a.valid.buffer.byteLength).toBe(all.length);
    const bBytes = b.bytes.buffer;
    const joined = joinColumns([a, b]) as Utf8Column;
    releaseParts([a, b], joined);
    expect(rowsOf(joined)).toEqual(all);
    expect(Buffer.from(joined.bytes).equals(Buffer.from((one as Utf8Column).bytes))).toBe(true);
    expect(Array.from(joined.offsets)).toEqual(Array.from((one as Utf8Column).offsets));
    expect(Array.from(joined.valid)).toEqual(Array.from((one as Utf8Column).valid));
    expect(joined.offsets.buffer).toBe(a.offsets.buffer);
    expect(joined.valid.buffer).toBe(a.valid.buffer);
    expect(joined.offsets.length).toBe(all.length + 1);
    if (resizable) {
      expect(joined.bytes.buffer).toBe(a.bytes.buffer);
      // the second part's text is given back at once (a resizable buffer: resized to nothing)
      expect(bBytes.byteLength).toBe(0);
    }
  });

  it('releases nothing the joined column uses (a first part whose arrays are kept as they are)', () => {
    const all = Array.from({ length: 900 }, (_, i) => `v${i}`);
    const a = part(all, 0, 400, 100) as Utf8Column;
    const b = part(all, 400, 900, 100) as Utf8Column;
    const joined = joinColumns([a, b]) as Utf8Column;
    releaseParts([a, b], joined);
    for (const arr of [joined.bytes, joined.offsets, joined.valid]) expect(arr.buffer.byteLength).toBeGreaterThan(0);
    expect(rowsOf(joined)).toEqual(all);
  });
});
