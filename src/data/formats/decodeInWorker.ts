import { existsSync } from 'node:fs';
import { dirname, join, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { ColumnarTable } from '../../../schema/columnar.js';
import { DataError, type DataErrorCode } from '../errors.js';
import { DEFAULT_DECODE_CAPS, type DecodeCaps } from './decodeCaps.js';
import type { DecodedFormat } from './decodeTable.js';
import { decodeWorker, keepSpare, returnSpare } from './spareWorker.js';

/** How long after a decode the spare worker for the next one is started. */
const SPARE_DELAY_MS = 500;
/** Decodes under way in this process: the spare (and its warm-up) never starts while one runs. */
let active = 0;

/**
 * Decode a Parquet, Arrow, JSON or NDJSON table file in a worker thread with its own heap limit
 * (`resourceLimits`) and a wall-clock deadline. File readers are not hardened: on a hostile file
 * they can allocate without bound, recurse until the stack overflows or spin. Here such a file
 * ends the worker (terminated on overrun) and the caller gets a DataError; the host process, its
 * sessions and its other tables are untouched. Each decode has its own worker (one file per
 * worker, terminated after it); a spare worker with the readers loaded is kept ready for the next
 * decode (spareWorker.ts), so the thread start and module compile are off the critical path
 * (about 85 MB of idle memory; SBIRTOOLS_DECODE_SPARE=0 turns it off).
 * @throws {DataError} the format's codes, DATA_TOO_LARGE (heap overrun), DATA_DECODE_FAILED (deadline, crash).
 * @example const t = await decodeInWorker('portfolio', bytes, 'portfolio.parquet', 'parquet');
 */
export function decodeInWorker(name: string, bytes: Uint8Array, file: string, format: DecodedFormat, caps: Partial<DecodeCaps> = {}): Promise<ColumnarTable> {
  const c: DecodeCaps = { ...DEFAULT_DECODE_CAPS, ...caps };
  if (bytes.byteLength > c.maxInputBytes) {
    return Promise.reject(new DataError('DATA_TOO_LARGE', `${file}: ${bytes.byteLength} bytes, more than the ${c.maxInputBytes}-byte limit for a table file`, { hint: 'Filter or aggregate the data first, or load fewer columns.' }));
  }
  return new Promise((resolve, reject) => {
    let settled = false;
    const script = workerPath();
    const { worker, post, reusable, decodes } = decodeWorker(script, { name, bytes, file, format, caps: c }, c.heapMb);
    active++;
    const finish = (fn: () => void, kept = false) => {
      if (settled) return;
      settled = true;
      active--;
      clearTimeout(timer);
      fn();
      if (!kept) void worker.terminate();
      // the next decode's worker starts a little after this one ends, not competing with it
      // or with the session that is about to use the table
      const later = () => (active === 0 && process.env.SBIRTOOLS_DECODE_SPARE !== '0' ? keepSpare(script, DEFAULT_DECODE_CAPS.heapMb) : undefined);
      setTimeout(later, SPARE_DELAY_MS).unref();
    };
    const timer = setTimeout(() => {
      finish(() => reject(new DataError('DATA_DECODE_FAILED', `${file}: decoding took longer than ${c.timeoutMs} ms and was stopped`, { hint: 'The file is too large or crafted to be slow: split it, or load fewer columns.' })));
    }, c.timeoutMs);
    worker.on('message', (msg: { table?: ColumnarTable; heapUsed?: number; error?: { code: DataErrorCode; message: string; hint?: string } }) => {
      // a spare that decoded this file cleanly stays warm for the next one (spareWorker.ts)
      const kept = !!msg.table && reusable && process.env.SBIRTOOLS_DECODE_SPARE !== '0' && returnSpare(worker, c.heapMb, decodes, msg.heapUsed ?? -1);
      finish(() => (msg.table ? resolve(msg.table) : reject(new DataError(msg.error?.code ?? 'DATA_CORRUPT', msg.error?.message ?? `${file}: cannot be decoded`, { hint: msg.error?.hint }))), kept);
    });
    worker.on('error', (err: Error & { code?: string }) => {
      const oom = err.code === 'ERR_WORKER_OUT_OF_MEMORY' || /out of memory|heap/i.test(err.message);
      finish(() =>
        reject(
          oom
            ? new DataError('DATA_TOO_LARGE', `${file}: decoding needed more than the ${c.heapMb} MB decode heap`, { hint: 'The file inflates to more than fits in memory (or is crafted to): split it or load fewer columns.' })
            : new DataError('DATA_DECODE_FAILED', `${file}: the ${format} decoder failed (${err.message.slice(0, 300)})`, { hint: 'The file is damaged or uses features sbirtools cannot read; write it again with pyarrow, DuckDB or Polars.' }),
        ),
      );
    });
    worker.on('exit', (code) => {
      finish(() => reject(new DataError('DATA_DECODE_FAILED', `${file}: the ${format} decoder stopped (exit code ${code}) before finishing`, { hint: 'The file is damaged or crafted to crash readers; write it again.' })));
    });
    post();
  });
}

/**
 * The compiled worker script: beside this file when this is the compiled module
 * (dist/src/data/formats/), else under the package's dist/ — from src/ under vitest, or from a
 * one-file bundle such as the holder's (dist/holder/holderMain.mjs), where `import.meta.url` names
 * the bundle, not this module.
 */
function workerPath(): URL {
  const here = fileURLToPath(import.meta.url);
  if (here.endsWith(`${sep}decodeInWorker.js`)) return new URL('./decodeWorker.js', import.meta.url);
  for (let dir = dirname(here); ; dir = dirname(dir)) {
    const compiled = join(dir, 'dist', 'src', 'data', 'formats', 'decodeWorker.js');
    if (existsSync(compiled)) return pathToFileURL(compiled);
    if (dirname(dir) === dir) break;
  }
  throw new Error(`sbirtools: dist/src/data/formats/decodeWorker.js is missing above ${here}. Run \`npm run build\`.`);
}
