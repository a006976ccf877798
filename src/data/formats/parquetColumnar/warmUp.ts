import { parquetWriteBuffer } from 'hyparquet-writer';
import { DEFAULT_DECODE_CAPS } from '../decodeCaps.js';
import { warmRounds } from '../warmRounds.js';
import { decodeParquet } from '../parquet.js';

const ROWS = 20_000;

/**
 * Decode a small synthetic Parquet file a few times so V8 optimizes the columnar decoder's hot
 * loops before a real file arrives: a fresh decode worker otherwise runs them in the interpreter
 * for most of a 200,000-row table (about half the decode time on the 2-core VM). Used by a
 * spare decode worker while it waits; `stop()` is polled between rounds, so a job that arrives
 * waits at most one round (a few ms).
 * @example await warmUpParquet(() => jobArrived);
 */
export async function warmUpParquet(stop: () => boolean, rounds = 8): Promise<void> {
  const bytes = sample();
  await warmRounds(stop, rounds, () => decodeParquet('warm', bytes, 'warm-up.parquet', DEFAULT_DECODE_CAPS));
}

/** One column of each shape the decoder has a loop for: dictionary-coded text, PLAIN text that is unique and that repeats (with and without nulls), ints, floats, dates, booleans, and the DELTA / BYTE_STREAM_SPLIT encodings. */
function sample(): Uint8Array {
  const ids = new Array<string>(ROWS);
  const names = new Array<string | null>(ROWS);
  const labels = new Array<string>(ROWS);
  const amounts = new Array<number | null>(ROWS);
  const small = new Int32Array(ROWS);
  const big = new Array<bigint>(ROWS);
  const dates = new Array<Date>(ROWS);
  const flags = new Array<boolean | null>(ROWS);
  for (let i = 0; i < ROWS; i++) {
    ids[i] = `U${(1e11 + i * 7919).toString(36)}`;
    names[i] = i % 7 === 0 ? null : `Company ${i % 3000}`;
    labels[i] = `Label ${i % 4000}`;
    amounts[i] = i % 5 === 0 ? null : i * 37.5;
    small[i] = i % 500;
    big[i] = BigInt(i * 1000);
    dates[i] = new Date(Date.UTC(2000, 0, 1) + (i % 9000) * 86_400_000);
    flags[i] = i % 11 === 0 ? null : i % 3 === 0;
  }
  return new Uint8Array(
    parquetWriteBuffer({
      columnData: [
        { name: 'id', data: ids, type: 'STRING', nullable: false, encoding: 'PLAIN' },
        { name: 'name', data: names, type: 'STRING', encoding: 'RLE_DICTIONARY' },
        { name: 'plainName', data: names, type: 'STRING', encoding: 'PLAIN' },
        { name: 'label', data: labels, type: 'STRING', nullable: false, encoding: 'PLAIN' },
        { name: 'amount', data: amounts, type: 'DOUBLE' },
        { name: 'small', data: small, type: 'INT32', nullable: false, encoding: 'RLE_DICTIONARY' },
        { name: 'big', data: big, type: 'INT64', nullable: false, encoding: 'PLAIN' },
        { name: 'when', data: dates, type: 'TIMESTAMP', nullable: false },
        { name: 'flag', data: flags, type: 'BOOLEAN' },
        // the encodings of PARQUET_VERSION 2 writers (DuckDB V2, pyarrow data_page_version 2.0)
        { name: 'deltaInts', data: small, type: 'INT32', nullable: false, encoding: 'DELTA_BINARY_PACKED' },
        { name: 'deltaText', data: labels, type: 'STRING', nullable: false, encoding: 'DELTA_LENGTH_BYTE_ARRAY' },
        { name: 'split', data: amounts, type: 'DOUBLE', encoding: 'BYTE_STREAM_SPLIT' },
      ],
      statistics: false,
    }),
  );
}
