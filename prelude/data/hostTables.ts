/** Builds the host tables (award_data, ...) as Arquero tables over lazily fetched columns. */
import { noteHostTable } from './columnArrays.js';
import { ColumnTable } from 'arquero';
import { ObjectDefineProperty, ReflectApply } from '../intrinsics.js';
import type { ColumnData, TableMeta, TextPage, TextScanRequest } from '../../schema/columnar.js';
import { LazyColumn } from './lazyColumn.js';
import type { TextCache } from './textCache.js';

/** Synchronous host call returning a copy of one column (bridge.fetchColumn). */
export type FetchColumn = (table: string, column: string) => ColumnData;

/** Optional host call returning rows [start, end) of a utf8 column (bridge.fetchColumnRange). */
export type FetchColumnRange = (table: string, column: string, start: number, end: number) => ColumnData;

/** Optional host call returning rows [start, end) of a utf8 column decoded to strings (bridge.fetchTextPage). */
export type FetchTextPageOf = (table: string, column: string, start: number, end: number) => TextPage;

/**
 * Optional host call answering a length or a literal contains for rows [start, end) of a utf8 column
 * from its bytes (bridge.textScan); null when the host leaves that page to the guest.
 */
export type TextScanOf = (
  table: string,
  column: string,
  start: number,
  end: number,
  req: TextScanRequest,
) => Int32Array | Uint8Array | null;

/** Optional host call: rows [start, end) of a non-text column read alone, or null (bridge.fetchRowWindow). */
export type FetchRowWindow = (table: string, column: string, start: number, end: number) => ColumnData | null;

/**
 * Optional host call: a utf8 column's dictionary form built from its bytes (bridge.textCodes: one
 * code per decoded string, in order of first appearance), or null when the host cannot build it.
 */
export type TextCodesOf = (table: string, column: string) => ColumnData | null;

/** Optional host call: the kind of a column whose meta has `kindPending` (bridge.columnKind). */
export type ColumnKindOf = (table: string, column: string) => ColumnData['kind'];

/** The optional ways to read text columns in pages; `textCache` is required with `fetchText`. */
export interface TextSources {
  fetchRange?: FetchColumnRange;
  fetchText?: FetchTextPageOf;
  scanText?: TextScanOf;
  textCodes?: TextCodesOf;
  columnKind?: ColumnKindOf;
  fetchWindow?: FetchRowWindow;
  textCache?: TextCache;
}

/**
 * One Arquero table per TableMeta; no column is fetched until a row value is read.
 * @example hostTables(bridge.tables, bridge.fetchColumn).award_data.numRows()
 */
export function hostTables(
  metas: readonly TableMeta[],
  fetch: FetchColumn,
  sources: TextSources | FetchColumnRange = {},
): Record<string, ColumnTable> {
  const src: TextSources = typeof sources === 'function' ? { fetchRange: sources } : sources;
  const { fetchRange, fetchText, scanText, textCodes, columnKind, fetchWindow, textCache } = src;
  const out: Record<string, ColumnTable> = {};
  for (const meta of metas) {
    // no prototype: a column named __proto__ (or constructor) is an ordinary own property
    const cols: Record<string, LazyColumn> = Object.create(null);
    const names: string[] = [];
    for (const c of meta.columns) {
      cols[c.name] = new LazyColumn(c, meta.numRows, () => fetch(meta.name, c.name), {
        fetchRange: fetchRange && ((start: number, end: number) => fetchRange(meta.name, c.name, start, end)),
        fetchText: fetchText && ((start: number, end: number) => fetchText(meta.name, c.name, start, end)),
        scanText:
          scanText &&
          ((start: number, end: number, req: TextScanRequest) => scanText(meta.name, c.name, start, end, req)),
        codesOf: textCodes && (() => textCodes(meta.name, c.name)),
        cache: textCache,
        kindOf: columnKind && (() => columnKind(meta.name, c.name)),
        fetchWindow: fetchWindow && ((start: number, end: number) => fetchWindow(meta.name, c.name, start, end)),
      });
      names.push(c.name);
    }
    out[meta.name] = ownIndices(new ColumnTable(cols, names));
    noteHostTable(out[meta.name]);
  }
  return out;
}

const protoIndices = ColumnTable.prototype.indices;

/**
 * A host table whose `indices()` hands out an array of the caller's own. Arquero keeps its first
 * answer in `_index` and returns that array again (to the caller, to `join`, to `partitions()`), and
 * a host table lives for the session: a run that reversed or filled it (`award_data.indices()
 * .reverse()`) would change every later run's joins. The index is not kept (Arquero builds it when
 * asked; nothing the prelude runs asks it of a table that is neither filtered nor ordered).
 */
function ownIndices(table: ColumnTable): ColumnTable {
  ObjectDefineProperty(table, 'indices', {
    value: function indices(this: ColumnTable, ...args: unknown[]) {
      const idx = ReflectApply(protoIndices, this, args) as Uint32Array;
      if (this === table) (table as unknown as { _index: Uint32Array | null })._index = null;
      return idx;
    },
    writable: true,
    configurable: true,
  });
  return table;
}
