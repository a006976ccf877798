import { Type } from '@uwdata/flechette';
import type { ColumnData } from '../../../../schema/columnar.js';
import { arrowColumnAt, openArrow, type OpenedArrow } from '../arrow.js';
import type { DecodeCaps } from '../decodeCaps.js';
import type { OpenedFile } from '../lazyParquet/columnJob.js';

/** An Arrow file opened in a column worker: its shape for the holder, and one column at a time. */
export interface LazyArrowFile {
  opened: OpenedFile;
  column(index: number): ColumnData;
}

/**
 * Opens an Arrow IPC file or stream in a column worker (lazyParquet/columnWorker.ts) for lazy
 * reading: the whole file is checked now (openArrow: framing, schema, row counts, lengths), and a
 * column is written from its buffers only when asked (its batches' offsets, bitmaps and keys are
 * checked then, before they are read). A column whose type only its values tell (Int64, which
 * becomes exact text past 2^53; the Null type) is `settled: false`, so the holder reads it at open.
 * An Arrow column is not split: writing it is mostly a copy of its buffers.
 * @throws {DataError} DATA_CORRUPT, DATA_UNSUPPORTED, DATA_TOO_LARGE (opening); DATA_CORRUPT (a column).
 * @example const f = openLazyArrow(sharedBytes, 't.arrow', caps); f.column(0);
 */
export function openLazyArrow(bytes: Uint8Array, file: string, caps: DecodeCaps): LazyArrowFile {
  const arrow: OpenedArrow = openArrow(bytes, file, caps);
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
    groupBytes: [arrow.fields.map(() => 0)],
  };
  return { opened, column: (i) => arrowColumnAt(arrow, i, file) };
}
