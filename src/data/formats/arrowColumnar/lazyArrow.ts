import { Type } from '@uwdata/flechette';
import type { ColumnData } from '../../../../schema/columnar.js';
import { arrowColumnAt, openArrow, type OpenedArrow } from '../arrow.js';
import type { ByteSource } from '../byteSource.js';
import type { DecodeCaps } from '../decodeCaps.js';
import type { OpenedFile } from '../lazyParquet/columnJob.js';
import { releaseBuffers } from '../../columns/releaseBuffers.js';
import { arrowMetadata, columnRanges, sparseFile, type FilePart } from './arrowOnDisk.js';

/** An Arrow file opened in a column worker: its shape for the holder, and one column at a time. */
export interface LazyArrowFile {
  opened: OpenedFile;
  /** Column `index`, written whole; `beat` is called as the work goes on (the worker's heartbeat). */
  column(index: number, beat?: () => void): ColumnData;
}

/**
 * Opens an Arrow IPC file or stream in a column worker (lazyParquet/columnWorker.ts) for lazy
 * reading, from disk: only its metadata is read now (the magic, an IPC file's footer, every
 * message's header: arrowOnDisk.ts) and checked as the whole file was (openArrow: framing, schema,
 * row counts, lengths); no column's bytes are held. A column is read when asked: its buffers'
 * byte ranges (and its dictionaries') from disk into a buffer of the file's size that holds only
 * them and the metadata kept from the open, its batches' offsets, bitmaps and keys checked, then
 * written out (arrowColumnAt) and that buffer dropped. The caller refuses a file changed on disk
 * since the open (lazyParquetTable.ts); a file cut short fails the read with DATA_CORRUPT
 * (byteSource.ts). A column whose type only its values tell (Int64, which becomes exact text past
 * 2^53; the Null type) is `settled: false`, so the holder reads it at open. An Arrow column is not
 * split: writing it is mostly a copy of its buffers.
 * @throws {DataError} DATA_CORRUPT, DATA_UNSUPPORTED, DATA_TOO_LARGE (opening); DATA_CORRUPT (a column).
 * @example const f = openLazyArrow(fileSource(fd, size, 't.arrow'), 't.arrow', caps); f.column(0);
 */
export function openLazyArrow(source: ByteSource, file: string, caps: DecodeCaps): LazyArrowFile {
  const parts: FilePart[] = arrowMetadata(source, file);
  const bytes = sparseFile(source.size, parts);
  const arrow: OpenedArrow = openArrow(bytes, file, caps);
  // where each column's buffers lie in the file, from the batches' views over `bytes`
  const ranges = arrow.fields.map((_, i) => columnRanges(arrow.table.getChildAt(i)?.data ?? [], bytes.buffer));
  const opened: OpenedFile = {
    numRows: arrow.numRows,
    columns: arrow.fields.map((f) => ({
      name: f.name,
      type: f.type,
      settled: !(
        f.arrowType.typeId === Type.Null ||
        (f.arrowType.typeId === Type.Int && (f.arrowType.bitWidth ?? 64) > 32) ||
        (f.arrowType.typeId === Type.Dictionary && f.type !== 'string')
      ),
    })),
    // one range per file: an Arrow column is written whole, on one worker
    groupRows: [arrow.numRows],
    groupBytes: [arrow.fields.map((_, i) => ranges[i].reduce((n, [, length]) => n + length, 0))],
  };
  return {
    opened,
    column(i, beat) {
      const filled = sparseFile(source.size, parts);
      // each range straight into its place (no buffer per range between the file and `filled`);
      // a beat per range: on a saturated host a column's reads alone can outlast the holder's
      // stall limit (lazyParquet/columnWorkers.ts STALL_MS)
      for (const [at, length] of ranges[i]) {
        if (source.readInto) source.readInto(at, length, filled, at);
        else filled.set(source.read(at, length), at);
        beat?.();
      }
      // the same metadata parsed again, over the buffer that now also holds this column's bytes
      const again = openArrow(filled, file, caps);
      beat?.();
      const column = ownArrays(arrowColumnAt(again, i, file, { beat }), filled.buffer);
      // the column's bytes as read (a text column's whole size): freed now, not when this thread next collects
      releaseBuffers([filled.buffer as ArrayBuffer]);
      return column;
    },
  };
}

/** The column with every typed array that is a view of `file` copied out of it (the buffer is dropped after). */
function ownArrays(column: ColumnData, file: ArrayBufferLike): ColumnData {
  const out = { ...column } as Record<string, unknown>;
  for (const [k, v] of Object.entries(out))
    if (ArrayBuffer.isView(v) && v.buffer === file) out[k] = (v as Uint8Array).slice();
  return out as unknown as ColumnData;
}
