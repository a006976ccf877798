/**
 * Worker thread of columnWorkers.ts: keeps the checked footer of each lazily decoded Parquet file
 * (read through the holder's open descriptor: the footer and page headers at open, then only the
 * column chunks a job decodes) and decodes one column, or one run of its row groups, per job. Each job's answer goes on the job's port (typed arrays transferred,
 * not copied) and then the job's flag is raised, so the holder may wait for it synchronously. A
 * heartbeat (`status[0]`, bumped per Parquet row group, per Arrow record batch (arrowColumn.ts) and
 * every second the thread is free) and the heap
 * in use (`status[1]`, MiB) tell the waiting holder whether this thread still works: a thread
 * ended by its heap limit stops beating, and the holder then reports DATA_TOO_LARGE.
 */
import { getHeapStatistics } from 'node:v8';
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import type { ColumnData } from '../../../../schema/columnar.js';
import { DataError } from '../../errors.js';
import { fileSource, type ByteSource } from '../byteSource.js';
import { cappedCompressors } from '../cappedCompressors.js';
import { checkColumnNames } from '../checkColumnNames.js';
import type { DecodeCaps } from '../decodeCaps.js';
import { openParquet, type OpenedParquet } from '../parquet.js';
import { decodeLeaf } from '../parquetColumnar/decodeColumnar.js';
import { parquetRows } from '../parquetRows.js';
import { loadZstd } from '../zstd.js';
import type { ColumnAnswer, ColumnJob } from './columnJob.js';
import { openLazyArrow, type LazyArrowFile } from '../arrowColumnar/lazyArrow.js';

const status = (workerData as { status: Int32Array }).status;
const files = new Map<number, OpenedParquet & { source: ByteSource; file: string; caps: DecodeCaps }>();
const arrowFiles = new Map<number, LazyArrowFile>();

function beat(): void {
  Atomics.add(status, 0, 1);
  Atomics.store(status, 1, Math.round(getHeapStatistics().used_heap_size / 1048576));
}
setInterval(beat, 1000).unref();
// the holder tells a thread that never loaded this script from one that stopped (columnWorkers.ts)
if (status.length > 2) Atomics.store(status, 2, 1);

async function run(job: ColumnJob): Promise<{ answer: ColumnAnswer; transfer: ArrayBuffer[] }> {
  if (job.op === 'open' && job.format === 'arrow') {
    const f = openLazyArrow(fileSource(job.fd, job.size, job.file), job.file, job.caps);
    arrowFiles.set(job.id, f);
    return { answer: { ok: true, opened: f.opened }, transfer: [] };
  }
  if (job.op === 'open') {
    const source = fileSource(job.fd, job.size, job.file);
    const opened = openParquet(source, job.file, job.caps, job.checkedRows);
    checkColumnNames(
      opened.leaves.map((l) => l.name),
      job.file,
      job.caps,
    );
    if (opened.meta.row_groups.some((rg) => rg.columns.some((chunk) => chunk.meta_data?.codec === 'ZSTD')))
      await loadZstd();
    files.set(job.id, { ...opened, source, file: job.file, caps: job.caps });
    const groupRows = opened.meta.row_groups.map((rg) => Number(rg.num_rows));
    const groupBytes = opened.meta.row_groups.map((rg) =>
      rg.columns.map((chunk) => Number(chunk.meta_data?.total_compressed_size ?? 0) || 0),
    );
    return {
      answer: {
        ok: true,
        opened: {
          numRows: opened.numRows,
          columns: opened.leaves.map((l, c) => ({ name: l.name, type: l.type, settled: settled(opened, c) })),
          groupRows,
          groupBytes,
        },
      },
      transfer: [],
    };
  }
  if (job.op === 'close') {
    files.delete(job.id);
    arrowFiles.delete(job.id);
    return { answer: { ok: true }, transfer: [] };
  }
  const arrow = arrowFiles.get(job.id);
  // beats as the column is written: a whole 5M-row text column can outlast STALL_MS on a saturated host
  if (arrow) return answerWith(arrow.column(job.leaf, beat));
  const f = files.get(job.id);
  if (!f) return { answer: { ok: false, reopen: true }, transfer: [] };
  const { meta, leaves } = f;
  const rows = meta.row_groups.slice(job.from, job.to).reduce((n, rg) => n + Number(rg.num_rows), 0);
  const leaf = leaves[job.leaf];
  let column: ColumnData | null = decodeLeaf(
    f.source,
    meta,
    leaf,
    job.leaf,
    [job.from, job.to],
    rows,
    cappedCompressors(f.caps),
    f.file,
    beat,
    job.from === 0 && job.to === meta.row_groups.length ? undefined : f.numRows,
    // the first part of a split column: arrays with room for the whole column (joinColumns.ts)
    job.from === 0 && job.to < meta.row_groups.length ? f.numRows : undefined,
  );
  if (column === null) {
    // a column the columnar decoder leaves to hyparquet: whole only, from the whole file read
    // into this thread for the job (hyparquet reads by file offset)
    if (job.from !== 0 || job.to !== meta.row_groups.length)
      return { answer: { ok: false, whole: true }, transfer: [] };
    const buffer = f.source.read(0, f.source.size).buffer as ArrayBuffer;
    [column] = await parquetRows(buffer, meta, leaves, [job.leaf], f.numRows, f.caps, f.file);
  }
  return answerWith(column);
}

/** The column as an answer, its typed arrays transferred (a view over the shared file is copied first). */
function answerWith(column: ColumnData): { answer: ColumnAnswer; transfer: ArrayBuffer[] } {
  const out = { ...column } as Record<string, unknown>;
  const transfer = new Set<ArrayBuffer>();
  for (const [k, v] of Object.entries(out))
    if (ArrayBuffer.isView(v)) {
      const own = v.buffer instanceof SharedArrayBuffer ? (v as Uint8Array).slice() : v;
      out[k] = own;
      transfer.add(own.buffer as ArrayBuffer);
    }
  return { answer: { ok: true, column: out as unknown as ColumnData }, transfer: [...transfer] };
}

const SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/**
 * False for an INT64 integer column whose footer statistics do not prove every value within 2^53:
 * such values are kept as exact text (typedColumn.ts), so its type is known only once decoded.
 */
function settled(opened: OpenedParquet, c: number): boolean {
  const leaf = opened.leaves[c];
  if (leaf.type !== 'integer' || leaf.element.type !== 'INT64') return true;
  return opened.meta.row_groups.every((rg) => {
    const md = rg.columns[c].meta_data;
    const st = md?.statistics;
    if (Number(rg.num_rows) === 0 || (st?.null_count !== undefined && Number(st.null_count) === Number(rg.num_rows)))
      return true;
    const lo = st?.min_value ?? st?.min;
    const hi = st?.max_value ?? st?.max;
    const safe = (v: unknown) =>
      (typeof v === 'bigint' && v <= SAFE && v >= -SAFE) || (typeof v === 'number' && Number.isSafeInteger(v));
    return safe(lo) && safe(hi);
  });
}

let queue: Promise<void> = Promise.resolve();
parentPort!.on('message', (msg: { job: ColumnJob; port: MessagePort; flag: Int32Array }) => {
  // one job at a time, in order: a table's open always comes before its columns
  queue = queue.then(async () => {
    beat();
    let out: { answer: ColumnAnswer; transfer: ArrayBuffer[] };
    try {
      out = await run(msg.job);
    } catch (err) {
      const e = err as Error & { code?: string; hint?: string };
      out = {
        answer: {
          ok: false,
          error:
            err instanceof DataError
              ? { code: e.code!, message: e.message, ...(e.hint ? { hint: e.hint } : {}) }
              : {
                  code: 'DATA_CORRUPT',
                  message: `the table file cannot be decoded (${String(e?.message ?? err).slice(0, 500)})`,
                },
        },
        transfer: [],
      };
    }
    msg.port.postMessage(out.answer, out.transfer);
    msg.port.close();
    Atomics.store(msg.flag, 0, 1);
    Atomics.notify(msg.flag, 0);
  });
});
