/**
 * The strings of a dictionary column, decoded when first read: a row read (`t.get(col, 0)`,
 * `objects()` of a few rows, a printed head) decodes the entries it shows, not the whole dictionary
 * (Company, Address1 or UEI on the full file hold 100,000+ distinct strings: 10-20 ms of UTF-8
 * decoding on a column's first touch). A scan that needs every entry (value_counts, a filter on a
 * string, group keys) takes `all()`, which decodes what is still missing, once per session: the
 * row reads and the fast paths share one decoded copy.
 *
 * The fast paths assume one code per distinct string. A host dictionary holds each byte string
 * once (the readers and concat intern their entries; docs/dataset.md "One code per string"), so two
 * entries can only decode to one string when some held bytes that are not UTF-8 (a user's Parquet
 * file keeps them): each such run decodes to U+FFFD. Only such a dictionary's entries are compared,
 * and its codes mapped onto one code per string (`canonical`).
 */
import {
  MathMax,
  ReflectApply,
  SafeMap,
  StringFromCharCode,
  StringPrototypeSlice,
  undefinedArray,
} from '../intrinsics.js';
import { utf8Decode, utf8DecodeReplaced } from '../polyfills/utf8.js';

export class DictStrings {
  /** Entry k once decoded, undefined until then (read it directly on a hot path, `get` on a miss). */
  readonly strings: (string | undefined)[];
  private complete = false;
  /** Some entry held bytes that are not UTF-8: two entries may be one string. */
  private lossy = false;
  /** The codes with one code per string, once asked (`canonical`) of a lossy dictionary. */
  private remapped: Int32Array | null = null;

  constructor(
    private readonly bytes: Uint8Array,
    private readonly offsets: Int32Array,
  ) {
    this.strings = undefinedArray<string>(MathMax(0, offsets.length - 1));
  }

  /** The number of entries. */
  get size(): number {
    return this.strings.length;
  }

  /** Entry `k` (0 <= k < size), decoded on its first read. */
  get(k: number): string {
    const s = this.strings[k];
    if (s !== undefined) return s;
    return (this.strings[k] = this.decode(k));
  }

  /** Every entry, in code order (decoded now where still missing); the caller must not write to it. */
  all(): readonly string[] {
    if (!this.complete) {
      const strings = this.strings;
      const { bytes, offsets } = this;
      // an entry of ASCII bytes is a slice of the bytes read as one Latin-1 string (a character per
      // byte: what utf8Decode makes of them), not a decoder call of its own: Company's 36,000
      // entries took a call, a view and an argument list each, cold in a new isolate
      const text = bytes.length <= BULK_MAX_BYTES ? latin1(bytes) : null;
      for (let k = 0; k < strings.length; k++) {
        if (strings[k] !== undefined) continue;
        const start = offsets[k]!;
        const end = offsets[k + 1]!;
        let ascii = text !== null;
        for (let i = start; ascii && i < end; i++) if (bytes[i]! > 0x7f) ascii = false;
        strings[k] = ascii ? (ReflectApply(StringPrototypeSlice, text, [start, end]) as string) : this.decode(k);
      }
      this.complete = true;
    }
    return this.strings as string[];
  }

  /**
   * `codes` (this dictionary's column) with each code replaced by the first code of its string:
   * `codes` itself unless some entry held bytes that are not UTF-8, else a copy made once (the
   * fast paths' session caches key on it) in which equal strings share one code.
   * @example sourceOf: { codes: dictStrings(raw).canonical(raw.codes), dict: dictStrings(raw).all() }
   */
  canonical(codes: Int32Array): Int32Array {
    const dict = this.all();
    if (!this.lossy) return codes;
    if (this.remapped === null) this.remapped = firstCodes(dict, codes);
    return this.remapped;
  }

  private decode(k: number): string {
    const s = utf8Decode(this.bytes, this.offsets[k], this.offsets[k + 1]);
    if (utf8DecodeReplaced()) this.lossy = true;
    return s;
  }
}

/** Dictionaries up to this size (16 MiB) are read as one Latin-1 string by all(); larger ones an entry at a time. */
const BULK_MAX_BYTES = 16 * 2 ** 20;
const CHUNK = 8192;

/** `bytes` as a string of one character per byte (U+0000-U+00FF). */
function latin1(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i += CHUNK)
    out += ReflectApply(StringFromCharCode, null, bytes.subarray(i, i + CHUNK) as unknown as number[]) as string;
  return out;
}

/** `codes` with each code mapped to the first entry of `dict` holding the same string (`codes` when none repeats). */
function firstCodes(dict: readonly string[], codes: Int32Array): Int32Array {
  const first = new SafeMap<string, number>();
  const map = new Int32Array(dict.length);
  let repeats = false;
  for (let k = 0; k < dict.length; k++) {
    const s = dict[k]!;
    const c = first.get(s);
    if (c === undefined) {
      first.set(s, k);
      map[k] = k;
    } else {
      map[k] = c;
      repeats = true;
    }
  }
  if (!repeats) return codes;
  const out = new Int32Array(codes.length);
  for (let i = 0; i < codes.length; i++) {
    const c = codes[i]!;
    out[i] = c < 0 || c >= map.length ? c : map[c]!;
  }
  return out;
}
