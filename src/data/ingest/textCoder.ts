import type { DictColumn } from '../../../schema/columnar.js';
import { growI32 } from '../columns/grow.js';
import type { ByteStore } from '../columns/byteStore.js';

/** Values coded before the first check of how much a column repeats; later checks at each doubling. */
const FIRST_CHECK = 65_536;

/**
 * A CSV text column's dictionary codes, made as its cells are read (utf8Builder.ts): each value is
 * looked up by its FNV-1a hash in a table of `[hash, code + 1]` pairs and compared with a compact
 * copy of the distinct values, as dictEncode.ts's dictCodes does once the column is built. The
 * column's text is then never held (a 5M-row column of company names: ~20 MB of codes where its
 * text, offsets and validity were ~95 MB), nor hashed again at the end.
 *
 * Values keep first-seen order and null is code -1, so {@link column} is dictEncode's column of the
 * same cells, byte for byte. {@link add} refuses a value once the column has more distinct values
 * than a dictionary may hold, or when it repeats too little to be worth coding ({@link
 * worthCoding}); the builder then writes the text of the rows so far ({@link writeText}) and goes on
 * as text, deciding at the end exactly as before.
 */
export class TextCoder {
  length = 0;
  distinct = 0;
  private codes: Int32Array = new Int32Array(1024);
  private nonNull = 0;
  private cap = 1024;
  private table: Int32Array = new Int32Array(this.cap * 2);
  private hashes: Int32Array = new Int32Array(256);
  private seenOffsets: Int32Array = new Int32Array(257);
  private seen: Uint8Array = new Uint8Array(4096);
  private checkAt = FIRST_CHECK;

  /** @param maxDict the most distinct values the column's dictionary may hold */
  constructor(private readonly maxDict: number) {}

  /** Codes the value `buf[s, e)`; false (nothing added) when the column is better kept as text. */
  add(buf: Uint8Array, s: number, e: number): boolean {
    let h = 0x811c9dc5 | 0;
    for (let k = s; k < e; k++) h = Math.imul(h ^ buf[k], 16777619);
    const cap = this.cap;
    const table = this.table;
    let slot = h & (cap - 1);
    let code = -1;
    for (;;) {
      const c = table[slot * 2 + 1] - 1;
      if (c < 0) break;
      if (table[slot * 2] === h && this.same(c, buf, s, e)) {
        code = c;
        break;
      }
      slot = (slot + 1) & (cap - 1);
    }
    if (code < 0) {
      if (this.distinct === this.maxDict) return false;
      code = this.intern(h, slot, buf, s, e);
    }
    const i = this.length;
    if (i === this.codes.length) this.codes = growI32(this.codes, i + 1);
    this.codes[i] = code;
    this.length = i + 1;
    return ++this.nonNull < this.checkAt || this.worthCoding();
  }

  addNull(): void {
    const i = this.length;
    if (i === this.codes.length) this.codes = growI32(this.codes, i + 1);
    this.codes[i] = -1;
    this.length = i + 1;
  }

  /**
   * Whether the values so far repeat enough to go on coding: the number of distinct values that
   * `n` values drawn at random with `dups` repeats point to is about n^2 / (2 dups); past twice the
   * dictionary's limit (an abstract, an id: no repeats in the first 65,536) the column is text. A
   * guess for the cost only: a column kept as text is decided at the end as before.
   */
  private worthCoding(): boolean {
    const n = this.nonNull;
    this.checkAt *= 2;
    const dups = n - this.distinct;
    if (dups * 4 * this.maxDict >= n * n) return true;
    this.length--; // the value just coded is given back: the caller writes it as text
    this.nonNull--;
    return false;
  }

  /** The dictionary column of the rows coded (exact arrays; the coder is not used after). */
  column(): DictColumn {
    const n = this.length;
    const d = this.distinct;
    const codes = this.codes.length === n ? this.codes : this.codes.slice(0, n);
    return {
      kind: 'dict',
      type: 'string',
      codes,
      dictBytes: this.seen.slice(0, this.seenOffsets[d]),
      dictOffsets: this.seenOffsets.slice(0, d + 1),
    };
  }

  /**
   * Writes the text of the rows coded so far into `store`, with their offsets and validity from
   * row 0 (as the builder would have written them); returns the arrays (grown as needed).
   */
  writeText(
    store: ByteStore,
    offsets: Int32Array,
    valid: Uint8Array,
  ): { offsets: Int32Array; valid: Uint8Array; bytes: number } {
    const n = this.length;
    if (offsets.length < n + 1) offsets = growI32(offsets, n + 1);
    if (valid.length < n) valid = grownU8(valid, n);
    const seen = Buffer.from(this.seen.buffer, this.seen.byteOffset, this.seen.byteLength);
    const so = this.seenOffsets;
    let at = store.length;
    for (let r = 0; r < n; r++) {
      const c = this.codes[r];
      if (c < 0) valid[r] = 0;
      else {
        at = store.append(seen, so[c], so[c + 1]);
        valid[r] = 1;
      }
      offsets[r + 1] = at;
    }
    return { offsets, valid, bytes: at };
  }

  private same(code: number, buf: Uint8Array, s: number, e: number): boolean {
    const a = this.seenOffsets[code];
    if (this.seenOffsets[code + 1] - a !== e - s) return false;
    const seen = this.seen;
    for (let k = 0; k < e - s; k++) if (seen[a + k] !== buf[s + k]) return false;
    return true;
  }

  private intern(h: number, slot: number, buf: Uint8Array, s: number, e: number): number {
    const code = this.distinct;
    if (code === this.hashes.length) {
      this.hashes = growI32(this.hashes, code + 1);
      this.seenOffsets = growI32(this.seenOffsets, this.hashes.length + 1);
    }
    const at = this.seenOffsets[code];
    if (at + (e - s) > this.seen.length) this.seen = grownU8(this.seen, at + (e - s), at);
    this.seen.set(buf.subarray(s, e), at);
    this.seenOffsets[code + 1] = at + (e - s);
    this.hashes[code] = h;
    this.table[slot * 2] = h;
    this.table[slot * 2 + 1] = code + 1;
    this.distinct = code + 1;
    if (this.distinct * 2 > this.cap) this.rehash(this.cap * 2);
    return code;
  }

  private rehash(cap: number): void {
    const table = new Int32Array(cap * 2);
    for (let code = 0; code < this.distinct; code++) {
      let slot = this.hashes[code] & (cap - 1);
      while (table[slot * 2 + 1] !== 0) slot = (slot + 1) & (cap - 1);
      table[slot * 2] = this.hashes[code];
      table[slot * 2 + 1] = code + 1;
    }
    this.table = table;
    this.cap = cap;
  }
}

/** `a` grown to hold at least `need` bytes (doubling), its first `used` bytes kept. */
function grownU8(a: Uint8Array, need: number, used = a.length): Uint8Array {
  const b = new Uint8Array(Math.max(need, a.length * 2));
  b.set(a.subarray(0, used));
  return b;
}

/**
 * `buf[s, e)` with each `""` pair collapsed, written to `out` from 0 (as ByteStore.appendUnescaped
 * writes it: a quote is kept and the byte after it skipped); returns the length written.
 */
export function unescapeInto(buf: Uint8Array, s: number, e: number, out: Uint8Array): number {
  let n = 0;
  for (let k = s; k < e; k++) {
    const c = buf[k];
    out[n++] = c;
    if (c === 0x22) k++;
  }
  return n;
}
