import { tableFromIPC, Type } from '@uwdata/flechette';
import type { ColumnarTable, ColumnData } from '../../../schema/columnar.js';
import { DataError } from '../errors.js';
import type { ArrowBatch } from './arrowColumnar/arrowBatch.js';
import { arrowColumn, type ArrowFieldType } from './arrowColumnar/arrowColumn.js';
import { ARROW_DAMAGED as DAMAGED } from './arrowColumnar/corrupt.js';
import { checkStreamFraming } from './arrowColumnar/streamFraming.js';
import { checkColumnNames } from './checkColumnNames.js';
import { eagerDictionaries, tableWithoutDictionaryValues } from './arrowColumnar/lazyDictionaries.js';
import type { DecodeCaps } from './decodeCaps.js';
import { typedColumn, type DeclaredType } from './typedColumn.js';

/** Arrow type ids that flechette's constants list without a name here (Utf8, LargeUtf8, Utf8View). */
const UTF8_IDS = new Set([5, 20, 24]);

/** How decodeArrow reads columns. */
export interface ArrowDecodeOptions {
  /**
   * Write transfer columns straight from the decoded Arrow buffers (arrowColumnar/); false reads
   * every column value by value (`toArray()` + typedColumn.ts), the reference the columnar path
   * is tested against. @default true
   */
  columnar?: boolean;
  /**
   * Called as a column is written from its buffers (after each record batch, every 64Ki rows while
   * text is dictionary-coded): the heartbeat by which a column worker shows the holder it still
   * works (lazyParquet/columnWorker.ts). Not called on the per-value path.
   */
  beat?: () => void;
}

/**
 * An Arrow IPC file or stream as a columnar table (decoded with `@uwdata/flechette`). Decodes in
 * the calling thread: call it inside the decode worker (decodeInWorker.ts). Every column must
 * have exactly the table's row count after decoding; anything else is a damaged file. Columns of
 * the common types are written from flechette's buffers without a JS value per row
 * (arrowColumnar/arrowColumn.ts), the others value by value, with the same result either way.
 * @throws {DataError} DATA_CORRUPT, DATA_UNSUPPORTED, DATA_TOO_LARGE.
 * @example const t = decodeArrow('portfolio', bytes, 'portfolio.arrow', DEFAULT_DECODE_CAPS);
 */
export function decodeArrow(
  name: string,
  bytes: Uint8Array,
  file: string,
  caps: DecodeCaps,
  options: ArrowDecodeOptions = {},
): ColumnarTable {
  const opened = openArrow(bytes, file, caps, options);
  const columns = opened.fields.map((field, i) => {
    const column = arrowColumnAt(opened, i, file, options);
    return { name: field.name, type: column.type, kind: column.kind, data: column };
  });
  return { name, numRows: opened.numRows, columns };
}

/** A checked Arrow file or stream whose columns are read one at a time (arrowColumnAt). */
export interface OpenedArrow {
  table: ReturnType<typeof tableFromIPC>;
  numRows: number;
  fields: ReadonlyArray<{ name: string; type: DeclaredType; arrowType: ArrowFieldType }>;
  /** The rows of each record batch (the first column's batches). */
  rows: number[];
}

/**
 * Parses an Arrow IPC file or stream and checks it as a whole (the magic, a stream's framing, the
 * schema, the row count, distinct column names, every column's length), decoding no column: its
 * typed arrays are views over `bytes`. Each column is then written by {@link arrowColumnAt}.
 * @throws {DataError} DATA_CORRUPT, DATA_UNSUPPORTED, DATA_TOO_LARGE.
 * @example const o = openArrow(bytes, 't.arrow', DEFAULT_DECODE_CAPS); arrowColumnAt(o, 0, 't.arrow');
 */
export function openArrow(
  bytes: Uint8Array,
  file: string,
  caps: DecodeCaps,
  options: ArrowDecodeOptions = {},
): OpenedArrow {
  if (!looksLikeArrow(bytes))
    throw new DataError('DATA_CORRUPT', `${file}: not an Arrow IPC file or stream`, { hint: DAMAGED });
  // flechette makes typed arrays over `bytes.buffer` at the file's own offsets: a view into a
  // larger buffer (a pooled Buffer, a structured-clone copy of one) would let a crafted offset
  // read bytes that are not the file's
  const own = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes : bytes.slice();
  // a stream (not the file form, whose footer is checked by flechette) must be framed whole
  if (own[0] === 0xff || !(own[0] === 0x41 && own[1] === 0x52)) checkStreamFraming(own, file);
  let table: ReturnType<typeof tableFromIPC>;
  try {
    // int64 as BigInt so that values beyond 2^53 are seen (typedColumn keeps them exact as text)
    const read = { useBigInt: true, useDate: false, useMap: false, useProxy: false };
    table = options.columnar === false ? tableFromIPC(own, read) : tableWithoutDictionaryValues(own, read);
  } catch (err) {
    throw new DataError('DATA_CORRUPT', `${file}: the Arrow data cannot be decoded (${(err as Error).message})`, {
      hint: DAMAGED,
    });
  }
  if (table.schema.fields.length > caps.maxColumns)
    checkColumnNames(
      table.schema.fields.map((f) => f.name),
      file,
      caps,
    );
  // garbage after a stream marker often reads as an end-of-stream message: a table of nothing
  if (table.schema.fields.length === 0)
    throw new DataError('DATA_CORRUPT', `${file}: no Arrow schema with columns was found`, { hint: DAMAGED });
  const numRows = table.numRows;
  if (!Number.isSafeInteger(numRows) || numRows < 0)
    throw new DataError('DATA_CORRUPT', `${file}: bad row count ${numRows}`, { hint: DAMAGED });
  if (numRows > caps.maxRows)
    throw new DataError('DATA_TOO_LARGE', `${file}: ${numRows} rows, more than ${caps.maxRows}`, {
      hint: 'Filter or aggregate the data before loading it.',
    });
  // every column's batches must line up with the first column's (one batch per record batch)
  const rows = (table.getChildAt(0)?.data ?? []).map((b) => b.length);
  const seen = new Set<string>();
  const fields = table.schema.fields.map((field, i) => {
    if (seen.has(field.name))
      throw new DataError('DATA_CORRUPT', `${file}: column '${field.name}' appears twice`, {
        hint: 'Give every column a distinct name.',
      });
    seen.add(field.name);
    const type = declared(field.type as { typeId: number; dictionary?: { typeId: number } }, field.name, file);
    const child = table.getChildAt(i);
    if (!child || child.length !== numRows) {
      throw new DataError(
        'DATA_CORRUPT',
        `${file}: column '${field.name}' has ${child?.length ?? 0} values for ${numRows} rows`,
        { hint: DAMAGED },
      );
    }
    return { name: field.name, type, arrowType: field.type as ArrowFieldType };
  });
  return { table, numRows, fields, rows };
}

/**
 * Column `i` of an opened Arrow table as a transfer column: from its buffers (arrowColumnar/),
 * else value by value.
 * @throws {DataError} DATA_CORRUPT for a damaged column.
 */
export function arrowColumnAt(
  opened: OpenedArrow,
  i: number,
  file: string,
  options: ArrowDecodeOptions = {},
): ColumnData {
  const { name, type, arrowType } = opened.fields[i]!;
  const child = opened.table.getChildAt(i)!;
  const fast =
    options.columnar === false
      ? null
      : arrowColumn(child.data as unknown as ArrowBatch[], arrowType, opened.rows, file, name, options.beat);
  if (!fast && options.columnar !== false) {
    try {
      eagerDictionaries(child.data);
    } catch (err) {
      throw new DataError('DATA_CORRUPT', `${file}: the Arrow data cannot be decoded (${(err as Error).message})`, {
        hint: DAMAGED,
      });
    }
  }
  return fast ?? valueByValue(child, type, opened.numRows, file, name);
}

/** The per-value path: every value extracted by flechette (`toArray()`), then typed (typedColumn.ts). */
function valueByValue(
  child: { toArray(): unknown },
  type: DeclaredType,
  numRows: number,
  file: string,
  column: string,
): ColumnData {
  let values: ArrayLike<unknown>;
  try {
    values = child.toArray() as ArrayLike<unknown>;
  } catch (err) {
    throw new DataError('DATA_CORRUPT', `${file}: column '${column}' cannot be decoded (${(err as Error).message})`, {
      hint: DAMAGED,
    });
  }
  if (values.length !== numRows)
    throw new DataError(
      'DATA_CORRUPT',
      `${file}: column '${column}' decoded to ${values.length} values for ${numRows} rows`,
      { hint: DAMAGED },
    );
  return typedColumn(values, type).column;
}

function declared(t: { typeId: number; dictionary?: { typeId: number } }, column: string, file: string): DeclaredType {
  const id = t.typeId === Type.Dictionary && t.dictionary ? t.dictionary.typeId : t.typeId;
  if (id === Type.Int) return 'integer';
  if (id === Type.Float || id === Type.Decimal) return 'number';
  if (id === Type.Bool) return 'boolean';
  if (id === Type.Date || id === Type.Timestamp) return 'date';
  if (id === Type.Null || UTF8_IDS.has(id)) return 'string';
  throw new DataError(
    'DATA_UNSUPPORTED',
    `${file}: column '${column}' has Arrow type id ${id} (binary, list, struct, map, union, interval or time), which sbirtools cannot load`,
    {
      hint: 'Cast it to a number, a string or a timestamp before writing the file, or drop the column.',
    },
  );
}

/** The Arrow IPC file magic at both ends, or a stream's first message (continuation marker or a plausible length). */
export function looksLikeArrow(b: Uint8Array): boolean {
  const magic = [0x41, 0x52, 0x52, 0x4f, 0x57, 0x31]; // ARROW1
  const at = (o: number) => magic.every((m, i) => b[o + i] === m);
  if (b.length >= 12 && at(0)) return at(b.length - 6);
  return b.length >= 8 && b[0] === 0xff && b[1] === 0xff && b[2] === 0xff && b[3] === 0xff;
}
