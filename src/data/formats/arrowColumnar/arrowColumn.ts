import { DateUnit, Precision, TimeUnit, Type } from '@uwdata/flechette';
import type { ColumnData } from '../../../../schema/columnar.js';
import type { ArrowBatch } from './arrowBatch.js';
import { bitColumn } from './bitColumn.js';
import { checkBatches } from './checkBatches.js';
import { dictionaryColumn } from './dictionaryColumn.js';
import { int64Column } from './int64Column.js';
import { numberColumn } from './numberColumn.js';
import { textColumn } from './textColumn.js';
import { timestampColumn, type TimeUnitName } from './timestampColumn.js';

/** The parts of a flechette data type this path reads. */
export interface ArrowFieldType {
  typeId: number;
  bitWidth?: number;
  signed?: boolean;
  precision?: number;
  unit?: number;
  dictionary?: { typeId: number };
}

/** Arrow type ids flechette's `Type` lists under names this file does not rely on. */
const UTF8 = 5;
const LARGE_UTF8 = 20;
const UNITS: Record<number, TimeUnitName> = {
  [TimeUnit.SECOND]: 's',
  [TimeUnit.MILLISECOND]: 'ms',
  [TimeUnit.MICROSECOND]: 'us',
  [TimeUnit.NANOSECOND]: 'ns',
};

/**
 * One column of a decoded Arrow table as a transfer column, written straight from flechette's
 * batches (typed arrays, bitmaps, text bytes), without a JS value per row: integers, floats,
 * dates and timestamps, booleans, Utf8 / LargeUtf8 and dictionary-encoded text. The result is
 * the one the per-value path (`child.toArray()` + typedColumn.ts) gives. Returns null for what
 * this path leaves to that one: Int64 values beyond +-2^53 (exact text), Decimal, Float16, the
 * Null type, Utf8View, dictionaries of other than text. Every length, offset and key is checked
 * against its buffer before it is read (checkBatches.ts and each reader). `beat` is called as the
 * work goes on (after each record batch, and every 64Ki rows while text is dictionary-coded): the
 * heartbeat by which a column worker shows it still works (lazyParquet/columnWorker.ts).
 * @throws {DataError} DATA_CORRUPT for a damaged column.
 * @example const data = arrowColumn(child.data, field.type, firstColumnLengths, 't.arrow', 'amount') ?? slowPath();
 */
export function arrowColumn(
  batches: readonly ArrowBatch[],
  type: ArrowFieldType,
  rows: readonly number[],
  file: string,
  column: string,
  beat?: () => void,
): ColumnData | null {
  const id = type.typeId;
  const handled =
    id === Type.Int ||
    (id === Type.Float && type.precision !== Precision.HALF) ||
    id === Type.Date ||
    (id === Type.Timestamp && type.unit! in UNITS) ||
    id === Type.Bool ||
    id === UTF8 ||
    id === LARGE_UTF8 ||
    (id === Type.Dictionary && (type.dictionary?.typeId === UTF8 || type.dictionary?.typeId === LARGE_UTF8));
  if (!handled) return null;
  checkBatches(batches, rows, file, column);
  beat?.();
  switch (id) {
    case Type.Int:
      return type.bitWidth === 64
        ? int64Column(batches, type.signed !== false, file, column, beat)
        : numberColumn(batches, 'integer', 1, file, column, beat);
    case Type.Float:
      return numberColumn(batches, 'number', 1, file, column, beat);
    case Type.Date:
      return type.unit === DateUnit.DAY
        ? numberColumn(batches, 'date', 86_400_000, file, column, beat)
        : timestampColumn(batches, 'ms', file, column, beat);
    case Type.Timestamp:
      return timestampColumn(batches, UNITS[type.unit!], file, column, beat);
    case Type.Bool:
      return bitColumn(batches, file, column, beat);
    case Type.Dictionary:
      return dictionaryColumn(batches, file, column, beat);
    default:
      return textColumn(batches, file, column, beat);
  }
}
