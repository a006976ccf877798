import { extname } from 'node:path';
import { looksLikeArrow } from './arrow.js';

/** The table file formats sbirtools reads. */
export const TABLE_FORMATS = ['csv', 'parquet', 'arrow', 'json', 'ndjson'] as const;
export type TableFormat = (typeof TABLE_FORMATS)[number];

const BY_EXTENSION: Record<string, TableFormat> = {
  '.csv': 'csv',
  '.tsv': 'csv',
  '.parquet': 'parquet',
  '.pq': 'parquet',
  '.arrow': 'arrow',
  '.arrows': 'arrow',
  '.feather': 'arrow',
  '.ipc': 'arrow',
  '.json': 'json',
  '.ndjson': 'ndjson',
  '.jsonl': 'ndjson',
};

/**
 * The format of a table file: from its first bytes when they are decisive (Parquet's PAR1, Arrow's
 * ARROW1 or stream marker), else from the name's extension, else JSON/NDJSON by the first
 * character, else CSV.
 * @example detectFormat(bytes, 'portfolio.parquet') // 'parquet'
 */
export function detectFormat(head: Uint8Array, name = ''): TableFormat {
  if (head.length >= 4 && head[0] === 0x50 && head[1] === 0x41 && head[2] === 0x52 && head[3] === 0x31)
    return 'parquet';
  if (
    head.length >= 6 &&
    head[0] === 0x41 &&
    head[1] === 0x52 &&
    head[2] === 0x52 &&
    head[3] === 0x4f &&
    head[4] === 0x57 &&
    head[5] === 0x31
  )
    return 'arrow';
  if (looksLikeArrow(head)) return 'arrow';
  const byName = BY_EXTENSION[extname(name.replace(/[?#].*$/, '')).toLowerCase()];
  if (byName) return byName;
  let i = head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf ? 3 : 0;
  while (i < head.length && (head[i] === 0x20 || head[i] === 0x09 || head[i] === 0x0a || head[i] === 0x0d)) i++;
  if (head[i] === 0x5b) return 'json'; // [
  if (head[i] === 0x7b) return ndjsonLike(head, i) ? 'ndjson' : 'json'; // {
  return 'csv';
}

/** `{...}\n{` : a first line that closes an object and a second line that opens one. */
function ndjsonLike(head: Uint8Array, start: number): boolean {
  const nl = head.indexOf(0x0a, start);
  if (nl < 0) return false;
  let end = nl - 1;
  while (end > start && (head[end] === 0x20 || head[end] === 0x0d || head[end] === 0x09)) end--;
  let next = nl + 1;
  while (
    next < head.length &&
    (head[next] === 0x20 || head[next] === 0x0d || head[next] === 0x0a || head[next] === 0x09)
  )
    next++;
  return head[end] === 0x7d && (next >= head.length || head[next] === 0x7b);
}
