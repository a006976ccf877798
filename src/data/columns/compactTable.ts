import type { ColumnarTable, ColumnData } from '../../../schema/columnar.js';

type Typed = Float64Array | Int32Array | Uint8Array;

function tight<T extends Typed>(a: T): T {
  // a view over a larger buffer would drag the whole buffer through structured clone, and a
  // resizable buffer (ByteStore's) is not something every consumer (isolated-vm) accepts
  const resizable = (a.buffer as { resizable?: boolean }).resizable === true;
  return !resizable && a.byteOffset === 0 && a.byteLength === a.buffer.byteLength ? a : (a.slice() as T);
}

/** The column with every array owning exactly its bytes. */
export function compactColumn(c: ColumnData): ColumnData {
  switch (c.kind) {
    case 'float64':
      return { ...c, values: tight(c.values), valid: tight(c.valid) };
    case 'bool':
      return { ...c, values: tight(c.values), valid: tight(c.valid) };
    case 'utf8':
      return { ...c, bytes: tight(c.bytes), offsets: tight(c.offsets), valid: tight(c.valid) };
    case 'dict':
      return { ...c, codes: tight(c.codes), dictBytes: tight(c.dictBytes), dictOffsets: tight(c.dictOffsets) };
  }
}

/** Copies views that share a larger buffer, so the table can cross IPC or isolates cheaply. */
export function compactTable(t: ColumnarTable): ColumnarTable {
  return { ...t, columns: t.columns.map((c) => ({ ...c, data: compactColumn(c.data) })) };
}
