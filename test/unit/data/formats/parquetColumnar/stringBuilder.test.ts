// StringBuilder.addIndexed (rows of a dictionary-coded Parquet page in one loop) builds the column
// `add` builds row by row, including when the column dictionary fills up in the middle of a page
// and the rest of the rows become plain text (StringSink only gets there when its distinct-count
// proof misses, so the switch is driven here directly).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hashBytes, viewOf } from '../../../../../src/data/columns/hashBytes.js';
import { StringBuilder } from '../../../../../src/data/formats/parquetColumnar/stringBuilder.js';

const enc = new TextEncoder();

/** A Parquet dictionary's entries back to back, with their ranges and hashes. */
function dictionary(entries: string[]) {
  const parts = entries.map((e) => enc.encode(e));
  const buf = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  const begin = new Int32Array(entries.length);
  const end = new Int32Array(entries.length);
  let at = 0;
  parts.forEach((p, i) => {
    buf.set(p, at);
    begin[i] = at;
    at += p.length;
    end[i] = at;
  });
  const view = viewOf(buf);
  const hashes = Int32Array.from(entries, (_, i) => hashBytes(view, buf, begin[i], end[i]));
  return { buf, begin, end, view, hashes };
}

describe('StringBuilder.addIndexed = add row by row', () => {
  it('any indices, any dictionary cap (filled mid-page or not), one page or two', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.string({ maxLength: 6 }), { minLength: 1, maxLength: 30 }),
        fc.integer({ min: 1, max: 40 }),
        fc.nat(200),
        fc.array(fc.nat(), { maxLength: 120 }),
        (entries, maxDict, splitAt, raw) => {
          const d = dictionary(entries);
          const idx = Int32Array.from(raw, (r) => r % entries.length);
          const split = Math.min(splitAt, idx.length);
          const fast = new StringBuilder(idx.length, maxDict, idx.length);
          const codeOf = new Int32Array(entries.length).fill(-1);
          fast.addIndexed(idx.subarray(0, split), codeOf, d.view, d.buf, d.begin, d.end, d.hashes);
          fast.addIndexed(idx.subarray(split), codeOf, d.view, d.buf, d.begin, d.end, d.hashes);
          const slow = new StringBuilder(idx.length, maxDict, idx.length);
          for (const e of idx) slow.add(d.view, d.buf, d.begin[e], d.end[e], d.hashes[e]);
          expect(fast.finish()).toEqual(slow.finish());
        },
      ),
      { numRuns: 500 },
    );
  });
});
