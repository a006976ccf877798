import type { FileMetaData } from 'hyparquet';

/** Which part of a file one decode worker decodes: `index` of `count` (decodeInWorker.ts). */
export interface TablePart {
  index: number;
  count: number;
}

/**
 * The leaf columns that part `part.index` of `part.count` decodes: every leaf goes to exactly one
 * part, the largest first (by uncompressed bytes over all row groups) to the part with the least
 * so far, ties to the lower index. It depends only on the footer, so every worker reading the
 * same file computes the same split. Returns leaf indices in file order.
 * @example partLeaves(meta, 8, { index: 1, count: 2 }) // [0, 2, 3, 4, 5]
 */
export function partLeaves(meta: FileMetaData, leafCount: number, part: TablePart): number[] {
  const size = new Array<number>(leafCount).fill(0);
  for (const rg of meta.row_groups)
    rg.columns.forEach((chunk, c) => (size[c] += Number(chunk.meta_data?.total_uncompressed_size ?? 0) || 0));
  const order = size.map((_, c) => c).sort((a, b) => size[b] - size[a] || a - b);
  const load = new Array<number>(part.count).fill(0);
  const owner = new Array<number>(leafCount);
  for (const c of order) {
    let best = 0;
    for (let p = 1; p < part.count; p++) if (load[p] < load[best]) best = p;
    owner[c] = best;
    load[best] += size[c] + 1;
  }
  return owner.flatMap((p, c) => (p === part.index ? [c] : []));
}
