import { Worker } from 'node:worker_threads';
import type { TextScanRequest } from '../../../schema/columnar.js';
import { workerScript } from '../workerScript.js';
import { scanPage, type ScanColumn } from './scanPage.js';
import { PAGE_NULL, PAGE_OK, PAGE_OPEN, SCAN_WORKER, type ScanTask } from './scanWorker.js';

/** Pages answered on the caller's thread and by helpers, over the process's life. @internal tests read it. */
export const scanCounts = { here: 0, helpers: 0 };

/** How long to wait for a page a helper claimed before the caller reads it itself. */
const PAGE_WAIT_MS = 30_000;

/**
 * A contains or an equals (textScan) over every page of a text column read from the cache file:
 * the pages are shared out among this thread and up to `helpers` worker threads, each taking the
 * next page until none is left, so a scan takes about 1/(helpers + 1) of one pass when the cores
 * are free. Only helpers already started and waiting take part (warmScanHelpers; the dataset starts
 * them when it opens, and any missing are started after this scan). Every page is read in whole
 * blocks, each checked against its checksum before it is scanned (scanPage.ts). Synchronous: the
 * guest is waiting inside a host call.
 * @returns per page its answer (rows of the page), null when textScan leaves the page to the guest,
 *   or undefined when no thread answered it (a block failed its check, a read failed, a helper
 *   died): the caller reads that page its own way, which reports the damage.
 * @example const pages = scanPages(col, { op: 'contains', needle: 'laser', fold: 'none' }, 1);
 */
export function scanPages(col: ScanColumn, req: TextScanRequest, helpers: number): (Uint8Array | null | undefined)[] {
  const pages = Math.ceil(col.numRows / col.pageRows);
  const out = new Uint8Array(new SharedArrayBuffer(col.numRows));
  const state = new Int32Array(new SharedArrayBuffer(4 * pages));
  const next = new Int32Array(new SharedArrayBuffer(4));
  const threads: { helper: Helper; delivered: Int32Array; busy: Int32Array; done: boolean }[] = [];
  if (helpers > 0 && pages > 1) {
    // the column's arrays go to the helpers once, shared (a typed array posted alone is copied per thread)
    const shared = {
      ...col,
      table: new Uint32Array(new SharedArrayBuffer(col.table.byteLength)),
      offsets: new Int32Array(new SharedArrayBuffer(col.offsets.byteLength)),
      valid: new Uint8Array(new SharedArrayBuffer(col.valid.byteLength)),
    };
    shared.table.set(col.table);
    shared.offsets.set(col.offsets);
    shared.valid.set(col.valid);
    for (const helper of takeHelpers(Math.min(helpers, pages - 1))) {
      const delivered = new Int32Array(new SharedArrayBuffer(4));
      const busy = new Int32Array(new SharedArrayBuffer(4));
      helper.worker.postMessage({ col: shared, req, out, state, next, delivered, busy } satisfies ScanTask);
      threads.push({ helper, delivered, busy, done: false });
    }
  }
  // this thread claims pages like any helper
  const scratch = { buf: new Uint8Array(0) };
  let here = 0;
  for (;;) {
    const p = Atomics.add(next, 0, 1);
    if (p >= pages) break;
    let outcome;
    try {
      outcome = scanPage(col, p, req, scratch, out);
    } catch {
      continue; // left open: the caller reads it again and reports what is wrong
    }
    if (outcome === 'bad') {
      Atomics.store(next, 0, pages); // the helpers stop after their current page
      break;
    }
    state[p] = outcome === 'ok' ? PAGE_OK : PAGE_NULL;
    here++;
  }
  // then the pages the helpers claimed, as they finish
  for (const t of threads) {
    for (;;) {
      const seen = Atomics.load(t.delivered, 0);
      // this helper owes nothing more once every page is claimed and it is not busy; a helper
      // still starting claims nothing (it finds every page taken)
      if (Atomics.load(next, 0) >= pages && Atomics.load(t.busy, 0) === 0) {
        t.done = true;
        break;
      }
      if (Atomics.wait(t.delivered, 0, seen, PAGE_WAIT_MS) === 'timed-out') break;
    }
  }
  // kept for the next scan; one that did not finish in time is ended
  for (const t of threads) {
    if (t.done && !t.helper.dead) idle.push(t.helper);
    else void t.helper.worker.terminate();
  }
  if (helpers > 0) warmScanHelpers(helpers);
  scanCounts.here += here;
  scanCounts.helpers += state.reduce((n, s) => n + (s === PAGE_OPEN ? 0 : 1), 0) - here;
  return Array.from(state, (s, p) => {
    const start = p * col.pageRows;
    return s === PAGE_OK
      ? out.slice(start, Math.min(col.numRows, start + col.pageRows))
      : s === PAGE_NULL
        ? null
        : undefined;
  });
}

interface Helper {
  worker: Worker;
  /** The thread ended (an error, or terminated): not given another scan. */
  dead: boolean;
}

/**
 * Helpers started and waiting for a scan, for the whole process (a process scans one column at a
 * time: the guest waits inside a synchronous host call). They are unreferenced: an idle helper
 * never keeps the process alive.
 */
const idle: Helper[] = [];

/**
 * Starts helper threads for later scans (up to `n` waiting), so the first scan does not pay their
 * start: a thread and the scan's modules, tens of milliseconds of CPU. Never throws.
 * @example warmScanHelpers(1);
 */
export function warmScanHelpers(n: number): void {
  for (let i = idle.filter((h) => !h.dead).length; i < n; i++) {
    const helper = startHelper();
    if (!helper) return;
    idle.push(helper);
  }
}

/**
 * Up to `n` of the waiting helpers. None is started here: a thread started now would spend its
 * start (~50 ms of CPU, more on a loaded machine) on the same cores this scan needs, and join it
 * late if at all; those missing are started after the scan, for the next one.
 */
function takeHelpers(n: number): Helper[] {
  const out: Helper[] = [];
  while (out.length < n && idle.length > 0) {
    const helper = idle.shift()!;
    if (!helper.dead) out.push(helper);
  }
  return out;
}

function startHelper(): Helper | null {
  try {
    // no flags of the parent: a worker refuses process-wide ones such as --no-node-snapshot
    const worker = new Worker(workerPath(), { execArgv: [], workerData: SCAN_WORKER });
    const helper: Helper = { worker, dead: false };
    worker.unref();
    worker.on('error', () => undefined);
    worker.on('exit', () => {
      helper.dead = true;
    });
    return helper;
  } catch {
    return null; // no thread to spare: the caller scans every page
  }
}

/** The compiled worker script (workerScript.ts says where it is looked for). */
function workerPath(): URL {
  return workerScript(
    import.meta.url,
    'scanPages.js',
    new URL('./scanWorker.js', import.meta.url),
    'src/data/cache/scanWorker.js',
  );
}
