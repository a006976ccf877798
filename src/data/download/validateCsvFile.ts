import { createReadStream } from 'node:fs';
import { planHeader } from '../ingest/layout.js';
import { sniffNotCsv } from '../ingest/byteSource.js';
import { RecordScanner } from '../ingest/scanner.js';

/** Why a downloaded file is not a complete SBIR award CSV, or its layout if it is. */
export type CsvCheck =
  | { ok: true; layout: 'current' | 'legacy'; records: number }
  | { ok: false; problem: 'not-csv' | 'incomplete'; reason: string };

/**
 * Checks a downloaded file before it may replace the cache: not binary or HTML, an SBIR header
 * (current or legacy layout), and complete (no open quote at the end, and the last record has
 * the header's field count). Scans the whole file with the byte-level scanner (~0.5 s for 400 MB).
 * @example const check = await validateCsvFile('/cache/award_data.csv.part');
 */
export async function validateCsvFile(path: string): Promise<CsvCheck> {
  let width = -1;
  let layout: 'current' | 'legacy' | 'custom' = 'custom';
  let records = 0;
  let lastFields = 0;
  const scanner = new RecordScanner((buf, starts, ends, _flags, n) => {
    if (width < 0) {
      width = n;
      layout = planHeader(Array.from({ length: n }, (_, i) => buf.toString('utf8', starts[i], ends[i]))).layout;
      return;
    }
    records++;
    lastFields = n;
  });
  let first = true;
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 22 }) as AsyncIterable<Buffer>) {
    if (first) {
      const why = sniffNotCsv(chunk);
      if (why) return { ok: false, problem: 'not-csv', reason: why };
      first = false;
    }
    scanner.push(chunk);
    if (width >= 0 && layout === 'custom') break;
  }
  scanner.finish();
  if (width < 0) return { ok: false, problem: 'not-csv', reason: 'it is empty' };
  if (layout === 'custom')
    return {
      ok: false,
      problem: 'not-csv',
      reason: 'its header is not an SBIR award header (current or legacy layout)',
    };
  if (scanner.unterminatedQuote) return { ok: false, problem: 'incomplete', reason: 'it ends inside a quoted field' };
  if (records > 0 && lastFields !== width)
    return { ok: false, problem: 'incomplete', reason: `its last record has ${lastFields} of ${width} fields` };
  return { ok: true, layout, records };
}
