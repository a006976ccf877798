import { closeSync, openSync, readSync } from 'node:fs';
import { getHeapStatistics } from 'node:v8';

/** What the memory watchdog reads of this process (sessionHost.ts). */
export interface ProcessMemory {
  /** Resident set size, bytes. */
  rss: number;
  /** This thread's own memory: its V8 heap in use plus external memory (ArrayBuffers: loaded columns). */
  own: number;
}

let statm: number | null | undefined;
let pageBytes = 0;
const buf = Buffer.alloc(128);

/**
 * The process's RSS and own memory, read cheaply enough to do around every run: on Linux the
 * resident pages come from one positional read of an open `/proc/self/statm` (~5 µs), where
 * `process.memoryUsage()` opens, reads and closes `/proc/self/stat` and gathers every heap figure
 * (~30 µs); the own figure is `v8.getHeapStatistics()` (heap in use + external memory, which
 * counts every ArrayBuffer). Elsewhere `process.memoryUsage.rss()`.
 * @example const { rss, own } = processMemory();
 */
export function processMemory(): ProcessMemory {
  const heap = getHeapStatistics();
  return { rss: residentBytes(), own: heap.used_heap_size + heap.external_memory };
}

function residentBytes(): number {
  if (statm === undefined) openStatm();
  if (statm !== null && statm !== undefined) {
    const pages = residentPages(statm);
    if (pages > 0) return pages * pageBytes;
  }
  return process.memoryUsage.rss();
}

function openStatm(): void {
  statm = null;
  let fd: number;
  try {
    fd = openSync('/proc/self/statm', 'r');
  } catch {
    return; // not Linux
  }
  // the page size, from the same figure as the kernel's own count (memoryUsage reads /proc/self/stat)
  const pages = residentPages(fd);
  const ratio = pages > 0 ? process.memoryUsage.rss() / pages : 0;
  const size = 2 ** Math.round(Math.log2(ratio));
  if (!(size >= 4096 && size <= 65536)) {
    closeSync(fd);
    return;
  }
  pageBytes = size;
  statm = fd;
}

/** `/proc/self/statm` is "size resident shared ..." in pages; 0 when it cannot be read. */
function residentPages(fd: number): number {
  let n: number;
  try {
    n = readSync(fd, buf, 0, buf.length, 0);
  } catch {
    return 0;
  }
  let i = 0;
  while (i < n && buf[i] !== 0x20) i++;
  let pages = 0;
  for (i++; i < n && buf[i]! >= 0x30 && buf[i]! <= 0x39; i++) pages = pages * 10 + buf[i]! - 0x30;
  return pages;
}
