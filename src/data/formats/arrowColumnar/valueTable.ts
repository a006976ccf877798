/**
 * The distinct byte strings of a column's Arrow dictionaries, each with an id (0, 1, ... in the
 * order first added) and its bytes kept back to back in `pool`: equal values met in different
 * dictionaries (a replacement, a delta, a repeated entry) get one id. Open addressing on a
 * 32-bit FNV-1a hash, as dictEncode.ts.
 * @example const t = new ValueTable(); const id = t.add(bytes, 0, bytes.length); t.pool.subarray(t.start(id), t.start(id + 1));
 */
export class ValueTable {
  /** The values' bytes, back to back (only the first `start(size)` bytes are used). */
  pool: Uint8Array = new Uint8Array(1024);
  /** size + 1 offsets into pool. */
  private ends: Int32Array = new Int32Array(257);
  private hashes: Int32Array = new Int32Array(256);
  /** id + 1 per slot; 0 = empty. */
  private slots: Int32Array = new Int32Array(1024);
  /** Distinct values so far. */
  size = 0;

  /** Where value `id`'s bytes start in `pool` (`start(id + 1)` is where they end). */
  start(id: number): number {
    return this.ends[id];
  }

  /** The id of the bytes src[s..e), added if new. */
  add(src: Uint8Array, s: number, e: number): number {
    let h = 0x811c9dc5 | 0;
    for (let k = s; k < e; k++) h = Math.imul(h ^ src[k], 16777619);
    const mask = this.slots.length - 1;
    let slot = h & mask;
    for (;;) {
      const id = this.slots[slot] - 1;
      if (id < 0) break;
      if (this.hashes[id] === h && this.equals(id, src, s, e)) return id;
      slot = (slot + 1) & mask;
    }
    const id = this.size++;
    if (id + 1 >= this.hashes.length) {
      this.hashes = grow(this.hashes, this.hashes.length * 2);
      this.ends = grow(this.ends, this.hashes.length + 1);
    }
    const at = this.ends[id];
    if (at + e - s > this.pool.length) {
      const pool = new Uint8Array(Math.max(this.pool.length * 2, at + e - s));
      pool.set(this.pool.subarray(0, at));
      this.pool = pool;
    }
    for (let k = s, o = at; k < e; k++, o++) this.pool[o] = src[k];
    this.ends[id + 1] = at + e - s;
    this.hashes[id] = h;
    this.slots[slot] = id + 1;
    if (this.size * 2 > this.slots.length) this.rehash();
    return id;
  }

  private equals(id: number, src: Uint8Array, s: number, e: number): boolean {
    const a = this.ends[id];
    if (this.ends[id + 1] - a !== e - s) return false;
    for (let k = 0; k < e - s; k++) if (this.pool[a + k] !== src[s + k]) return false;
    return true;
  }

  private rehash(): void {
    const slots = new Int32Array(this.slots.length * 2);
    const mask = slots.length - 1;
    for (let id = 0; id < this.size; id++) {
      let slot = this.hashes[id] & mask;
      while (slots[slot] !== 0) slot = (slot + 1) & mask;
      slots[slot] = id + 1;
    }
    this.slots = slots;
  }
}

function grow(a: Int32Array, size: number): Int32Array {
  const b = new Int32Array(size);
  b.set(a);
  return b;
}
