import { open, rename, rm } from 'node:fs/promises';
import { RowMaker, type SyntheticLayout } from './synthetic/rowMaker.js';

/** Options of the synthetic generator. */
export interface SyntheticOptions {
  /** Data rows. @default 5000 */
  rows?: number;
  /** Column names, date/amount/DUNS formats. @default 'current' */
  layout?: SyntheticLayout;
  /** PRNG seed; the same options always give the same bytes. @default 20240601 */
  seed?: number;
  /** Average abstract length in characters. @default 1500 */
  abstractChars?: number;
}

/** Bumped whenever the generator's output changes; part of the sample's cache file name. */
export const SYNTHETIC_VERSION = 1;

/** The embedded default sample: 5,000 rows, current layout. */
export const SYNTHETIC_DEFAULTS: Readonly<Required<SyntheticOptions>> = Object.freeze({
  rows: 5000,
  layout: 'current',
  seed: 20240601,
  abstractChars: 1500,
});

const BATCH_ROWS = 500;

/**
 * Synthetic SBIR award CSV text, in pieces (header first, then batches of rows). Invented data
 * with the real file's shape and quirks: agency/phase/amount/year mixes, blanks, `"  "`
 * placeholders, `N/A` abstracts, embedded CR/LF and quotes, Y/N/U flags.
 * @example for (const piece of syntheticCsv({ rows: 10 })) process.stdout.write(piece);
 */
export function* syntheticCsv(opts: SyntheticOptions = {}): Generator<string> {
  const o = { ...SYNTHETIC_DEFAULTS, ...opts };
  if (!Number.isInteger(o.rows) || o.rows < 0)
    throw new TypeError(`Expected the \`rows\` option to be a non-negative integer, got \`${o.rows}\``);
  const maker = new RowMaker(o.layout, o.seed, o.rows, o.abstractChars);
  yield maker.header();
  for (let done = 0; done < o.rows;) {
    let text = '';
    const end = Math.min(o.rows, done + BATCH_ROWS);
    for (; done < end; done++) text += maker.row();
    yield text;
  }
}

/**
 * Writes the synthetic CSV to `path`, streaming (a temp file renamed into place, so readers never
 * see half a file).
 * @returns rows and bytes written.
 * @example await writeSyntheticCsv('/tmp/awards.csv', { rows: 219_590 });
 */
export async function writeSyntheticCsv(
  path: string,
  opts: SyntheticOptions = {},
): Promise<{ rows: number; bytes: number }> {
  const tmp = `${path}.tmp-${process.pid}-${Date.now()}`;
  const fh = await open(tmp, 'w');
  let bytes = 0;
  try {
    for (const piece of syntheticCsv(opts)) {
      const buf = Buffer.from(piece, 'utf8');
      await fh.write(buf);
      bytes += buf.length;
    }
    await fh.close();
    await rename(tmp, path);
  } catch (err) {
    await fh.close().catch(() => {});
    await rm(tmp, { force: true });
    throw err;
  }
  return { rows: opts.rows ?? SYNTHETIC_DEFAULTS.rows, bytes };
}
