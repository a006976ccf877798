/** User tables for the surfaces: a CSV, Parquet, Arrow or JSON file in, and a table out as a file. */
export { tableFromCsv } from '../data/tables.js';
export { loadTable, type TableSource } from '../data/formats/loadTable.js';
export { TABLE_FORMATS } from '../data/formats/detectFormat.js';
export { encodeTable, csvChunks, type EncodeColumn, type ExportFormat } from '../data/formats/encodeTable.js';
export { decodeInWorker } from '../data/formats/decodeInWorker.js';
export { DEFAULT_TABLE_DOWNLOAD_DEADLINE_MS, type TableDownloadOptions } from '../data/formats/downloadTable.js';
