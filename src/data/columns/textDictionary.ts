import { MAX_DICT_SIZE } from './dictEncode.js';
import { growI32, growU8 } from './grow.js';

/** The most bytes a text column holds (its offsets are Int32). */
export const MAX_BYTES = 0x7fffffff;

/**
 * The distinct values of a text column, in first-seen order (codes 0, 1, ...), as UTF-8 bytes +
 * offsets, with an open-addressing hash table over them (slot = code + 1, 0 for empty; the hash
 * of each code beside it). Hashes come from the caller (hashBytes); a value whose hash and length
 * match is compared four bytes at a time, so a lookup of a repeated value costs little more than
 * the cache misses of the table and the bytes.
 * @example const d = new TextDictionary(); d.find(v, b, 0, 3, h) < 0 && d.insert(b, 0, 3, h);
 */
export class TextDictionary {
  size = 0;
  bytes: Uint8Array = new Uint8Array(1 << 12);
  length = 0;
  offsets: Int32Array = new Int32Array(257);
  private view = new DataView(this.bytes.buffer);
  private hashes: Int32Array = new Int32Array(256);
  private slots: Int32Array = new Int32Array(1024);
  /** The slot where the last `find` stopped: `insert` uses it for the value `find` did not find. */
  private slot = 0;

  /** @param maxSize the most values it holds (`insert` returns -1 past it). @default MAX_DICT_SIZE */
  constructor(readonly maxSize: number = MAX_DICT_SIZE) {}

  /** The code of `buf[s, e)` (hash `h`; `view` is a DataView of `buf`), or -1 when it is not in the dictionary. */
  find(view: DataView, buf: Uint8Array, s: number, e: number, h: number): number {
    const slots = this.slots;
    const mask = slots.length - 1;
    const len = e - s;
    let slot = h & mask;
    for (;;) {
      const code = slots[slot] - 1;
      if (code < 0) break;
      if (this.hashes[code] === h) {
        const a = this.offsets[code];
        if (this.offsets[code + 1] - a === len) {
          const d = this.view;
          let k = 0;
          while (k + 4 <= len && d.getInt32(a + k, true) === view.getInt32(s + k, true)) k += 4;
          if (k + 4 > len) {
            const bytes = this.bytes;
            while (k < len && bytes[a + k] === buf[s + k]) k++;
            if (k === len) return code;
          }
        }
      }
      slot = (slot + 1) & mask;
    }
    this.slot = slot;
    return -1;
  }

  /**
   * Adds `buf[s, e)`, which the last `find` (with the same arguments) did not find, and returns
   * its code; -1 when the dictionary already has `maxSize` values.
   */
  insert(buf: Uint8Array, s: number, e: number, h: number): number {
    if (this.size >= this.maxSize) return -1;
    const len = e - s;
    const code = this.size++;
    this.hashes = growI32(this.hashes, code + 1);
    this.offsets = growI32(this.offsets, code + 2);
    this.hashes[code] = h;
    const start = this.length;
    if (start + len > this.bytes.length) {
      this.bytes = growU8(this.bytes, start + len);
      this.view = new DataView(this.bytes.buffer);
    }
    const d = this.bytes;
    if (len < 64) for (let k = s, at = start; k < e; k++) d[at++] = buf[k];
    else d.set(buf.subarray(s, e), start);
    this.length = start + len;
    this.offsets[code + 1] = this.length;
    this.slots[this.slot] = code + 1;
    if (this.size * 2 > this.slots.length) this.rehash(this.slots.length * 2);
    return code;
  }

  /** Room for `more` values beyond those held, so the table is not rebuilt step by step while they come. */
  reserve(more: number): void {
    const want = Math.min(this.maxSize, this.size + more);
    this.hashes = growI32(this.hashes, want);
    this.offsets = growI32(this.offsets, want + 1);
    let slots = this.slots.length;
    while (want * 2 > slots) slots *= 2;
    if (slots > this.slots.length) this.rehash(slots);
  }

  private rehash(cap: number): void {
    const slots = new Int32Array(cap);
    for (let code = 0; code < this.size; code++) {
      let slot = this.hashes[code] & (cap - 1);
      while (slots[slot] !== 0) slot = (slot + 1) & (cap - 1);
      slots[slot] = code + 1;
    }
    this.slots = slots;
  }
}
