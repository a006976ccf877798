/**
 * The host's answers to text scans (bridge.textScan: `len`, `units`, `contains`, `equals`, page by
 * page) kept in the isolate for the session: a column's text never changes, so the same question of
 * the same page is answered again without crossing to the host. Every reader of
 * `TextPages.scan` shares them: the loops the preparation rewrites, filter callbacks of array and
 * objects() chains, the verbs' `op.includes`/`===`/`== null`, the Series' `str.len()`,
 * `str.contains()`, `isna()`, `eq()`. A warm run of a missing-abstracts count crossed 108 times
 * (~50 us of wall each, in the holder's thread switch, not the isolate's CPU) for answers it had.
 * The arrays are only ever read by those callers (each copies what it needs into its own result):
 * no run can reach one. One byte budget for the session, the oldest question dropped first.
 */
import { SafeMap } from '../intrinsics.js';
import type { TextScanRequest } from '../../schema/columnar.js';

/** The most bytes of answers kept per session (Abstract's lengths are 0.9 MB, a contains 0.2 MB). */
const KEPT_BYTES = 32 << 20;

type Answer = Int32Array | Uint8Array;

/** One question of one column: its answer per page (null until asked), and their bytes. */
interface Question {
  pages: Array<Answer | null>;
  bytes: number;
}

/** Every kept question (column id + question). */
const questions = new SafeMap<string, Question>();
/** Their keys, oldest first from `head` (indexed writes only: no method a run could replace). */
const order: string[] = [];
let head = 0;
let keptBytes = 0;
let nextColumn = 0;

/** A fresh id for a column's pager: its questions' keys start with it. */
export function scanColumnId(): number {
  return nextColumn++;
}

/** The key of `req` for column `id` (one question: op, fold and needle). */
export function scanKey(id: number, req: TextScanRequest): string {
  if (req.op === 'contains') return `${id}\u0000c\u0000${req.fold}\u0000${req.needle}`;
  if (req.op === 'equals') return `${id}\u0000e\u0000${req.needle}`;
  return `${id}\u0000${req.op}`;
}

/** Page `p`'s kept answer to the question `key`, or null. */
export function keptScan(key: string, p: number): Answer | null {
  const q = questions.get(key);
  return q ? (q.pages[p] ?? null) : null;
}

/** Keeps page `p`'s answer to `key` (one of `pages` pages), dropping the oldest questions past the budget. */
export function keepScan(key: string, p: number, pages: number, answer: Answer): void {
  const bytes = answer.byteLength;
  if (bytes > KEPT_BYTES) return;
  let q = questions.get(key);
  if (!q) {
    const list = new Array<Answer | null>(pages);
    // no holes: a hole would read through to a prototype a run may have written to
    for (let k = 0; k < pages; k++) list[k] = null;
    q = { pages: list, bytes: 0 };
    questions.set(key, q);
    order[order.length] = key;
  }
  if (p < 0 || p >= q.pages.length || q.pages[p] !== null) return;
  while (keptBytes + bytes > KEPT_BYTES && head < order.length) {
    const oldest = order[head]!;
    order[head++] = '';
    const old = questions.get(oldest)!;
    questions.delete(oldest);
    keptBytes -= old.bytes;
    if (old === q) return;
  }
  if (head > 1024 && head * 2 > order.length) {
    // drop the dropped keys' slots now and then
    let k = 0;
    for (let j = head; j < order.length; j++) order[k++] = order[j]!;
    order.length = k;
    head = 0;
  }
  q.pages[p] = answer;
  q.bytes += bytes;
  keptBytes += bytes;
}
