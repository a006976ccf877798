// A column worker proves it still works by its heartbeat (columnWorkers.ts: a worker silent for
// STALL_MS is taken for dead, the job fails with DATA_DECODE_FAILED "stopped answering"). A Parquet
// column beats per row group; an Arrow column is written whole in one job, so it must beat as it
// goes too (per record batch, per 64Ki rows while text is dictionary-coded), or a slow but working
// decode on a saturated host (a 5M-row text column at load 26) is killed as a hung one. A worker
// that truly stops beating is still stopped, and one that beats through a long job is not.
import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { columnFromArray, dictionary, float64, int32, tableFromColumns, tableToIPC, utf8 } from '@uwdata/flechette';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DataError } from '../../../../../src/data/index.js';
import { arrowColumn } from '../../../../../src/data/formats/arrowColumnar/arrowColumn.js';
import type { ArrowBatch } from '../../../../../src/data/formats/arrowColumnar/arrowBatch.js';
import { openArrow } from '../../../../../src/data/formats/arrow.js';
import { DEFAULT_DECODE_CAPS } from '../../../../../src/data/formats/decodeCaps.js';
import { ColumnWorkers, columnWorkers } from '../../../../../src/data/formats/lazyParquet/columnWorkers.js';
import type { ColumnAnswer } from '../../../../../src/data/formats/lazyParquet/columnJob.js';
import { waitFor } from '../../../../helpers/waitFor.js';

const BATCHES = 40;
const BATCH = 1_000;
let dir: string;
let path: string;
let size: number;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'sbirtools-arrow-beat-'));
  const idx = Array.from({ length: BATCHES * BATCH }, (_, i) => i);
  const o = { maxBatchRows: BATCH };
  const bytes = tableToIPC(
    tableFromColumns({
      text: columnFromArray(
        idx.map((i) => `abstract ${i}`),
        utf8(),
        o,
      ),
      cat: columnFromArray(
        idx.map((i) => `agency ${i % 7}`),
        dictionary(utf8(), int32()),
        o,
      ),
      amount: columnFromArray(
        idx.map((i) => i * 0.5),
        float64(),
        o,
      ),
    }),
    { format: 'file' },
  )!;
  path = join(dir, 'beat.arrow');
  writeFileSync(path, bytes);
  size = bytes.byteLength;
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('an Arrow column decoded in a column worker beats as it goes', () => {
  it('the worker’s heartbeat advances at least once per record batch of every column it writes', () => {
    const pool = columnWorkers(DEFAULT_DECODE_CAPS.heapMb);
    const fd = openSync(path, 'r');
    const id = 900_001;
    try {
      const open = pool.post(
        0,
        { op: 'open', id, fd, size, file: 'beat.arrow', caps: DEFAULT_DECODE_CAPS, format: 'arrow' },
        DEFAULT_DECODE_CAPS.heapMb,
      );
      const opened = pool.wait(open, 'beat.arrow', DEFAULT_DECODE_CAPS) as ColumnAnswer & { ok: true };
      expect(opened.opened?.columns.map((c) => c.name)).toEqual(['text', 'cat', 'amount']);
      for (const leaf of [0, 1, 2]) {
        const p = pool.post(0, { op: 'column', id, leaf, from: 0, to: 1 }, DEFAULT_DECODE_CAPS.heapMb);
        // the wait moves p.beat to the last beat it saw (its stall check): count from the post's, read
        // before the job was posted (read after, a fast worker's first beats were already in it)
        const before = p.beat;
        const answer = pool.wait(p, 'beat.arrow', DEFAULT_DECODE_CAPS);
        expect(answer.ok, `column ${leaf}`).toBe(true);
        // the thread's own once-a-second beat cannot run during the synchronous write: these are the decode's
        const beats = Atomics.load(p.slot.status, 0) - before;
        expect(beats, `column ${leaf}`).toBeGreaterThanOrEqual(BATCHES);
      }
      pool.wait(pool.post(0, { op: 'close', id }, DEFAULT_DECODE_CAPS.heapMb), 'beat.arrow', DEFAULT_DECODE_CAPS);
    } finally {
      closeSync(fd);
    }
  }, 60_000);

  it('a text column of one record batch beats every 64Ki rows while it is dictionary-coded', () => {
    const rows = 300_000;
    const bytes = tableToIPC(
      tableFromColumns({
        // every value twice: dictionary-coded, so the coding runs over every row
        t: columnFromArray(
          Array.from({ length: rows }, (_, i) => `v${i >> 1}`),
          utf8(),
          { maxBatchRows: rows },
        ),
      }),
      { format: 'file' },
    )!;
    const opened = openArrow(bytes, 'one.arrow', DEFAULT_DECODE_CAPS);
    let beats = 0;
    const child = opened.table.getChildAt(0)!;
    const col = arrowColumn(
      child.data as unknown as ArrowBatch[],
      opened.fields[0].arrowType,
      opened.rows,
      'one.arrow',
      't',
      () => beats++,
    );
    expect(opened.rows).toEqual([rows]);
    expect(col?.kind).toBe('dict');
    expect(beats).toBeGreaterThanOrEqual(Math.floor(rows / 65_536));
  });
});

describe('the column workers’ stall check', () => {
  /** A worker script: marks itself loaded, then for each job runs `body` (plain JS, `status` and `msg` in scope). */
  function script(name: string, body: string): URL {
    const file = join(dir, name);
    writeFileSync(
      file,
      `const { parentPort, workerData } = require('node:worker_threads');
const status = workerData.status;
Atomics.store(status, 2, 1);
parentPort.on('message', (msg) => {
${body}
  msg.port.postMessage({ ok: true });
  Atomics.store(msg.flag, 0, 1);
  Atomics.notify(msg.flag, 0);
});
`,
    );
    return pathToFileURL(file);
  }

  /**
   * Job 0 answered, waited for on its flag rather than through the stall check: the thread has
   * started and loaded its script before the job under test is posted. The stall clock starts at a
   * post, so a first job waited for with wait() would count the thread's start-up (over a second on
   * a loaded machine) as the job's silence, and a stall then reads "could not start".
   */
  async function started(pool: ColumnWorkers): Promise<void> {
    const first = pool.post(0, { op: 'close', id: 0 }, 64);
    await waitFor(() => Atomics.load(first.flag, 0) === 1, { what: 'the worker to answer its first job' });
    expect(pool.wait(first, 'first.arrow', DEFAULT_DECODE_CAPS)).toEqual({ ok: true });
  }

  it('stops a worker that stops beating in a job, as a decoder that stopped answering', async () => {
    const pool = new ColumnWorkers(script('hung.cjs', '  if (msg.job.id === 1) for (;;) {}'), 600);
    await started(pool);
    let err: unknown;
    try {
      pool.wait(pool.post(0, { op: 'close', id: 1 }, 64), 'hung.arrow', DEFAULT_DECODE_CAPS);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(DataError);
    expect((err as DataError).code).toBe('DATA_DECODE_FAILED');
    expect((err as Error).message).toBe('hung.arrow: the column decoder stopped answering');
    expect(pool.running).toBe(0);
  }, 60_000);

  it('lets a worker that beats through a job far longer than the stall limit finish it', async () => {
    // busy for three stall limits, beating every 20 ms: slow, not dead
    const pool = new ColumnWorkers(
      script(
        'slow.cjs',
        `  const end = msg.job.id === 1 ? Date.now() + 3000 : 0;
  let next = 0;
  while (Date.now() < end) if (Date.now() >= next) { Atomics.add(status, 0, 1); next = Date.now() + 20; }`,
      ),
      1000,
    );
    await started(pool);
    expect(pool.wait(pool.post(0, { op: 'close', id: 1 }, 64), 'slow.arrow', DEFAULT_DECODE_CAPS)).toEqual({
      ok: true,
    });
  }, 60_000);
});
