/**
 * The strings of a dictionary column, decoded when first read: a row read (`t.get(col, 0)`,
 * `objects()` of a few rows, a printed head) decodes the entries it shows, not the whole dictionary
 * (Company, Address1 or UEI on the full file hold 100,000+ distinct strings: 10-20 ms of UTF-8
 * decoding on a column's first touch). A scan that needs every entry (value_counts, a filter on a
 * string, group keys) takes `all()`, which decodes what is still missing, once per session: the
 * row reads and the fast paths share one decoded copy.
 */
import { utf8Decode } from '../polyfills/utf8.js';

export class DictStrings {
  /** Entry k once decoded, a hole until then (read it directly on a hot path, `get` on a miss). */
  readonly strings: (string | undefined)[];
  private complete = false;

  constructor(
    private readonly bytes: Uint8Array,
    private readonly offsets: Int32Array,
  ) {
    this.strings = new Array<string | undefined>(Math.max(0, offsets.length - 1));
  }

  /** The number of entries. */
  get size(): number {
    return this.strings.length;
  }

  /** Entry `k` (0 <= k < size), decoded on its first read. */
  get(k: number): string {
    const s = this.strings[k];
    if (s !== undefined) return s;
    return (this.strings[k] = utf8Decode(this.bytes, this.offsets[k], this.offsets[k + 1]));
  }

  /** Every entry, in code order (decoded now where still missing); the caller must not write to it. */
  all(): readonly string[] {
    if (!this.complete) {
      const { strings, bytes, offsets } = this;
      for (let k = 0; k < strings.length; k++)
        if (strings[k] === undefined) strings[k] = utf8Decode(bytes, offsets[k], offsets[k + 1]);
      this.complete = true;
    }
    return this.strings as string[];
  }
}
