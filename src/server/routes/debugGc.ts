import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { json } from '../respond.js';
import type { Route } from './route.js';

let gc: (() => void) | undefined;

/**
 * `POST /debug/gc`, only with `SBIRTOOLS_DEBUG_GC_ROUTE=1` in the server's environment (tests):
 * a full garbage collection, then this process's memory. A memory test reads what is still
 * reachable, not when V8 chose to collect (Node 26 collects a burst of garbage much later than
 * Node 20, and RSS then counts it). Needs an API key like every route.
 */
export const debugGc: Route = {
  method: 'POST',
  path: '/debug/gc',
  auth: true,
  handle: async () => {
    if (!gc) {
      // the documented way to reach gc() without starting node with --expose-gc
      setFlagsFromString('--expose-gc');
      gc = runInNewContext('gc') as () => void;
    }
    gc();
    gc();
    const m = process.memoryUsage();
    return json({
      rssBytes: m.rss,
      heapUsedBytes: m.heapUsed,
      heapTotalBytes: m.heapTotal,
      externalBytes: m.external,
      arrayBuffersBytes: m.arrayBuffers,
    });
  },
};
