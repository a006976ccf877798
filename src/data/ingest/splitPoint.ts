import { open } from 'node:fs/promises';
import { RecordScanner } from './scanner.js';

/** Bytes read around the middle of the file to look for a record boundary. */
const WINDOW = 1 << 20;
/** Records after a candidate boundary that must each have the header's width. */
const PROBE_RECORDS = 8;
/** Newlines tried before the split is given up. */
const MAX_CANDIDATES = 256;

/**
 * A byte offset near the middle of the file (of its bytes from `from` on) that looks like the start of a record: right after a
 * newline, and followed by records of exactly `width` fields with no stray quote. A newline inside a
 * quoted field (a multi-line abstract) usually fails that test, but can pass it: the offset is only
 * a candidate, which the parse of the first part proves or refuses (csvInParts.ts). Null when no
 * newline in the window looks right (a ragged or one-record file): the file is then read in one part.
 * @example await splitCandidate('/data/big.csv', 95_000_000, 7) // 47_500_123
 */
export async function splitCandidate(path: string, size: number, width: number, from = 0): Promise<number | null> {
  const mid = from + Math.floor((size - from) / 2);
  const fh = await open(path, 'r');
  let window: Buffer;
  try {
    const buf = Buffer.allocUnsafe(Math.min(WINDOW, size - mid));
    const { bytesRead } = await fh.read(buf, 0, buf.length, mid);
    window = buf.subarray(0, bytesRead);
  } finally {
    await fh.close();
  }
  const toEnd = mid + window.length >= size;
  let at = window.indexOf(0x0a);
  for (let tries = 0; at >= 0 && at + 1 < window.length && tries < MAX_CANDIDATES; tries++) {
    if (looksLikeRecords(window.subarray(at + 1), width, toEnd)) return mid + at + 1;
    at = window.indexOf(0x0a, at + 1);
  }
  return null;
}

/**
 * True when `bytes` start with {@link PROBE_RECORDS} whole records of `width` fields (blank lines
 * skipped), or, when they run to the end of the file (`toEnd`), with fewer that are all such records.
 */
function looksLikeRecords(bytes: Buffer, width: number, toEnd: boolean): boolean {
  let seen = 0;
  let ok = true;
  const scanner = new RecordScanner((_buf, starts, ends, _flags, n) => {
    if (!ok || seen >= PROBE_RECORDS) return;
    if (n === 1 && starts[0] === ends[0] && width > 1) return;
    if (n !== width) ok = false;
    seen++;
  }, 1 << 16);
  for (let i = 0; i < bytes.length && ok && seen < PROBE_RECORDS; i += 1 << 16) {
    scanner.push(bytes.subarray(i, i + (1 << 16)));
    if (scanner.malformedFields > 0) ok = false;
  }
  if (ok && seen < PROBE_RECORDS && toEnd) {
    scanner.finish();
    return ok && seen > 0 && scanner.malformedFields === 0 && !scanner.unterminatedQuote;
  }
  return ok && seen >= PROBE_RECORDS;
}
