/**
 * The session's cache of decoded text pages (all text columns share one budget), kept between
 * runs so a second scan of `Abstract` reads strings already in the isolate.
 *
 * Three tiers, chosen so the cache never costs the guest its memory limit:
 * - held: pages kept strongly, at most `budgetBytes` during a run. Past it, the page used just
 *   before the current one is dropped (most-recently-used eviction: a repeated scan of a column
 *   larger than the budget keeps hitting the pages it kept, where LRU would miss every page);
 * - after each run (a microtask at the end of the job) held pages beyond `idleBytes` become
 *   weak: a later run that needs the memory gets it back at the next major GC, one that reads
 *   the text again finds them if no GC took them;
 * - anything else is fetched again from the host (a memcpy and a native decode there).
 * WeakRefs are only created at the end of a job: V8 keeps every WeakRef target made (or
 * dereferenced) during a job alive until it ends, so making them mid-scan would pin the column.
 * A page taken back from its WeakRef and dropped again in the same job stays alive until the
 * job ends, so it still counts against the budget until then.
 */
import {
  NativePromise,
  NativeWeakRef,
  PromisePrototypeThen,
  ReflectApply,
  WeakRefPrototypeDeref,
} from '../intrinsics.js';

/** One decoded page: its row strings (null for a null row) and their estimated heap cost. */
export interface CachedPage {
  rows: Array<string | null>;
  bytes: number;
  /** True when every row fits Latin-1 (so no row holds a surrogate pair); set by the pager. */
  narrow?: boolean;
}

/** Where one page of one column lives in the cache (the column's pager owns the slots). */
export interface Slot {
  page: CachedPage | null;
  weak: WeakRef<CachedPage> | null;
  stamp: number;
  /** The job in which the page was last taken back from its WeakRef (V8 keeps it alive until that job ends). */
  derefJob: number;
}

/** Budgets of a session's text cache, from the isolate's memory limit. */
export function textBudgets(memoryLimitMb: number | undefined): { budgetBytes: number; idleBytes: number } {
  const limit = (Number(memoryLimitMb) > 0 ? Number(memoryLimitMb) : 128) * 1024 * 1024;
  // A run that scans text may keep 75% of the limit in decoded pages; between runs 60% stays
  // strongly held (the full Abstract column, ~300 MB, fits the standard preset's 512 MB), the
  // rest only weakly: a later run always has at least 40% of the limit for its own data.
  // Weak pages rarely survive long (any major GC takes them), so a smaller strong share would
  // make repeated scans of Abstract re-fetch most pages (measured in docs/dataset.md).
  return { budgetBytes: Math.floor(limit * 0.75), idleBytes: Math.floor(limit * 0.6) };
}

/** Strong/weak page cache with one byte budget; see the file comment. */
export class TextCache {
  private held: Slot[] = [];
  private heldBytes = 0;
  /** Pages dropped in this job after a WeakRef deref: V8 keeps them until the job ends. */
  private pinnedBytes = 0;
  private job = 1;
  private clock = 0;
  private settleQueued = false;
  private readonly resolved = new NativePromise<void>((r) => r());

  constructor(
    readonly budgetBytes: number,
    readonly idleBytes: number,
  ) {}

  /** Bytes of the pages held strongly now. */
  get bytesHeld(): number {
    return this.heldBytes;
  }

  /** The slot's page if the cache still has it (a weak page is held again), else null. */
  lookup(slot: Slot): CachedPage | null {
    if (slot.page) {
      slot.stamp = ++this.clock;
      return slot.page;
    }
    if (slot.weak && WeakRefPrototypeDeref) {
      const page = ReflectApply(WeakRefPrototypeDeref, slot.weak, []) as CachedPage | undefined;
      slot.weak = null;
      if (page) {
        slot.derefJob = this.job;
        this.hold(slot, page);
        return page;
      }
    }
    return null;
  }

  /** Holds a freshly fetched page, dropping others past the budget. */
  hold(slot: Slot, page: CachedPage): void {
    slot.page = page;
    slot.weak = null;
    slot.stamp = ++this.clock;
    this.held.push(slot);
    this.heldBytes += page.bytes;
    while (this.heldBytes + this.pinnedBytes > this.budgetBytes && this.held.length > 1) this.drop(this.victim(slot));
    this.queueSettle();
  }

  /** The held slot used most recently before `current`. */
  private victim(current: Slot): Slot {
    let best: Slot | undefined;
    for (const s of this.held) if (s !== current && (!best || s.stamp > best.stamp)) best = s;
    return best!;
  }

  private drop(slot: Slot): void {
    const i = this.held.indexOf(slot);
    if (i >= 0) {
      this.held[i] = this.held[this.held.length - 1]!;
      this.held.length--;
    }
    if (slot.page) {
      this.heldBytes -= slot.page.bytes;
      if (slot.derefJob === this.job) this.pinnedBytes += slot.page.bytes;
    }
    slot.page = null;
  }

  private queueSettle(): void {
    if (this.settleQueued) return;
    this.settleQueued = true;
    ReflectApply(PromisePrototypeThen, this.resolved, [() => this.settle()]);
  }

  /** End of a job: keep the earliest used pages up to idleBytes strongly, the others weakly. */
  private settle(): void {
    this.settleQueued = false;
    this.job++;
    this.pinnedBytes = 0;
    if (this.heldBytes <= this.idleBytes) return;
    const order = this.held.slice().sort((a, b) => a.stamp - b.stamp);
    let kept = 0;
    const held: Slot[] = [];
    for (const s of order) {
      const page = s.page!;
      if (kept + page.bytes <= this.idleBytes) {
        kept += page.bytes;
        held.push(s);
      } else {
        s.weak = NativeWeakRef ? new NativeWeakRef(page) : null;
        s.page = null;
      }
    }
    this.held = held;
    this.heldBytes = kept;
  }
}
