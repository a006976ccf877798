import type { ColumnData } from '../../../../schema/columnar.js';
import { DataError, type DataErrorCode } from '../../errors.js';
import type { DecodeCaps } from '../decodeCaps.js';
import type { ColumnAnswer, ColumnJob, OpenedFile } from './columnJob.js';
import { columnWorkers, type Posted } from './columnWorkers.js';
import { joinColumns } from './joinColumns.js';
import { releaseParts } from '../../columns/releaseBuffers.js';

/** One leaf of an opened file to decode, and how large a column must be to be split over two workers. */
export interface LeafDecode {
  id: number;
  open: ColumnJob;
  opened: OpenedFile;
  leaf: number;
  file: string;
  caps: DecodeCaps;
  splitMin: number;
  splitMinRows: number;
}

/** A leaf's jobs, posted to the workers and not yet waited for. */
export interface PostedColumn {
  decode: LeafDecode;
  posted: Posted[];
}

/**
 * Decodes one leaf: on both workers in halves of its row groups when it is large enough, else on one.
 * @throws {DataError} as {@link collectColumn}.
 * @example const amount = decodeColumn({ id, open, opened, leaf: 3, file, caps, splitMin, splitMinRows });
 */
export function decodeColumn(decode: LeafDecode): ColumnData {
  return collectColumn(postColumn(decode));
}

/**
 * Posts a leaf's jobs without waiting: its halves to workers 0 and 1, or the whole leaf to worker
 * `single` (so that columns posted together before any is waited for run side by side).
 * @example const p = postColumn(decode, 1); ...; collectColumn(p);
 */
export function postColumn(decode: LeafDecode, single = 0): PostedColumn {
  const { opened, leaf, caps, splitMin, splitMinRows } = decode;
  const pool = columnWorkers(caps.heapMb);
  const groups = opened.groupRows.length;
  const stored = opened.groupBytes.reduce((n, g) => n + g[leaf], 0);
  const split = pool.width > 1 && groups >= 2 && (stored >= splitMin || opened.numRows >= splitMinRows);
  const ranges: Array<[number, number, number]> = split
    ? halves(opened, leaf).map(([from, to], i) => [i, from, to])
    : [[Math.min(single, pool.width - 1), 0, groups]];
  return { decode, posted: post(decode, ranges) };
}

/**
 * Waits for a posted leaf (every job of it, so none is left unanswered) and joins its parts.
 * `caps` may carry a shorter deadline than the table's.
 * @throws {DataError} the worker's DATA_CORRUPT / DATA_TOO_LARGE / DATA_OUT_OF_RANGE /
 *   DATA_DECODE_FAILED; DATA_TOO_LARGE when the joined text passes 2 GiB.
 * @example collectColumn(postColumn(decode));
 */
export function collectColumn(p: PostedColumn, caps: DecodeCaps = p.decode.caps): ColumnData {
  const { opened, leaf, file } = p.decode;
  let answers = wait(p.posted, file, caps);
  // a column the columnar decoder leaves to hyparquet is decoded whole, on one worker
  if (answers.some((a) => !a.ok && a.whole))
    answers = wait(post(p.decode, [[0, 0, opened.groupRows.length]]), file, caps);
  try {
    const parts = answers.map((a) => expectAnswer(a, file).column!);
    const joined = joinColumns(parts);
    // the parts' copies, freed now rather than at this thread's next collection
    if (parts.length > 1) releaseParts(parts, joined);
    return joined;
  } catch (err) {
    if (!(err instanceof RangeError)) throw err;
    throw new DataError(
      'DATA_TOO_LARGE',
      `${file}: column '${opened.columns[leaf].name}' holds more than 2 GiB of text`,
      {
        hint: 'Split the file into smaller tables (fewer rows each), or drop the long text column.',
      },
    );
  }
}

/** The answer, or its typed error thrown. */
export function expectAnswer(a: ColumnAnswer, file: string): Extract<ColumnAnswer, { ok: true }> {
  if (a.ok) return a;
  const e = a.error ?? { code: 'DATA_DECODE_FAILED', message: `${file}: the column decoder lost the file` };
  throw new DataError(e.code as DataErrorCode, e.message, e.hint ? { hint: e.hint } : {});
}

/** Posts one job per [worker, from, to], opening the file first in a worker that does not know it. */
function post(decode: LeafDecode, ranges: Array<[number, number, number]>): Posted[] {
  const { id, open, leaf, caps } = decode;
  const pool = columnWorkers(caps.heapMb);
  const posted: Posted[] = [];
  for (const [worker, from, to] of ranges) {
    // a worker started after the table was opened (the last one died) checks the file again first
    if (!pool.knows(worker, id)) posted.push(pool.post(worker, open, caps.heapMb));
    posted.push(pool.post(worker, { op: 'column', id, leaf, from, to }, caps.heapMb));
  }
  return posted;
}

/**
 * Every posted job's answer (an open's is dropped). Each is waited for even after one failed, so
 * the pool's count of jobs in flight stays exact; the first failure is then thrown.
 */
function wait(posted: Posted[], file: string, caps: DecodeCaps): ColumnAnswer[] {
  const pool = columnWorkers(caps.heapMb);
  const answers: ColumnAnswer[] = [];
  let failed: { err: unknown } | undefined;
  for (const p of posted) {
    try {
      const a = pool.wait(p, file, caps);
      if (!(a.ok && a.opened)) answers.push(a);
    } catch (err) {
      failed ??= { err };
    } finally {
      p.port.close();
    }
  }
  if (failed) throw failed.err;
  return answers;
}

/** Row groups [0, k) and [k, n), k chosen so both halves hold about the same stored bytes of the leaf. */
function halves(opened: OpenedFile, leaf: number): Array<[number, number]> {
  const n = opened.groupBytes.length;
  const total = opened.groupBytes.reduce((s, g) => s + g[leaf], 0);
  let k = 0;
  let acc = 0;
  while (k < n - 1 && acc + opened.groupBytes[k][leaf] <= total / 2) acc += opened.groupBytes[k++][leaf];
  k = Math.min(Math.max(k, 1), n - 1);
  return [
    [0, k],
    [k, n],
  ];
}
