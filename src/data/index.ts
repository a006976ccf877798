/** The data layer: where award_data comes from, how CSVs become columns, and the download. */
export { DataError, DATA_ERROR_CODES, type DataErrorCode } from './errors.js';
export { resolveDataSource, type DataSource, type ResolveDataSourceOptions } from './resolveDataSource.js';
export { openDataset } from './openDataset.js';
export type { Dataset, DatasetProgress } from './dataset.js';
export { tableFromCsv, tableFromRows, tableFromArquero, type ArqueroLike } from './tables.js';
export { ingestCsv, type IngestOptions, type IngestProgress, type IngestResult } from './ingest/ingestCsv.js';
export type { IngestReport } from './ingest/report.js';
export { downloadData, type DownloadOptions, type DownloadResult, type DownloadProgress } from './download.js';
export {
  syntheticCsv,
  writeSyntheticCsv,
  SYNTHETIC_DEFAULTS,
  SYNTHETIC_VERSION,
  type SyntheticOptions,
} from './synthetic.js';
export { OFFICIAL_CSV_URL, ENV, defaultCacheDir } from './paths.js';
