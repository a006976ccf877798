/**
 * The FileMetaData footer (Thrift compact): the schema (every column OPTIONAL; text UTF8/STRING,
 * dates INT64 TIMESTAMP_MILLIS adjusted to UTC), the row groups with each chunk's offsets, sizes,
 * encodings and statistics, and created_by 'sbirtools'.
 */
import type { ByteSink } from './byteSink.js';
import type { ColumnPlan } from './plan.js';
import { physicalOf, type ChunkMeta } from './chunk.js';
import { T, ThriftWriter } from './thrift.js';

/** A written row group. */
export interface RowGroupMeta {
  numRows: number;
  chunks: ChunkMeta[];
}

/** Appends the footer for `plans` and `groups` to `out`. */
export function writeFooter(out: ByteSink, plans: ColumnPlan[], groups: RowGroupMeta[], numRows: number): void {
  const w = new ThriftWriter(out);
  w.i32(1, 2);
  w.list(2, T.STRUCT, plans.length + 1);
  w.begin().string(4, 'schema').i32(5, plans.length).end();
  for (const p of plans) {
    w.begin().i32(1, physicalOf(p)).i32(3, 1).string(4, p.name);
    if (p.kind === 'timestamp') {
      w.i32(6, 9); // TIMESTAMP_MILLIS
      w.begin(10).begin(8).bool(1, true).begin(2).begin(1).end().end().end().end();
    } else if (physicalOf(p) === 6) {
      w.i32(6, 0); // UTF8
      w.begin(10).begin(1).end().end();
    }
    w.end();
  }
  w.i64(3, numRows);
  w.list(4, T.STRUCT, groups.length);
  for (const g of groups) {
    w.begin();
    w.list(1, T.STRUCT, g.chunks.length);
    let bytes = 0;
    let stored = 0;
    g.chunks.forEach((c, i) => {
      bytes += c.uncompressed;
      stored += c.size;
      w.begin().i64(2, c.offset).begin(3);
      w.i32(1, c.type);
      w.list(2, T.I32, c.encodings.length);
      for (const e of c.encodings) w.item32(e);
      w.list(3, T.BINARY, 1).itemString(plans[i].name);
      w.i32(4, c.codec).i64(5, c.numValues).i64(6, c.uncompressed).i64(7, c.size).i64(9, c.dataPageOffset);
      if (c.dictPageOffset >= 0) w.i64(11, c.dictPageOffset);
      w.begin(12).i64(3, c.nulls);
      if (c.min && c.max) w.binary(5, c.max).binary(6, c.min);
      w.end();
      w.end().end();
    });
    w.i64(2, bytes).i64(3, g.numRows);
    if (g.chunks.length) w.i64(5, g.chunks[0].offset);
    w.i64(6, stored);
    w.end();
  }
  w.string(6, 'sbirtools');
  w.end();
}
