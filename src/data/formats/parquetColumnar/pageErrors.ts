import { SbirtoolsError } from '../../../core/errors.js';
/**
 * Signals of the columnar page decoder. `PageCorrupt`: the bytes contradict themselves (an offset
 * or a length past the page, an index past the dictionary); the chunk reader turns it into a
 * DataError DATA_CORRUPT that names the column and row group. `NeedsFallback`: the column uses a
 * feature this decoder does not implement (an encoding, an INT64 beyond 2^53): the column is then
 * decoded by the hyparquet path instead, so the result never differs.
 */
export class PageCorrupt extends SbirtoolsError {
  override readonly name = 'PageCorrupt';
  constructor(message: string) {
    super('PARQUET_PAGE_CORRUPT', message);
  }
}

/** See {@link PageCorrupt}: a valid file this decoder hands to the hyparquet path. */
export class NeedsFallback extends SbirtoolsError {
  override readonly name = 'NeedsFallback';
  constructor(message: string) {
    super('PARQUET_NEEDS_FALLBACK', message);
  }
}
