import {
  bool,
  columnFromArray,
  dictionary,
  float64,
  int32,
  int64,
  tableFromColumns,
  tableToIPC,
  timestamp,
  TimeUnit,
  utf8,
} from '@uwdata/flechette';
import { decodeArrow } from '../arrow.js';
import { DEFAULT_DECODE_CAPS } from '../decodeCaps.js';
import { warmRounds } from '../warmRounds.js';

const ROWS = 20_000;

/**
 * Decode a small synthetic Arrow file a few times so V8 optimizes the columnar reader's loops
 * before a real file arrives (a fresh decode worker otherwise runs them in the interpreter for
 * much of a 200,000-row table). For a spare decode worker while it waits, as warmUpParquet;
 * `stop()` is polled between rounds, so a job that arrives waits at most one round (a few ms).
 * @example await warmUpArrow(() => jobArrived);
 */
export async function warmUpArrow(stop: () => boolean, rounds = 8): Promise<void> {
  const bytes = sample();
  await warmRounds(stop, rounds, () => decodeArrow('warm', bytes, 'warm-up.arrow', DEFAULT_DECODE_CAPS));
}

/** One column of each shape the reader has a loop for: dictionary text (unique: plain UTF-8; repeating: codes), plain text with nulls, int64, doubles with nulls, timestamps, int32, booleans with nulls. */
function sample(): Uint8Array {
  const ids = new Array<string>(ROWS);
  const names = new Array<string | null>(ROWS);
  const amounts = new Array<number | null>(ROWS);
  const big = new Array<bigint>(ROWS);
  const dates = new Array<number>(ROWS);
  const small = new Array<number>(ROWS);
  const flags = new Array<boolean | null>(ROWS);
  for (let i = 0; i < ROWS; i++) {
    ids[i] = `U${(1e11 + i * 7919).toString(36)}`;
    names[i] = i % 7 === 0 ? null : `Company ${i % 3000}`;
    amounts[i] = i % 5 === 0 ? null : i * 37.5;
    big[i] = BigInt(i * 1000);
    dates[i] = Date.UTC(2000, 0, 1) + (i % 9000) * 86_400_000;
    small[i] = i % 500;
    flags[i] = i % 11 === 0 ? null : i % 3 === 0;
  }
  const table = tableFromColumns({
    id: columnFromArray(ids, dictionary(utf8())),
    name: columnFromArray(names, dictionary(utf8())),
    plainName: columnFromArray(names, utf8()),
    amount: columnFromArray(amounts, float64()),
    big: columnFromArray(big, int64()),
    when: columnFromArray(dates, timestamp(TimeUnit.MILLISECOND)),
    small: columnFromArray(small, int32()),
    flag: columnFromArray(flags, bool()),
  });
  return tableToIPC(table, { format: 'file' })!;
}
