import type { FileMetaData, SchemaElement } from 'hyparquet';
import { DataError } from '../errors.js';
import type { DeclaredType } from './typedColumn.js';

/** One flat Parquet column: its schema element and the type sbirtools gives it. */
export interface ParquetLeaf {
  name: string;
  element: SchemaElement;
  type: DeclaredType;
}

const NESTED_HINT =
  "Flatten nested columns (lists, maps, structs) before loading, e.g. in DuckDB: COPY (SELECT a, b.c AS b_c FROM t) TO 'flat.parquet'; or save the table as CSV.";

/**
 * The flat columns of a Parquet file with their sbirtools types, or a typed error: nested
 * groups, repeated fields and types without a faithful column kind are refused up front rather
 * than decoded into something else.
 * @throws {DataError} DATA_UNSUPPORTED (nested or unsupported type), DATA_CORRUPT (inconsistent schema).
 */
export function parquetLeaves(meta: FileMetaData, file: string): ParquetLeaf[] {
  const [root, ...rest] = meta.schema;
  if (!root || root.num_children === undefined || root.num_children !== rest.length) {
    if (rest.some((e) => e.num_children !== undefined)) {
      throw new DataError(
        'DATA_UNSUPPORTED',
        `${file}: nested Parquet columns (groups, lists or maps) are not supported`,
        { hint: NESTED_HINT },
      );
    }
    throw new DataError(
      'DATA_CORRUPT',
      `${file}: the Parquet schema is inconsistent (the root lists ${String(root?.num_children)} columns, the file has ${rest.length})`,
      { hint: 'The file is damaged or not written by a Parquet writer; write it again.' },
    );
  }
  if (rest.length === 0)
    throw new DataError('DATA_CORRUPT', `${file}: the Parquet schema has no columns`, {
      hint: 'The file is damaged or empty; write it again with at least one column.',
    });
  const seen = new Set<string>();
  return rest.map((element) => {
    if (element.num_children !== undefined || element.repetition_type === 'REPEATED') {
      throw new DataError(
        'DATA_UNSUPPORTED',
        `${file}: column '${element.name}' is nested or repeated, which is not supported`,
        { hint: NESTED_HINT },
      );
    }
    if (seen.has(element.name))
      throw new DataError('DATA_CORRUPT', `${file}: column '${element.name}' appears twice in the Parquet schema`, {
        hint: 'Give every column a distinct name.',
      });
    seen.add(element.name);
    return { name: element.name, element, type: leafType(element, file) };
  });
}

function leafType(e: SchemaElement, file: string): DeclaredType {
  const logical = e.logical_type?.type;
  const conv = e.converted_type;
  const unsupported = (what: string) =>
    new DataError('DATA_UNSUPPORTED', `${file}: column '${e.name}' has type ${what}, which sbirtools cannot load`, {
      hint: 'Cast it to a number, a string or a timestamp before writing the file, or drop the column.',
    });
  if (
    logical === 'GEOMETRY' ||
    logical === 'GEOGRAPHY' ||
    logical === 'VARIANT' ||
    logical === 'INTERVAL' ||
    conv === 'INTERVAL' ||
    conv === 'MAP' ||
    conv === 'LIST'
  ) {
    throw unsupported(logical ?? conv ?? 'unknown');
  }
  switch (e.type) {
    case 'BOOLEAN':
      return 'boolean';
    case 'FLOAT':
    case 'DOUBLE':
      return 'number';
    case 'INT96':
      return 'date';
    case 'INT32':
    case 'INT64':
      if (
        conv === 'DATE' ||
        logical === 'DATE' ||
        conv === 'TIMESTAMP_MILLIS' ||
        conv === 'TIMESTAMP_MICROS' ||
        logical === 'TIMESTAMP'
      )
        return 'date';
      if (conv === 'DECIMAL' || logical === 'DECIMAL') return (e.scale ?? 0) > 0 ? 'number' : 'integer';
      return 'integer';
    case 'BYTE_ARRAY':
      if (conv === 'DECIMAL' || logical === 'DECIMAL') return 'number';
      return 'string';
    case 'FIXED_LEN_BYTE_ARRAY':
      if (conv === 'DECIMAL' || logical === 'DECIMAL') return 'number';
      if (logical === 'FLOAT16') return 'number';
      if (logical === 'UUID') return 'string';
      throw unsupported('FIXED_LEN_BYTE_ARRAY (raw bytes)');
    default:
      throw unsupported(String(e.type));
  }
}
