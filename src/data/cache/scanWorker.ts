/**
 * A worker thread of scanPages.ts: claims pages of a text column one after another (the caller's
 * thread claims them too), reads, checks and scans each (scanPage.ts) into the shared answer, and
 * raises the caller's flag after each.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { TextScanRequest } from '../../../schema/columnar.js';
import { searchArea } from '../columns/simdBytes.js';
import { textScan } from '../columns/textScan.js';
import { scanPage, type ScanColumn } from './scanPage.js';

/** A page's state in {@link ScanTask.state}: not done (unclaimed, in progress, or failed), answered, answered null. */
export const PAGE_OPEN = 0;
export const PAGE_OK = 1;
export const PAGE_NULL = 2;

/** What a helper thread is given: the column (its arrays shared), the question, and the counters shared with the caller. */
export interface ScanTask {
  col: ScanColumn;
  req: TextScanRequest;
  /** One entry per row, shared: each page's answer is written at its rows. */
  out: Uint8Array;
  /** One entry per page (PAGE_OPEN, PAGE_OK, PAGE_NULL), shared. */
  state: Int32Array;
  /** [0]: the next page to claim (every thread takes the next one). */
  next: Int32Array;
  /** [0]: pages this thread finished, plus one when it stops (the caller waits on it). */
  delivered: Int32Array;
  /** [0]: 1 from before this thread claims a page until it finished it; 0 once it has stopped. */
  busy: Int32Array;
}

/** workerData that marks a thread started by scanPages (a module imported elsewhere does nothing). */
export const SCAN_WORKER = 'sbirtools-scan';

/**
 * Runs the scan's code once over a made-up page (4,096 rows, 5 MiB of ASCII like a page of
 * `Abstract`) in each fold, so a helper's first real page runs compiled code in a search memory
 * already grown and touched: measured, a helper's first scan otherwise cost ~50 ms more CPU than
 * the same pages on a warm thread (WebAssembly instance, memory growth, V8's tiers).
 */
function warmUp(): void {
  const rows = 4096;
  const rowBytes = 1300;
  const area = searchArea(rows * rowBytes);
  if (!area) return;
  // no row holds the needle: the search reads every byte of the page (a row holding it is left
  // after its first hit, simdBytes.ts rowSearch), as it does on most rows of a real page
  const text = new TextEncoder().encode('The twin of a Digital system will let operators predict failures. ');
  for (let at = 0; at < area.length; at += text.length) area.set(text.subarray(0, area.length - at), at);
  const offsets = Int32Array.from({ length: rows + 1 }, (_, i) => i * rowBytes);
  const col = {
    kind: 'utf8' as const,
    type: 'string' as const,
    bytes: area,
    offsets,
    valid: new Uint8Array(rows).fill(1),
  };
  for (const fold of ['none', 'regex', 'lower'] as const)
    textScan(col, 0, rows, { op: 'contains', needle: fold === 'none' ? 'digital twin' : 'DIGITAL twin', fold });
}

if (parentPort && workerData === SCAN_WORKER) {
  warmUp();
  parentPort.on('message', (task: ScanTask) => {
    const pages = task.state.length;
    const scratch = { buf: new Uint8Array(0) };
    for (;;) {
      // busy before the claim: the caller, seeing every page claimed and this flag down, knows
      // nothing more will come from here
      Atomics.store(task.busy, 0, 1);
      const p = Atomics.add(task.next, 0, 1);
      if (p >= pages) break;
      let outcome;
      try {
        outcome = scanPage(task.col, p, task.req, scratch, task.out);
      } catch {
        outcome = 'bad'; // the caller reads the page again and reports what is wrong with it
      }
      if (outcome !== 'bad') Atomics.store(task.state, p, outcome === 'ok' ? PAGE_OK : PAGE_NULL);
      Atomics.add(task.delivered, 0, 1);
      Atomics.notify(task.delivered, 0);
    }
    Atomics.store(task.busy, 0, 0);
    Atomics.add(task.delivered, 0, 1);
    Atomics.notify(task.delivered, 0);
  });
}
